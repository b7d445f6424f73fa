// route_sediment: one hop of the sediment clip_delta did not settle. CPU mirror:
// plugin/core/cpu/routeSediment.ts.
//
// Hop h (params.routeHop, 1..SEDIMENT_HOPS) runs over the batch's region grown by h. Each cell
// gathers what its neighbours in the region grown by h - 1 send it along sedimentSlot (their
// `routed`). On dry ground that drains, it passes the sum on in the next hop (`routedNext`, at most
// ROUTE_LIMIT; the rest waits in its `suspended`): sediment crosses in one fold the cells it could
// not settle on anyway. Any other cell, and every cell on the last hop, keeps it in `suspended`,
// where a later fold settles it or sends it on. Gathering, not scattering, so no two invocations
// write one cell; every cell of the hop's rectangle writes its `routedNext`, so nothing stale is
// read by the next hop.

@group(0) @binding(BINDING_HEIGHTS) var<storage, read> heights: array<i32>;
@group(0) @binding(BINDING_FILL_LEVELS) var<storage, read> fillLevels: array<i32>;
@group(0) @binding(BINDING_ROUTED) var<storage, read> routed: array<i32>;
@group(0) @binding(BINDING_ROUTED_NEXT) var<storage, read_write> routedNext: array<i32>;
@group(0) @binding(BINDING_SUSPENDED) var<storage, read_write> suspended: array<i32>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let hop = params.routeHop;
    // The rectangles sent to (region grown by hop) and from (grown by hop - 1), clipped to the field.
    let x0 = max(params.regionX0 - hop, 0);
    let y0 = max(params.regionY0 - hop, 0);
    let x1 = min(params.regionX1 + hop, params.width);
    let y1 = min(params.regionY1 + hop, params.depth);
    let fromX0 = max(params.regionX0 - hop + 1, 0);
    let fromY0 = max(params.regionY0 - hop + 1, 0);
    let fromX1 = min(params.regionX1 + hop - 1, params.width);
    let fromY1 = min(params.regionY1 + hop - 1, params.depth);
    let x = x0 + i32(id.x);
    let y = y0 + i32(id.y);
    // The dispatch rounds the rectangle up to whole workgroups: invocations past it idle.
    if (x >= x1 || y >= y1) {
        return;
    }
    let i = y * params.width + x;
    var incoming = 0;
    for (var k = 0; k < 8; k++) {
        let nx = x + THERMAL_DX[k];
        let ny = y + THERMAL_DY[k];
        if (nx < fromX0 || ny < fromY0 || nx >= fromX1 || ny >= fromY1) {
            continue;
        }
        let amount = routed[ny * params.width + nx];
        if (amount <= 0) {
            continue;
        }
        let slot = sedimentSlot(nx, ny);
        if (nx + THERMAL_DX[slot] == x && ny + THERMAL_DY[slot] == y) {
            incoming += amount;
        }
    }
    var passed = 0;
    if (incoming > 0 && hop < SEDIMENT_HOPS && fillLevels[i] <= heights[i] && sedimentSlot(x, y) >= 0) {
        passed = min(incoming, ROUTE_LIMIT);
    }
    routedNext[i] = passed;
    let kept = incoming - passed;
    if (kept > 0) {
        // At most 8 sends of ROUTE_LIMIT onto at most ACCUMULATOR_LIMIT: no wrap. What passes the
        // accumulator's bound (unreachable in practice) is counted, so mass stays exact.
        var total = suspended[i] + kept;
        if (total > ACCUMULATOR_LIMIT) {
            addCounter(COUNTER_SATURATION_REMOVED, u32(total - ACCUMULATOR_LIMIT));
            total = ACCUMULATOR_LIMIT;
        }
        suspended[i] = total;
    }
}
