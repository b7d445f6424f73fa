// flow_accumulate: one propagation step of the upstream counts over a patch (seed 004), Jacobi
// style: every vertex reads the counts as they stood before the step (flowCounts) and writes its
// new count to flowNext; flow_copy then makes them the counts. A count is the vertex itself plus
// the counts of the neighbours draining into it, saturating at FLOW_COUNT_LIMIT (seed 004's one-byte
// channel stopped at 255). CPU mirror: plugin/core/cpu/flowAccumulate.ts.

@group(0) @binding(BINDING_HEIGHTS) var<storage, read> heights: array<i32>;
@group(0) @binding(BINDING_FLOW_COUNTS) var<storage, read> flowCounts: array<i32>;
@group(0) @binding(BINDING_FLOW_NEXT) var<storage, read_write> flowNext: array<i32>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = params.patchX0 + i32(id.x);
    let y = params.patchY0 + i32(id.y);
    // The dispatch rounds the patch up to whole workgroups: invocations past it idle.
    if (x >= params.patchX1 || y >= params.patchY1) {
        return;
    }
    let i = y * params.width + x;
    var total = 1;
    for (var k = 0; k < params.flowNeighbours; k++) {
        let n = neighbourIndex(x, y, k);
        if (n < 0) {
            continue;
        }
        let nx = n % params.width;
        let ny = n / params.width;
        if (receiverOf(nx, ny) == i) {
            total = min(total + flowCounts[n], FLOW_COUNT_LIMIT);
        }
    }
    flowNext[i] = total;
}
