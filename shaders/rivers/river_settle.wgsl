// river_settle: where the load river_erode sent on goes. Along sedimentSlot (at most ROUTE_LIMIT a
// batch; the rest waits in `suspended`), off the field at an edge vertex with nowhere lower to go,
// else it waits. Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

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
    let load = routed[i];
    if (load <= 0) {
        return;
    }
    var kept = 0;
    if (sedimentSlot(x, y) >= 0) {
        routed[i] = min(load, ROUTE_LIMIT);
        kept = load - routed[i];
    } else if (params.wrap == 0 && (x == 0 || y == 0 || x == params.width - 1 || y == params.depth - 1)) {
        routed[i] = 0;
        addCounter(COUNTER_OUTFLOW, u32(load));
    } else {
        routed[i] = 0;
        kept = load;
    }
    if (kept > 0) {
        var total = suspended[i] + kept;
        if (total > ACCUMULATOR_LIMIT) {
            addCounter(COUNTER_SATURATION_REMOVED, u32(total - ACCUMULATOR_LIMIT));
            total = ACCUMULATOR_LIMIT;
        }
        suspended[i] = total;
    }
}
