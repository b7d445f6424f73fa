// erode_droplets: one batch of droplet (particle) hydraulic erosion over one patch, with an erosion
// brush and per-batch bounds (docs/simulation.md, "Droplet hydraulic erosion" and "Sources").
// Its CPU mirror (KERNELS in plugin/gpu/kernelTable.ts)
// computes the same integers with the same names and clamps, in passes written for V8.
//
// Each invocation carries one droplet. It is placed in the patch's interior by a hash of
// (seed, cycle, patch index, droplet index), then walks downhill one cell per step for at most
// maxSteps steps: it picks up material where it runs fast over steep ground and lays it down where
// the ground flattens or rises.
//
// The pass never writes a height. Every droplet reads the ground as it stood when the batch began
// and adds its changes into `delta` with atomicAdd; integer addition commutes, so thousands of
// droplets landing on one cell sum to the same total in any order, on any GPU. clip_delta and
// apply_delta fold the sum in afterwards.
//
// What one batch may move:
// - `share` scales each droplet's capacity and caps to the part of one cell's rainfall it carries,
//   so doubling the droplets resolves the flow better and moves the same material.
// - A step cuts at most a quarter of the drop below it and fills at most a quarter of the rise
//   above it (MAX_SHARE_SHIFT), scaled by share: without it every droplet of a batch cuts the same
//   drop from the same starting ground and the cell swings further every batch.
// - `stepCap` bounds one write so that dropletCount * maxSteps writes to one cell stay inside
//   ACCUMULATOR_LIMIT: the accumulator cannot wrap however many droplets or batches run.
// Mass is exact: a droplet's sediment is the sum of what it actually wrote, and what it still holds
// at the end is laid down where its walk ends (endOfWalk "deposit") or counted as outflow.
//
// Masks: with hydraulicMasked, each part a step cuts or lays down at a vertex is scaled
// by the mask there, and what the mask declines stays where it was, in the ground or in the droplet,
// so a droplet carries its load across ground the mask holds out. The parts are computed exactly as
// without a mask, so a mask of ones (FIXED_ONE) changes nothing. What a droplet still holds when its walk
// ends lands unscaled where the walk ended: the ground it walked is already lighter by that much.
// Every step also counts a visit of the water map at the vertex nearest where it starts.
//
// Materials: with them on, each part a step cuts at a vertex (after the mask) takes the soil there
// first and the rock beneath at 1 / hardness (cutPart), against the soil and heights as the batch
// found them; what it declines stays in the ground.

// cos(2 pi a / ANGLE_STEPS) x FIXED_ONE from the quarter table (a literal, so every machine agrees).
// CPU mirror: SHADER_MIRRORS in plugin/gpu/kernelTable.ts.
fn cosineOf(a: i32) -> i32 {
    if (a <= QUARTER_TURN) {
        return QUARTER_COSINES[a];
    }
    if (a <= 2 * QUARTER_TURN) {
        return -QUARTER_COSINES[2 * QUARTER_TURN - a];
    }
    if (a <= 3 * QUARTER_TURN) {
        return -QUARTER_COSINES[a - 2 * QUARTER_TURN];
    }
    return QUARTER_COSINES[ANGLE_STEPS - a];
}

// a x c / 2^16 for a >= 0 and a cosine or sine c of either sign, truncating toward zero.
fn signedMulQ16(a: i32, c: i32) -> i32 {
    if (c >= 0) {
        return mulQ16(a, c);
    }
    return -mulQ16(a, -c);
}

// The part a step moves at vertex i: all of it without a mask, else scaled by the mask there.
fn masked(part: i32, i: i32) -> i32 {
    if (params.hydraulicMasked == 0) {
        return part;
    }
    return mulQ16(part, mask[i]);
}

// A part a step cuts at vertex i: masked, then through the materials' rule when they are on.
fn cutPart(part: i32, i: i32) -> i32 {
    let moved = masked(part, i);
    if (!MATERIALS || !materialsOn || moved <= 0) {
        return moved;
    }
    return materialCut(moved, material[i], vertexHardness(i, i % params.width, i / params.width, heights[i]));
}

fn sampleHeight(px: i32, py: i32) -> i32 {
    let width = params.width;
    let i00 = (py >> 16u) * width + (px >> 16u);
    let fx = px & 0xffff;
    let fy = py & 0xffff;
    let h00 = heights[i00];
    let h10 = heights[i00 + 1];
    let h01 = heights[i00 + width];
    let h11 = heights[i00 + width + 1];
    let h0 = h00 + mulQ16(h10 - h00, fx);
    let h1 = h01 + mulQ16(h11 - h01, fx);
    return h0 + mulQ16(h1 - h0, fy);
}

