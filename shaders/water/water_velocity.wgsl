// water_velocity: the depth pass's second kernel, over the batch's patch, right after water_depth:
// each vertex's velocity (Q16 cells a step along x and y) into the water's view grids, while every
// pipe holds the step's limited flow and the depth is the one it left. The maps and the
// `shallowWater` texture read it from there, so mid-step they show the last depth pass's velocity,
// never a pipe against the depth of another step. The flow through the vertex as a vector over
// max(2 x depth, the flow through it): no component above 1 cell a step. Touches only its own vertex.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

// part / whole in Q16 signed like part (|part| <= whole, whole > 0), truncated toward zero.
fn signedFraction(part: i32, whole: i32) -> i32 {
    if (part >= 0) {
        return fractionQ16(part, whole);
    }
    return -fractionQ16(-part, whole);
}

// The velocity of (x, y) from its pipes and depth; zero where it is dry.
fn waterVelocityAt(x: i32, y: i32) -> vec2<i32> {
    let depth = waterDepth[y * params.width + x];
    if (depth <= 0) {
        return vec2<i32>(0, 0);
    }
    let flow = flowVector(x, y);
    let divisor = max(2 * depth, flowThrough(x, y));
    return vec2<i32>(signedFraction(flow.x, divisor), signedFraction(flow.y, divisor));
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let vertex = patchVertex(id);
    if (vertex.x < 0) {
        return;
    }
    let i = vertex.y * params.width + vertex.x;
    let velocity = waterVelocityAt(vertex.x, vertex.y);
    velocityX[i] = velocity.x;
    velocityY[i] = velocity.y;
}
