// clip_delta: first half of folding a droplet batch into the heights.
// CPU mirror: plugin/core/cpu/clipDelta.ts.
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
// - Under its fill level (in a basin: plugin/core/fillLevels.ts) a cell also fills an eighth of the
//   way to that level (rounded up, so a basin always fills), and the floor of a basin (no lower
//   neighbour) up to its lowest neighbour, never past the level: basins fill from the floor up, to
//   the surface that keeps one unit of fall per cell toward their spill, so a filled basin drains.
// - The hydraulic mask scales what settles; what it declines travels on.
// Sediment waiting on dry ground that drains is in transit: it settles where the ground stops
// falling, not on the way (otherwise every cell along a river would aggrade as sediment passes).
// What does not settle moves on along sedimentSlot (route_sediment), except on the floor of a basin
// not yet filled to its level, where it waits; at an edge cell with nowhere lower to go it leaves
// the field (outflow). Material a cut still owes (negative) stays.
// heights + suspended + routed + outflow is conserved exactly; the saturation counters take what
// would leave the fixed-point range, which the bounds make unreachable in practice.
// Reads heights and levels of neighbours, writes only this cell's delta, suspended and routed.

@group(0) @binding(BINDING_HEIGHTS) var<storage, read> heights: array<i32>;
@group(0) @binding(BINDING_FILL_LEVELS) var<storage, read> fillLevels: array<i32>;
@group(0) @binding(BINDING_DELTA) var<storage, read_write> delta: array<i32>;
@group(0) @binding(BINDING_SUSPENDED) var<storage, read_write> suspended: array<i32>;
@group(0) @binding(BINDING_ROUTED) var<storage, read_write> routed: array<i32>;
@group(0) @binding(BINDING_MASK) var<storage, read> mask: array<i32>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
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
    var lowest = HEIGHT_MAX_FIXED;
    var lowestHigher = HEIGHT_MAX_FIXED;
    for (var k = 0; k < 8; k++) {
        let nx = x + THERMAL_DX[k];
        let ny = y + THERMAL_DY[k];
        if (nx < 0 || ny < 0 || nx >= width || ny >= params.depth) {
            continue;
        }
        let neighbour = heights[ny * width + nx];
        lowest = min(lowest, neighbour);
        if (neighbour > height) {
            lowestHigher = min(lowestHigher, neighbour);
        }
    }
    var slot = sedimentSlot(x, y);
    var transit = 0;
    if (!flooded && slot >= 0 && waiting > 0) {
        transit = waiting;
    }
    let change = delta[i] + waiting - transit;
    var applied = 0;
    if (change < 0) {
        applied = max(change, -(max(height - lowest, 0) >> FOLD_RELIEF_SHIFT));
    } else if (change > 0) {
        var room = 0;
        if (lowestHigher != HEIGHT_MAX_FIXED) {
            room = (lowestHigher - height) >> FOLD_RELIEF_SHIFT;
        }
        if (flooded) {
            room = max(room, (level - height + 7) >> FOLD_RELIEF_SHIFT);
            if (lowest >= height) {
                room = max(room, min(level, lowestHigher) - height);
            }
        }
        applied = min(change, room);
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
    // The floor of a basin not yet filled to its level keeps what it cannot take.
    if (flooded && lowest >= height && height + applied < level) {
        slot = -1;
    }
    if (rest > 0) {
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