// Adds sign * amount to the four vertices around (px, py), split by bilinear weights so the parts
// sum to exactly `amount` (the last vertex takes what the floors of the others leave). With
// `scaledByMask` each part is scaled by the mask at its vertex (a step's cut or fill; a cut's parts
// through cutPart); without it the split is whole (what a droplet still holds when its walk ends).
// Returns what was moved.
fn addBilinear(px: i32, py: i32, amount: i32, sign: i32, scaledByMask: bool) -> i32 {
    let width = params.width;
    let i00 = (py >> 16u) * width + (px >> 16u);
    let fx = px & 0xffff;
    let fy = py & 0xffff;
    let p00 = mulQ16(amount, mulQ16(FIXED_ONE - fx, FIXED_ONE - fy));
    let p10 = mulQ16(amount, mulQ16(fx, FIXED_ONE - fy));
    let p01 = mulQ16(amount, mulQ16(FIXED_ONE - fx, fy));
    var parts = vec4<i32>(p00, p10, p01, amount - p00 - p10 - p01);
    if (scaledByMask && sign < 0) {
        parts = vec4<i32>(cutPart(parts.x, i00), cutPart(parts.y, i00 + 1), cutPart(parts.z, i00 + width), cutPart(parts.w, i00 + width + 1));
    } else if (scaledByMask) {
        parts = vec4<i32>(masked(parts.x, i00), masked(parts.y, i00 + 1), masked(parts.z, i00 + width), masked(parts.w, i00 + width + 1));
    }
    atomicAdd(&delta[i00], sign * parts.x);
    atomicAdd(&delta[i00 + 1], sign * parts.y);
    atomicAdd(&delta[i00 + width], sign * parts.z);
    atomicAdd(&delta[i00 + width + 1], sign * parts.w);
    return parts.x + parts.y + parts.z + parts.w;
}

// Cuts `amount` from the brush centred on the vertex nearest (px, py); returns what was cut.
// Every entry but the centre takes floor(amount * weight / 2^16), the centre takes the rest;
// entries outside the field are skipped (and not counted).
fn cutWithBrush(px: i32, py: i32, amount: i32) -> i32 {
    let width = params.width;
    let depth = params.depth;
    let centreX = (px + 0x8000) >> 16u;
    let centreY = (py + 0x8000) >> 16u;
    var remainder = amount;
    var cut = 0;
    for (var k = 1; k < params.brushCount; k++) {
        let part = mulQ16(amount, brush[k * BRUSH_ENTRY_INTS + 2]);
        remainder -= part;
        let x = centreX + brush[k * BRUSH_ENTRY_INTS];
        let y = centreY + brush[k * BRUSH_ENTRY_INTS + 1];
        if (x >= 0 && y >= 0 && x < width && y < depth) {
            let moved = cutPart(part, y * width + x);
            atomicAdd(&delta[y * width + x], -moved);
            cut += moved;
        }
    }
    let centre = centreY * width + centreX;
    let movedRemainder = cutPart(remainder, centre);
    atomicAdd(&delta[centre], -movedRemainder);
    return cut + movedRemainder;
}

