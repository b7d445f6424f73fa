// river_uplift: tectonic uplift over a river batch's rectangle, delta += uplift x map (the uplift
// mask when set), counted so mass balance stays exact, never past the top of the height range. The
// field's edge is the base level the rivers drain to and is not lifted (a tileable terrain has no edge).
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
    if (params.wrap == 0 && (x == 0 || y == 0 || x == params.width - 1 || y == params.depth - 1)) {
        return;
    }
    let i = y * params.width + x;
    var uplift = params.riverUplift;
    if (params.upliftMasked != 0) {
        uplift = mulQ16(uplift, mask[i]);
    }
    uplift = min(uplift, max(HEIGHT_MAX_FIXED - (heights[i] + delta[i]), 0));
    delta[i] += uplift;
    addCounter(COUNTER_UPLIFT_ADDED, u32(uplift));
}
