// clip_delta: first half of folding a droplet batch into the heights (seed 003).
// CPU mirror: plugin/core/cpu/clipDelta.ts.
//
// Every droplet of a batch worked from the same starting ground, so where many walks meet (a pit,
// the foot of a cone, a channel stepped on many times the average) their summed change can carry a
// cell far past its neighbours, and the next batch swings it back further. This pass bounds each
// cell's change per batch by its local relief, exactly and per cell (FOLD_RELIEF_SHIFT: 1/8):
// - a cut goes down at most an eighth of the way to the lowest of the 8 neighbours;
// - a fill goes up at most an eighth of the way to the lowest neighbour if the cell is a pit, else
//   to the highest neighbour;
// - a cell that is not above all its neighbours settles at least 1/32 of its pending fill each batch
//   (MIN_SETTLE_SHIFT), so sediment reaching flat ground cannot pile up in suspension without end;
//   peaks get no such allowance (no sediment spikes), cuts get none (no cell dug below all its
//   neighbours).
// What is clipped stays in `suspended` (positive: sediment still in the water; negative: material
// the ground still owes) and settles in later batches. heights + suspended is conserved exactly;
// the only exceptions are the saturation counters, for heights that would leave the fixed-point
// range, which the bounds above make unreachable in practice.
// Reads heights (neighbours), writes only this cell's delta and suspended: no cell is written by
// two invocations and none reads a value another writes.

@group(0) @binding(BINDING_HEIGHTS) var<storage, read> heights: array<i32>;
@group(0) @binding(BINDING_DELTA) var<storage, read_write> delta: array<i32>;
@group(0) @binding(BINDING_SUSPENDED) var<storage, read_write> suspended: array<i32>;

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
    let change = delta[i] + suspended[i];
    if (change == 0) {
        delta[i] = 0;
        suspended[i] = 0;
        return;
    }
    let height = heights[i];
    var lowest = HEIGHT_MAX_FIXED;
    var highest = HEIGHT_MIN_FIXED;
    for (var dy = -1; dy <= 1; dy++) {
        let ny = y + dy;
        if (ny < 0 || ny >= params.depth) {
            continue;
        }
        for (var dx = -1; dx <= 1; dx++) {
            let nx = x + dx;
            if ((dx == 0 && dy == 0) || nx < 0 || nx >= width) {
                continue;
            }
            let neighbour = heights[ny * width + nx];
            lowest = min(lowest, neighbour);
            highest = max(highest, neighbour);
        }
    }
    var applied: i32;
    if (change < 0) {
        let room = max(height - lowest, 0);
        applied = max(change, -(room >> FOLD_RELIEF_SHIFT));
    } else {
        var fillTo = highest;
        if (height < lowest) {
            fillTo = lowest;
        }
        let room = max(fillTo - height, 0);
        var settle = 0;
        if (height <= highest) {
            settle = change >> MIN_SETTLE_SHIFT;
        }
        applied = min(change, max(room >> FOLD_RELIEF_SHIFT, settle));
    }
    var rest = change - applied;
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
    suspended[i] = rest;
    delta[i] = applied;
}
