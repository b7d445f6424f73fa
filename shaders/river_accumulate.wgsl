// river_accumulate: a drainage-area step (area_step.wgsl). One file, two kernels (KERNELS in
// plugin/gpu/kernelTable.ts): ODD_STEP false steps from `drainageArea` into `areaNext` (the
// first of a river batch's steps and every other one after it), true from `areaNext` back into
// `drainageArea` (the second and every other one after it).

// Both read_write: area_step.wgsl writes whichever this step steps into.
@group(0) @binding(BINDING_DRAINAGE_AREA) var<storage, read_write> drainageArea: array<i32>;
@group(0) @binding(BINDING_AREA_NEXT) var<storage, read_write> areaNext: array<i32>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    areaStep(id, ODD_STEP);
}
