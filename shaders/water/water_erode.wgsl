// water_erode: fifth pass of a water step, over the batch's patch. Capacity = capacity x
// max(slope, minSlope) x discharge (the length of the net flow through the vertex). Below capacity
// the water picks up `dissolving` of the deficit, at most a quarter of the drop to the lowest
// neighbour; above it, it lays down `deposition` of the surplus within fillRoom. Into groundChange;
// reads heights and levels nobody writes in this pass. Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

// A water batch's options by their own names: waterRain() and the like (WATER_PARAM_SLOTS in
// plugin/core/batchParams.ts).

// The length of the net flow through (x, y) (flowVector in water_pipes.wgsl), halved.
fn dischargeAt(x: i32, y: i32) -> i32 {
    let flow = flowVector(x, y);
    return hypotenuse(flow.x, flow.y) >> 1u;
}

// |difference| / run (run 1 or 2 cells), truncated, at most GRADIENT_COMPONENT_LIMIT.
fn gradientMagnitude(difference: i32, run: i32) -> i32 {
    return min(abs(difference), GRADIENT_COMPONENT_LIMIT) >> u32(run - 1);
}

fn groundSlopeAt(x: i32, y: i32) -> i32 {
    let width = params.width;
    let i = y * width + x;
    let left = select(i, i - 1, x > 0);
    let right = select(i, i + 1, x + 1 < width);
    let up = select(i, i - width, y > 0);
    let down = select(i, i + width, y + 1 < params.depth);
    let gx = gradientMagnitude(heights[right] - heights[left], right - left);
    let gy = gradientMagnitude(heights[down] - heights[up], (down - up) / width);
    return min(hypotenuse(gx, gy), FIXED_ONE);
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let vertex = patchVertex(id);
    if (vertex.x < 0) {
        return;
    }
    let x = vertex.x;
    let y = vertex.y;
    let i = y * params.width + x;
    let discharge = dischargeAt(x, y);
    let slope = max(groundSlopeAt(x, y), waterMinSlope());
    let capacity = mulQ16Sat(mulQ16Sat(slope, waterCapacity()), discharge);
    let load = sedimentNext[i];
    let bounds = neighbourBounds(x, y);
    let height = heights[i];
    if (capacity > load) {
        var drop = 0;
        if (bounds.lowest < height) {
            drop = height - bounds.lowest;
        }
        groundChange[i] = -min(min(mulQ16(capacity - load, waterDissolving()), drop >> MAX_SHARE_SHIFT), WATER_SEDIMENT_LIMIT);
    } else {
        let room = fillRoom(height, levelAt(i), bounds);
        groundChange[i] = min(mulQ16(load - capacity, waterDeposition()), max(room, 0));
    }
}
