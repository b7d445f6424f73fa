// water_flux: first pass of a water step, over the batch's patch. Each pipe the vertex owns keeps
// (1 - friction) of its flow and gains conductance x the difference of the water surfaces (ground +
// water) at its ends, truncated toward zero, within +-FLUX_LIMIT; where that is nothing, one unit
// downhill through the step's set of pipes (waterUnitPipes(): x, y or the diagonals) if the
// difference is at least the units its ends could pass and take in that set. Writes only its own
// pipes; reads surfaces nobody writes in this pass.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

// A water batch's options by their own names: waterRain() and the like (WATER_PARAM_SLOTS in
// plugin/core/batchParams.ts).

fn surfaceDifference(a: i32, b: i32) -> i32 {
    let ground = clamp(heights[a] - heights[b], -SURFACE_DIFFERENCE_LIMIT, SURFACE_DIFFERENCE_LIMIT);
    return ground + (waterDepth[a] - waterDepth[b]);
}

// Through how many pipes of set `pipes` vertex v could pass a unit (`below`: to neighbours 2 or
// more below its surface) or take one (from wet neighbours 2 or more above it). The sets' neighbours
// are slots of THERMAL_DX/DY: x 0 and 1, y 2 and 3, the diagonals 4 to 7.
fn unitPipes(v: i32, pipes: i32, below: bool) -> i32 {
    let width = params.width;
    let x = v % width;
    let y = v / width;
    var last = 2 * pipes + 2;
    if (pipes == 2) {
        last = THERMAL_SLOTS;
    }
    var count = 0;
    for (var k = 2 * pipes; k < last; k++) {
        let nx = x + THERMAL_DX[k];
        let ny = y + THERMAL_DY[k];
        if (nx < 0 || ny < 0 || nx >= width || ny >= params.depth) {
            continue;
        }
        let n = ny * width + nx;
        if (below) {
            if (surfaceDifference(v, n) >= 2) {
                count++;
            }
        } else if (waterDepth[n] > 0 && surfaceDifference(n, v) >= 2) {
            count++;
        }
    }
    return count;
}

fn pipeFlow(a: i32, b: i32, flow: i32, conductance: i32, pipes: i32) -> i32 {
    let difference = surfaceDifference(a, b);
    var push = truncMulQ16(difference, conductance);
    // The one-unit push where the conductance moves nothing: from the higher end, if it is wet and
    // the difference is at least the units its end could pass plus those the other end could take
    // in this set (so no pair swaps past level, and a lake comes to rest).
    if (push == 0 && pipes == waterUnitPipes() && (difference > 1 || difference < -1)) {
        var high = a;
        var low = b;
        if (difference < 0) {
            high = b;
            low = a;
        }
        if (waterDepth[high] > 0 && abs(difference) >= unitPipes(high, pipes, true) + unitPipes(low, pipes, false)) {
            push = select(-1, 1, difference > 0);
        }
    }
    // A flow against the surfaces' difference keeps nothing: momentum never carries water uphill,
    // so a lake stops draining where its surface meets its spill point (not past it).
    var kept = truncMulQ16(flow, waterFlowKept());
    if ((flow > 0 && difference < 0) || (flow < 0 && difference > 0)) {
        kept = 0;
    }
    return clamp(kept + push, -FLUX_LIMIT, FLUX_LIMIT);
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let vertex = patchVertex(id);
    if (vertex.x < 0) {
        return;
    }
    let x = vertex.x;
    let y = vertex.y;
    let width = params.width;
    let i = y * width + x;
    let lastColumn = x + 1 >= width;
    let lastRow = y + 1 >= params.depth;
    if (lastColumn) {
        fluxX[i] = 0;
    } else {
        fluxX[i] = pipeFlow(i, i + 1, fluxX[i], PIPE_AXIS_Q16, 0);
    }
    if (lastRow) {
        fluxY[i] = 0;
    } else {
        fluxY[i] = pipeFlow(i, i + width, fluxY[i], PIPE_AXIS_Q16, 1);
    }
    if (lastColumn || lastRow) {
        fluxD1[i] = 0;
        fluxD2[i] = 0;
    } else {
        fluxD1[i] = pipeFlow(i, i + width + 1, fluxD1[i], PIPE_DIAGONAL_Q16, 2);
        fluxD2[i] = pipeFlow(i + 1, i + width, fluxD2[i], PIPE_DIAGONAL_Q16, 2);
    }
}
