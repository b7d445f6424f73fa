// flow_copy: the propagation step's counts become the counts, over the patch. A separate pass so no
// invocation of flow_accumulate reads a count another one is writing.
// CPU mirror: flowCopy in plugin/core/cpu/flowAccumulate.ts.

@group(0) @binding(BINDING_FLOW_NEXT) var<storage, read> flowNext: array<i32>;
@group(0) @binding(BINDING_FLOW_COUNTS) var<storage, read_write> flowCounts: array<i32>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = params.patchX0 + i32(id.x);
    let y = params.patchY0 + i32(id.y);
    // The dispatch rounds the patch up to whole workgroups: invocations past it idle.
    if (x >= params.patchX1 || y >= params.patchY1) {
        return;
    }
    let i = y * params.width + x;
    flowCounts[i] = flowNext[i];
}
