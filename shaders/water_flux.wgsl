// water_flux: first pass of a water step, over the batch's patch. Each pipe the vertex owns keeps
// (1 - friction) of its flow and gains conductance x the difference of the water surfaces (ground +
// water) at its ends, truncated toward zero (one unit downhill where that is nothing but they differ
// by 2 or more), within +-FLUX_LIMIT. Writes only its own pipes; reads surfaces nobody writes in this pass.
// Its CPU mirror: KERNELS in plugin/gpu/shaderLibrary.ts.

// A water batch's options by their own names: waterRain() and the like (WATER_PARAM_SLOTS in
// plugin/core/batchParams.ts).
@group(0) @binding(BINDING_HEIGHTS) var<storage, read> heights: array<i32>;
@group(0) @binding(BINDING_WATER_DEPTH) var<storage, read> waterDepth: array<i32>;
@group(0) @binding(BINDING_FLUX_X) var<storage, read_write> fluxX: array<i32>;
@group(0) @binding(BINDING_FLUX_Y) var<storage, read_write> fluxY: array<i32>;
@group(0) @binding(BINDING_FLUX_D1) var<storage, read_write> fluxD1: array<i32>;
@group(0) @binding(BINDING_FLUX_D2) var<storage, read_write> fluxD2: array<i32>;

fn pipeFlow(a: i32, b: i32, flow: i32, conductance: i32) -> i32 {
    let ground = clamp(heights[a] - heights[b], -SURFACE_DIFFERENCE_LIMIT, SURFACE_DIFFERENCE_LIMIT);
    let difference = ground + (waterDepth[a] - waterDepth[b]);
    var push = truncMulQ16(difference, conductance);
    if (push == 0 && (difference > 1 || difference < -1)) {
        push = select(-1, 1, difference > 0);
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
        fluxX[i] = pipeFlow(i, i + 1, fluxX[i], PIPE_AXIS_Q16);
    }
    if (lastRow) {
        fluxY[i] = 0;
    } else {
        fluxY[i] = pipeFlow(i, i + width, fluxY[i], PIPE_AXIS_Q16);
    }
    if (lastColumn || lastRow) {
        fluxD1[i] = 0;
        fluxD2[i] = 0;
    } else {
        fluxD1[i] = pipeFlow(i, i + width + 1, fluxD1[i], PIPE_DIAGONAL_Q16);
        fluxD2[i] = pipeFlow(i + 1, i + width, fluxD2[i], PIPE_DIAGONAL_Q16);
    }
}
