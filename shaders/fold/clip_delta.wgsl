// clip_delta: first half of folding a droplet batch into the heights.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.
//
// Every droplet of a batch worked from the same starting ground, so where many walks meet their
// summed change can carry a cell far past its neighbours. This pass decides, per cell, how much of
// the batch's change and of the sediment waiting there (`suspended`) the ground takes now:
// - A cut goes down at most an eighth of the way to the lowest of the 8 neighbours
//   (FOLD_RELIEF_SHIFT), so no cell is dug below its neighbours and none swings back and forth.
// - A fill goes up at most an eighth of the way to the lowest strictly higher neighbour. A cell
//   raised that way stays below every neighbour that was above it, even when that neighbour is cut
//   in the same pass, so a fill never takes a neighbour's way down from it: deposits cannot dam a
//   channel (they did, before: docs/simulation.md, "The fold").
// - Under its fill level (in a basin: plugin/core/fillLevels.ts) the floor of a basin (no lower
//   neighbour) fills up to its lowest neighbour, never past the level, so basins fill flat from the
//   floor up; and no fill comes within FILL_EPSILON of a neighbouring level above the cell's own, so
//   a deposit never blocks the way down of a neighbour that drains through it and the fill levels
//   only ever need to come down (fillRoom in sediment_routing.wgsl).
// - The hydraulic mask scales what settles; what it declines travels on.
// Sediment waiting on dry ground that drains is in transit: it settles where the ground stops
// falling, not on the way (otherwise every cell along a river would aggrade as sediment passes).
// What does not settle moves on along sedimentSlot (route_sediment); at an edge cell with nowhere
// lower to go it leaves the field (outflow). Material a cut still owes (negative) stays.
// heights + suspended + routed + outflow is conserved exactly; the saturation counters take what
// would leave the fixed-point range, which the bounds make unreachable in practice.
// Reads heights and levels of neighbours, writes only this cell's delta, suspended and routed.

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let x = params.regionX0 + i32(id.x);
    let y = params.regionY0 + i32(id.y);
    // The dispatch rounds the region up to whole workgroups: invocations past it idle.
    if (x >= params.regionX1 || y >= params.regionY1) {
        return;
    }
    let width = params.width;
    let i = y * width + x;
    routed[i] = 0;
    let waiting = suspended[i];
    if (delta[i] == 0 && waiting == 0) {
        return;
    }
    let height = heights[i];
    let level = fillLevels[i];
    let flooded = level > height;
    let bounds = neighbourBounds(x, y);
    var slot = -2;
    var transit = 0;
    if (waiting > 0 && !flooded) {
        slot = sedimentSlot(x, y);
        if (slot >= 0) {
            transit = waiting;
        }
    }
    let change = delta[i] + waiting - transit;
    var applied = 0;
    if (change < 0) {
        applied = max(change, -(max(height - bounds.lowest, 0) >> FOLD_RELIEF_SHIFT));
    } else if (change > 0) {
        applied = min(change, fillRoom(height, level, bounds));
        if (params.hydraulicMasked != 0) {
            applied = mulQ16(applied, mask[i]);
        }
    }
    var rest = change - applied + transit;
    if (rest > ACCUMULATOR_LIMIT) {
        applied += rest - ACCUMULATOR_LIMIT;
        rest = ACCUMULATOR_LIMIT;
    } else if (rest < -ACCUMULATOR_LIMIT) {
        applied += rest + ACCUMULATOR_LIMIT;
        rest = -ACCUMULATOR_LIMIT;
    }
    if (applied > HEIGHT_MAX_FIXED - height) {
        addCounter(COUNTER_SATURATION_REMOVED, u32(applied - (HEIGHT_MAX_FIXED - height)));
        applied = HEIGHT_MAX_FIXED - height;
    } else if (applied < HEIGHT_MIN_FIXED - height) {
        addCounter(COUNTER_SATURATION_ADDED, u32(HEIGHT_MIN_FIXED - height - applied));
        applied = HEIGHT_MIN_FIXED - height;
    }
    if (rest > 0) {
        if (slot == -2) {
            slot = sedimentSlot(x, y);
        }
        if (slot >= 0) {
            let passed = min(rest, ROUTE_LIMIT);
            routed[i] = passed;
            rest -= passed;
        } else if (x == 0 || y == 0 || x == width - 1 || y == params.depth - 1) {
            addCounter(COUNTER_OUTFLOW, u32(rest));
            rest = 0;
        }
    }
    suspended[i] = rest;
    delta[i] = applied;
}
