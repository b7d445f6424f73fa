// Where sediment goes on the grid, for the kernels of the fold. CPU mirror:
// plugin/core/steepestDescent.ts. A cell's steepest descent is its neighbour of 8 with the largest
// fall per cell of run (a diagonal's fall times INVERSE_SQRT2_Q16) among those strictly lower; ties
// go to the first in slot order. Sediment follows the heights inside a basin (down to its floor)
// and the fill levels on dry ground (into a basin, or on over its spill, never back).
// Reads the `heights` and `fillLevels` the including kernel declares.

// A cell's fill level, never below its height (other passes move heights).
fn levelAt(i: i32) -> i32 {
    return max(fillLevels[i], heights[i]);
}

// Slot of the steepest strictly lower neighbour of (x, y) in the heights, or -1.
fn steepestDropSlot(x: i32, y: i32) -> i32 {
    let height = heights[y * params.width + x];
    // -1, not 0: a diagonal fall of one unit has a steepness of 0 and still counts.
    var best = -1;
    var slot = -1;
    for (var k = 0; k < 8; k++) {
        let nx = x + THERMAL_DX[k];
        let ny = y + THERMAL_DY[k];
        if (nx < 0 || ny < 0 || nx >= params.width || ny >= params.depth) {
            continue;
        }
        let fall = height - heights[ny * params.width + nx];
        if (fall <= 0) {
            continue;
        }
        var steepness = fall;
        if (k >= 4) {
            steepness = mulQ16(fall, INVERSE_SQRT2_Q16);
        }
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
    for (var k = 0; k < 8; k++) {
        let nx = x + THERMAL_DX[k];
        let ny = y + THERMAL_DY[k];
        if (nx < 0 || ny < 0 || nx >= params.width || ny >= params.depth) {
            continue;
        }
        let fall = level - levelAt(ny * params.width + nx);
        if (fall <= 0) {
            continue;
        }
        var steepness = fall;
        if (k >= 4) {
            steepness = mulQ16(fall, INVERSE_SQRT2_Q16);
        }
        if (steepness > best) {
            best = steepness;
            slot = k;
        }
    }
    return slot;
}

// Where sediment that does not settle at (x, y) moves, or -1 where nothing is lower.
fn sedimentSlot(x: i32, y: i32) -> i32 {
    let i = y * params.width + x;
    var slot = -1;
    if (fillLevels[i] > heights[i]) {
        slot = steepestDropSlot(x, y);
    }
    if (slot < 0) {
        slot = steepestLevelSlot(x, y);
    }
    return slot;
}
