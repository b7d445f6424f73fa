// Where water and sediment go on the grid, and how much sediment a vertex can take, for the kernels
// of the fold and of the river operator. CPU mirrors: SHADER_MIRRORS in
// plugin/gpu/kernelTable.ts (they say why each rule is there).
//
// A vertex's steepest descent is its neighbour of 8 with the largest fall per cell of run (a
// diagonal's fall times INVERSE_SQRT2_Q16) among those strictly lower; ties go to the first in slot
// order. Water and sediment follow the fill levels (into a basin, across it to its spill, never
// back); on a tileable river batch (params.wrap) the grid is a torus of period (width - 1) x
// (depth - 1) and they follow the heights.
// Reads the `heights` and `fillLevels` the including kernel declares.

// A vertex's fill level, never below its height (other passes move heights).
fn levelAt(i: i32) -> i32 {
    return max(fillLevels[i], heights[i]);
}

// How steep a fall is per cell of run in slot k.
fn steepnessOf(fall: i32, k: i32) -> i32 {
    if (k >= FIRST_DIAGONAL_SLOT) {
        return mulQ16(fall, INVERSE_SQRT2_Q16);
    }
    return fall;
}

// Slot of the steepest strictly lower neighbour of (x, y) in the heights, or -1.
fn steepestDropSlot(x: i32, y: i32, wrap: bool) -> i32 {
    let height = heights[y * params.width + x];
    // -1, not 0: a diagonal fall of one unit has a steepness of 0 and still counts.
    var best = -1;
    var slot = -1;
    for (var k = 0; k < THERMAL_SLOTS; k++) {
        let n = neighbourAt(x, y, k, wrap);
        if (n < 0) {
            continue;
        }
        let fall = height - heights[n];
        if (fall <= 0) {
            continue;
        }
        let steepness = steepnessOf(fall, k);
        if (steepness > best) {
            best = steepness;
            slot = k;
        }
    }
    return slot;
}

// Slot of the steepest strictly lower neighbour of (x, y) in the fill levels, or -1.
fn steepestLevelSlot(x: i32, y: i32) -> i32 {
    let level = levelAt(y * params.width + x);
    var best = -1;
    var slot = -1;
    for (var k = 0; k < THERMAL_SLOTS; k++) {
        let n = neighbourAt(x, y, k, false);
        if (n < 0) {
            continue;
        }
        let fall = level - levelAt(n);
        if (fall <= 0) {
            continue;
        }
        let steepness = steepnessOf(fall, k);
        if (steepness > best) {
            best = steepness;
            slot = k;
        }
    }
    return slot;
}

// Where water and sediment at (x, y) move (the river operator's receiver too), or -1 where nothing
// is lower.
fn sedimentSlot(x: i32, y: i32) -> i32 {
    if (params.wrap != 0) {
        return steepestDropSlot(x, y, true);
    }
    return steepestLevelSlot(x, y);
}

// The lowest neighbour of a vertex, its lowest strictly higher neighbour, and its lowest
// neighbouring level above its own (each HEIGHT_MAX_FIXED when none).
struct Bounds {
    lowest: i32,
    lowestHigher: i32,
    lowestHigherLevel: i32,
}

fn neighbourBounds(x: i32, y: i32) -> Bounds {
    let i = y * params.width + x;
    let height = heights[i];
    let level = levelAt(i);
    var bounds = Bounds(HEIGHT_MAX_FIXED, HEIGHT_MAX_FIXED, HEIGHT_MAX_FIXED);
    for (var k = 0; k < THERMAL_SLOTS; k++) {
        let n = neighbourAt(x, y, k, false);
        if (n < 0) {
            continue;
        }
        let neighbour = heights[n];
        bounds.lowest = min(bounds.lowest, neighbour);
        if (neighbour > height) {
            bounds.lowestHigher = min(bounds.lowestHigher, neighbour);
        }
        let neighbourLevel = levelAt(n);
        if (neighbourLevel > level) {
            bounds.lowestHigherLevel = min(bounds.lowestHigherLevel, neighbourLevel);
        }
    }
    return bounds;
}

// How much sediment a vertex at `height` under `level` can take in one pass (plugin/core/settling.ts):
// an eighth of the way to its lowest higher neighbour; on a basin's floor up to its lowest
// neighbour, never past the level; never to within FILL_EPSILON of a neighbouring level above its own.
fn fillRoom(height: i32, level: i32, bounds: Bounds) -> i32 {
    var room = 0;
    if (bounds.lowestHigher != HEIGHT_MAX_FIXED) {
        room = (bounds.lowestHigher - height) >> FOLD_RELIEF_SHIFT;
    }
    if (level > height && bounds.lowest >= height) {
        room = max(room, min(level, bounds.lowestHigher) - height);
    }
    if (bounds.lowestHigherLevel != HEIGHT_MAX_FIXED) {
        let cap = bounds.lowestHigherLevel - FILL_EPSILON - height;
        if (cap < room) {
            room = max(cap, 0);
        }
    }
    return room;
}
