// river_erode: stream-power erosion and deposition over a river batch's rectangle. Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.
//
// Each vertex is lowered by riverErosionAt (the implicit step toward its receiver: never below it).
// Its load is what it eroded plus the sediment waiting there. Under a fill level (in a basin) the
// stream has no slope to carry with, so the load settles as in the fold (fillRoom) and the rest
// moves on across the basin. Elsewhere the stream carries capacity x A x slope (a transport-limited
// law: a river's load is the material of everything upstream, so what it can carry grows with A,
// not sqrt A); of what it holds beyond that it lays down the deposition fraction, never up to the
// height a donor is left at (so a deposit never dams the water that brings it; contract version
// 14 dropped a second bound, within FILL_EPSILON of any neighbouring level above its own, which
// kept a channel from ever rising past its lowest bank, so rivers could not build fans or
// floodplains, and which the donors' bound already covers for the fill levels: a neighbour that
// does not drain through this vertex has a lower one of its own). What it does not lay down goes on
// (`routed`, river_settle); `suspended` keeps only material a cut still owes.
// With the materials on, a cut takes the soil first and the rock beneath at 1 / hardness (cutAt).
// Writes only this vertex's delta, suspended and routed.

// min(a x b, ACCUMULATOR_LIMIT) for non-negative a and b.
fn saturatingProduct(a: i32, b: i32) -> i32 {
    if (b > 0 && a > ACCUMULATOR_LIMIT / b) {
        return ACCUMULATOR_LIMIT;
    }
    return min(a * b, ACCUMULATOR_LIMIT);
}

// What vertex (x, y) loses to stream power this batch (riverErosionAt), through the materials' rule
// when they are on.
fn cutAt(x: i32, y: i32) -> i32 {
    let cut = riverErosionAt(x, y);
    if (!materialsOn || cut == 0) {
        return cut;
    }
    let i = y * params.width + x;
    return materialCut(cut, material[i], vertexHardness(i, x, y, heights[i]));
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    materialsOn = materials() != 0;
    let rect = riverRect();
    let x = rect.x + i32(id.x);
    let y = rect.y + params.dispatchOffset + i32(id.y);
    // The dispatch rounds the rectangle up to whole workgroups: invocations past it idle.
    if (x >= rect.z || y >= rect.w) {
        return;
    }
    let width = params.width;
    let wrap = params.wrap != 0;
    let i = y * width + x;
    let height = heights[i];
    let eroded = cutAt(x, y);
    var donorFloor = HEIGHT_MAX_FIXED;
    for (var k = 0; k < THERMAL_SLOTS; k++) {
        let n = neighbourAt(x, y, k, wrap);
        if (n < 0) {
            continue;
        }
        let nx = n % width;
        let ny = n / width;
        if (sedimentSlot(nx, ny) == OPPOSITE_SLOT[k]) {
            donorFloor = min(donorFloor, heights[n] - cutAt(nx, ny));
        }
    }
    let waiting = suspended[i];
    let load = max(waiting, 0) + eroded;
    var deposited = 0;
    let level = fillLevels[i];
    if (!wrap && level > height) {
        deposited = min(load, fillRoom(height, level, neighbourBounds(x, y)));
    } else {
        let slot = sedimentSlot(x, y);
        var fall = 0;
        if (slot >= 0) {
            fall = max(height - heights[neighbourAt(x, y, slot, wrap)], 0);
        }
        var slope = fall;
        if (slot >= FIRST_DIAGONAL_SLOT) {
            slope = mulQ16(fall, INVERSE_SQRT2_Q16);
        }
        let capacity = saturatingProduct(mulQ16Sat(params.riverCapacity, slope), drainageArea[i]);
        if (load > capacity && donorFloor != HEIGHT_MAX_FIXED) {
            let room = max(donorFloor - (height - eroded) - 1, 0);
            deposited = min(mulQ16(load - capacity, params.riverDeposition), room);
        }
    }
    if (params.riversMasked != 0) {
        deposited = mulQ16(deposited, mask[i]);
    }
    delta[i] = deposited - eroded;
    routed[i] = load - deposited;
    suspended[i] = min(waiting, 0);
}