@compute @workgroup_size(DROPLET_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    // MATERIALS: this build runs the materials' rule (erode_droplets_materials); the other has none.
    materialsOn = MATERIALS && materials() != 0;
    // A batch in pieces runs a range of its droplets a dispatch, from `dispatchOffset` (0 when whole).
    let dropletId = params.dispatchOffset + i32(id.y) * params.dispatchRowThreads + i32(id.x);
    // The 2D dispatch rounds up to whole workgroups: invocations past the batch's droplets idle.
    if (dropletId >= params.dropletCount) {
        return;
    }
    let width = params.width;
    let limitX = (params.width - 1) * FIXED_ONE;
    let limitY = (params.depth - 1) * FIXED_ONE;
    let spanX = u32((params.spawnX1 - params.spawnX0) * FIXED_ONE);
    let spanY = u32((params.spawnY1 - params.spawnY0) * FIXED_ONE);
    let seed = bitcast<u32>(params.seed);
    let cycle = bitcast<u32>(params.cycle);
    let patchIndex = u32(params.patchIndex);
    let gradientWeight = FIXED_ONE - params.inertia;

    let hashX = hash4(seed, cycle, patchIndex, u32(2 * dropletId));
    let hashY = hash4(seed, cycle, patchIndex, u32(2 * dropletId + 1));
    var px = params.spawnX0 * FIXED_ONE + i32(hashX % spanX);
    var py = params.spawnY0 * FIXED_ONE + i32(hashY % spanY);
    if (params.spawnDisc != 0) {
        // A local event's disc: radius x sqrt(u) out at angle a (plugin/core/localErosion.ts).
        let distance = mulQ16(params.discRadius, sqrtQ16(i32(hashX >> 16u)));
        let a = i32(hashY >> 24u);
        px = params.discCentreX + signedMulQ16(distance, cosineOf(a));
        py = params.discCentreY + signedMulQ16(distance, cosineOf((a + 3 * QUARTER_TURN) & (ANGLE_STEPS - 1)));
        if (px < 0 || py < 0 || px >= limitX || py >= limitY) {
            return; // starts outside the field: skipped
        }
    }
    var dirX = 0;
    var dirY = 0;
    var speed = params.initialSpeed;
    var water = params.initialWater;
    var sediment = 0;
    var leftField = false;
    var steps = 0u;

    for (var step = 0; step < params.maxSteps; step++) {
        let cellX = px >> 16u;
        let cellY = py >> 16u;
        let fx = px & 0xffff;
        let fy = py & 0xffff;
        let i00 = cellY * width + cellX;
        let h00 = heights[i00];
        let h10 = heights[i00 + 1];
        let h01 = heights[i00 + width];
        let h11 = heights[i00 + width + 1];
        let gradX = clamp(mulQ16(h10 - h00, FIXED_ONE - fy) + mulQ16(h11 - h01, fy), -GRADIENT_LIMIT, GRADIENT_LIMIT);
        let gradY = clamp(mulQ16(h01 - h00, FIXED_ONE - fx) + mulQ16(h11 - h10, fx), -GRADIENT_LIMIT, GRADIENT_LIMIT);
        let h0 = h00 + mulQ16(h10 - h00, fx);
        let h1 = h01 + mulQ16(h11 - h01, fx);
        let heightHere = h0 + mulQ16(h1 - h0, fy);

        // New direction: keep `inertia` of the old one, turn the rest toward the downhill gradient.
        let wantX = mulQ16(dirX, params.inertia) - mulQ16(gradX, gradientWeight);
        let wantY = mulQ16(dirY, params.inertia) - mulQ16(gradY, gradientWeight);
        if (wantX == 0 && wantY == 0) {
            break; // on flat ground with no momentum: the walk ends here
        }
        // Normalise to one cell: bring the larger component to 15 bits (exact shifts), then divide.
        let largest = u32(max(abs(wantX), abs(wantY)));
        let bits = 32u - countLeadingZeros(largest);
        var reducedX: i32;
        var reducedY: i32;
        if (bits > 15u) {
            reducedX = wantX >> (bits - 15u);
            reducedY = wantY >> (bits - 15u);
        } else {
            reducedX = wantX << (15u - bits);
            reducedY = wantY << (15u - bits);
        }
        let length = i32(isqrt32(u32(reducedX * reducedX) + u32(reducedY * reducedY)));
        dirX = (reducedX << 16u) / length;
        dirY = (reducedY << 16u) / length;

        let nextX = px + dirX;
        let nextY = py + dirY;
        steps += 1u;
        atomicAdd(&waterBatch[((py + 0x8000) >> 16u) * width + ((px + 0x8000) >> 16u)], 1);
        if (nextX < 0 || nextY < 0 || nextX >= limitX || nextY >= limitY) {
            leftField = true;
            break;
        }
        let heightNext = sampleHeight(nextX, nextY);
        let drop = heightNext - heightHere; // negative going downhill

        var carry = mulQ16Sat(max(-drop, params.minSlope), speed);
        carry = mulQ16Sat(carry, water);
        carry = mulQ16Sat(carry, params.capacity);
        carry = mulQ16(carry, params.share);

        if (sediment > carry || drop > 0) {
            // Deposit: fill (at most a quarter of) the rise, or lay down part of the surplus.
            var amount: i32;
            if (drop > 0) {
                amount = min(sediment, mulQ16(drop >> MAX_SHARE_SHIFT, params.share));
            } else {
                amount = mulQ16(sediment - carry, params.deposition);
            }
            amount = min(amount, params.stepCap);
            if (amount > 0) {
                sediment -= addBilinear(px, py, amount, 1, true);
            }
        } else {
            // Erode: pick up part of the deficit, never more than a quarter of the drop.
            var amount = min(mulQ16(carry - sediment, params.erosion), mulQ16((-drop) >> MAX_SHARE_SHIFT, params.share));
            amount = min(amount, params.stepCap);
            if (amount > 0) {
                if (params.brushCount == 0) {
                    sediment += addBilinear(px, py, amount, -1, true);
                } else {
                    sediment += cutWithBrush(px, py, amount);
                }
            }
        }

        // Physical sign: descending (drop < 0) speeds the droplet up; the widely copied droplet
        // pseudocode has it backwards. Speed^2 is floored at zero (docs/simulation.md, "Sources").
        var speedSquared = mulQ16Sat(speed, speed);
        let gained = mulQ16Sat(abs(drop), params.gravity);
        if (drop < 0) {
            speedSquared = min(speedSquared + gained, SATURATION_LIMIT);
        } else {
            speedSquared = max(speedSquared - gained, 0);
        }
        speed = sqrtQ16(speedSquared);
        water = mulQ16(water, params.waterRetained);
        px = nextX;
        py = nextY;
        if (water < params.minWater) {
            break;
        }
    }

    addCounter(COUNTER_DROPLET_STEPS, steps);
    if (leftField || params.depositAtEnd == 0) {
        addCounter(COUNTER_OUTFLOW, u32(sediment));
    } else if (sediment > 0) {
        addBilinear(px, py, sediment, 1, false);
    }
}
