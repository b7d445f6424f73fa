// copy_area: the drainage areas river_accumulate stepped become the areas, over the river batch's
// rectangle (a separate pass so no invocation reads an area another is writing).
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let rect = riverRect();
    let x = rect.x + i32(id.x);
    let y = rect.y + params.dispatchOffset + i32(id.y);
    // The dispatch rounds the rectangle up to whole workgroups: invocations past it idle.
    if (x >= rect.z || y >= rect.w) {
        return;
    }
    let i = y * params.width + x;
    drainageArea[i] = areaNext[i];
}
