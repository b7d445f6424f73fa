// apply_delta: second half of the fold, over the batch's extent (its region and as far as its
// sediment was routed). Adds each cell's clipped change to its height, clears the
// accumulator for the next batch, and records the change in the maps: lowering as wear, raising as
// deposition, and the batch's droplet visits into the water map, each saturating rather than
// wrapping. Touches only its own cell.
// Its CPU mirror: KERNELS in plugin/gpu/shaderLibrary.ts.

@group(0) @binding(BINDING_HEIGHTS) var<storage, read_write> heights: array<i32>;
@group(0) @binding(BINDING_DELTA) var<storage, read_write> delta: array<i32>;
@group(0) @binding(BINDING_WATER_BATCH) var<storage, read_write> waterBatch: array<i32>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let x = params.extentX0 + i32(id.x);
    let y = params.extentY0 + params.dispatchOffset + i32(id.y);
    // The dispatch rounds the extent up to whole workgroups: invocations past it idle.
    if (x >= params.extentX1 || y >= params.extentY1) {
        return;
    }
    let i = y * params.width + x;
    let change = delta[i];
    heights[i] += change;
    delta[i] = 0;
    recordChange(i, change);
    mapWater[i] = addSaturating(mapWater[i], u32(waterBatch[i]));
    waterBatch[i] = 0;
}
