// river_accumulate: a drainage-area step (area_step.wgsl). One file, two kernels (KERNELS in
// plugin/gpu/kernelTable.ts): ODD_STEP false steps from `drainageArea` into `areaNext` (the
// first of a river batch's steps and every other one after it), true from `areaNext` back into
// `drainageArea` (the second and every other one after it).

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    areaStep(id, ODD_STEP);
}
