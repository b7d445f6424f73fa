// flow_erode: flow-accumulation erosion over a patch (seed 004). Each vertex with a strictly lower
// neighbour cuts rate x blurred upstream count metres (seed 004: "the more tributaries a point has,
// the more elevation is eroded away") and hands it to that neighbour; the blurred count is the
// average over the vertex and its 8 neighbours (seed 004's blue channel).
// Seed 004 warns the operator gouges ever-deeper ruts: a vertex never cuts more than
// drop / (2 x neighbours), so it cannot sink below the vertex it drains into (a channel never
// deepens below its own outlet) and no receiver rises above its donors. Donors of one receiver
// write it concurrently, so changes go into delta by atomicAdd; flow_apply folds them in.
// CPU mirror: plugin/core/cpu/flowErode.ts.

@group(0) @binding(BINDING_HEIGHTS) var<storage, read> heights: array<i32>;
@group(0) @binding(BINDING_FLOW_COUNTS) var<storage, read> flowCounts: array<i32>;
@group(0) @binding(BINDING_DELTA) var<storage, read_write> delta: array<atomic<i32>>;
@group(0) @binding(BINDING_MASK) var<storage, read> mask: array<i32>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = params.patchX0 + i32(id.x);
    let y = params.patchY0 + i32(id.y);
    // The dispatch rounds the patch up to whole workgroups: invocations past it idle.
    if (x >= params.patchX1 || y >= params.patchY1) {
        return;
    }
    let i = y * params.width + x;
    let receiver = receiverOf(x, y);
    if (receiver < 0) {
        return;
    }
    var sum = flowCounts[i];
    var cells = 1;
    for (var k = 0; k < 8; k++) {
        let n = neighbourIndex(x, y, k);
        if (n >= 0) {
            sum += flowCounts[n];
            cells += 1;
        }
    }
    let blurred = sum / cells;
    let drop = heights[i] - heights[receiver];
    // rate x count, saturated at the i32 limit when the product would not fit.
    var capacity = 2147483647u;
    if (params.flowRate == 0) {
        capacity = 0u;
    } else if (u32(blurred) <= 2147483647u / u32(params.flowRate)) {
        capacity = u32(params.flowRate) * u32(blurred);
    }
    var cut = i32(min(u32(drop >> u32(params.flowSlopeShift)), capacity));
    // With flowMasked, scaled by the smaller of the two vertices' masks.
    if (params.flowMasked != 0) {
        cut = mulQ16(cut, min(mask[i], mask[receiver]));
    }
    if (cut > 0) {
        atomicAdd(&delta[i], -cut);
        atomicAdd(&delta[receiver], cut);
    }
}
