// copy_levels: the fill levels fill_levels stepped become the levels, over the batch's extent (a
// separate pass so no invocation of fill_levels reads a level another one is writing); and the
// sediment routing's buffers are cleared there, so the next batch starts from clean ones.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

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
    fillLevels[i] = levelsNext[i];
    routed[i] = 0;
    routedNext[i] = 0;
}
