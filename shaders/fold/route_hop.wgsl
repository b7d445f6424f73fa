// One hop of the sediment a fold or a river batch did not settle, over the batch's extent (its
// region grown by params.routeHops, whole axes where a tileable river batch's wraps). CPU mirrors: SHADER_MIRRORS in plugin/gpu/kernelTable.ts.
//
// Two grids: `routedFrom` holds what is sent this hop, `routedTo` what is passed on to the next
// hop (the kernel that includes this binds them; `routed` and `routedNext` alternate hop by hop).
// Each vertex gathers what its neighbours send it along sedimentSlot. Sediment starts in the region
// and moves one vertex a hop, so nothing reaches past the extent; both grids are zero elsewhere
// (copy_levels clears them over the extent after every batch). A receiver in a basin settles what
// its room (fillRoom, less what this pass already changed it by: `delta`) allows, scaled by the
// batch operator's mask (params.routeMasked); the rest it passes on in the next hop (at most
// ROUTE_LIMIT; the rest waits in its `suspended`) when `passOn` and it has somewhere lower to send
// it, or keeps in `suspended`, where a later batch settles it or sends it on. Gathering, not
// scattering, so no two invocations write one vertex; every vertex of the extent writes its cell of
// `routedTo`.

// One hop reading `routedFrom` and writing `routedTo`.
fn routeHop(id: vec3<u32>, passOn: bool) {
    let x = params.extentX0 + i32(id.x);
    let y = params.extentY0 + params.dispatchOffset + i32(id.y);
    // The dispatch rounds the extent up to whole workgroups: invocations past it idle.
    if (x >= params.extentX1 || y >= params.extentY1) {
        return;
    }
    let i = y * params.width + x;
    let wrap = params.wrap != 0;
    // On the torus the last column and row repeat the first: nothing is ever sent to them.
    if (wrap && (x == params.width - 1 || y == params.depth - 1)) {
        routedTo[i] = 0;
        return;
    }
    var amount = 0;
    for (var k = 0; k < THERMAL_SLOTS; k++) {
        let n = neighbourAt(x, y, k, wrap);
        if (n < 0) {
            continue;
        }
        let sent = routedFrom[n];
        if (sent <= 0) {
            continue;
        }
        let nx = n % params.width;
        if (sedimentSlot(nx, n / params.width) == OPPOSITE_SLOT[k]) {
            amount += sent;
        }
    }
    routedTo[i] = 0;
    if (amount <= 0) {
        return;
    }
    if (!wrap && fillLevels[i] > heights[i]) {
        var settled = min(amount, max(fillRoom(heights[i], fillLevels[i], neighbourBounds(x, y)) - delta[i], 0));
        if (params.routeMasked != 0) {
            settled = mulQ16(settled, mask[i]);
        }
        delta[i] += settled;
        amount -= settled;
    }
    if (passOn && sedimentSlot(x, y) >= 0) {
        let passed = min(amount, ROUTE_LIMIT);
        routedTo[i] = passed;
        amount -= passed;
    }
    if (amount > 0) {
        // At most 8 sends of ROUTE_LIMIT onto at most ACCUMULATOR_LIMIT: no wrap. What passes the
        // accumulator's bound (unreachable in practice) is counted, so mass stays exact.
        var total = suspended[i] + amount;
        if (total > ACCUMULATOR_LIMIT) {
            addCounter(COUNTER_SATURATION_REMOVED, u32(total - ACCUMULATOR_LIMIT));
            total = ACCUMULATOR_LIMIT;
        }
        suspended[i] = total;
    }
}
