/**
 * Where sediment goes on the grid, in integers (mirrored by `shaders/sediment_routing.wgsl`).
 *
 * A vertex's steepest descent is its neighbour of 8 with the largest fall per cell of run (a
 * diagonal's run is sqrt 2 cells) among those strictly lower; ties go to the first in slot order
 * (+x, -x, +y, -y, then the diagonals). Strictly lower means every step falls, so no path can loop.
 * Sediment follows the heights inside a filled basin (down to its floor) and the fill levels on dry
 * ground (into a basin, or on over its spill, never back).
 */
import { mulQ16 } from "./fixedPoint.js";
import { THERMAL_DX, THERMAL_DY } from "./thermalDirections.js";

/** 1 / sqrt 2 in Q16 (round(65536 / sqrt 2)): a diagonal fall times this is its fall per cell of run. */
export const INVERSE_SQRT2_Q16 = 46341;

/** The fill level a vertex counts with: its level, never below its height (other passes move heights). */
export function levelAt(heights: Int32Array, levels: Int32Array, i: number): number {
    const level = levels[i];
    const height = heights[i];
    return level > height ? level : height;
}

/** Slot (0..7) of the steepest strictly lower neighbour of (x, y) in the heights, or -1 (a pit or a flat). */
export function steepestDropSlot(heights: Int32Array, x: number, y: number, width: number, depth: number): number {
    const height = heights[y * width + x];
    // -1, not 0: a diagonal fall of one unit has a steepness of 0 and still counts.
    let best = -1;
    let slot = -1;
    for (let k = 0; k < 8; k++) {
        const nx = x + THERMAL_DX[k];
        const ny = y + THERMAL_DY[k];
        if (nx < 0 || ny < 0 || nx >= width || ny >= depth) continue;
        const fall = height - heights[ny * width + nx];
        if (fall <= 0) continue;
        const steepness = k < 4 ? fall : mulQ16(fall, INVERSE_SQRT2_Q16);
        if (steepness > best) {
            best = steepness;
            slot = k;
        }
    }
    return slot;
}

/** Slot (0..7) of the steepest strictly lower neighbour of (x, y) in the fill levels (`levelAt`), or -1. */
export function steepestLevelSlot(heights: Int32Array, levels: Int32Array, x: number, y: number, width: number, depth: number): number {
    const level = levelAt(heights, levels, y * width + x);
    let best = -1;
    let slot = -1;
    for (let k = 0; k < 8; k++) {
        const nx = x + THERMAL_DX[k];
        const ny = y + THERMAL_DY[k];
        if (nx < 0 || ny < 0 || nx >= width || ny >= depth) continue;
        const fall = level - levelAt(heights, levels, ny * width + nx);
        if (fall <= 0) continue;
        const steepness = k < 4 ? fall : mulQ16(fall, INVERSE_SQRT2_Q16);
        if (steepness > best) {
            best = steepness;
            slot = k;
        }
    }
    return slot;
}

/**
 * Where sediment that does not settle at (x, y) moves: under the fill level (in a basin), down the
 * heights, or down the levels from the basin's floor; on dry ground, down the levels. -1 where
 * nothing is lower (an edge vertex in a hollow, or levels not yet caught up with the heights).
 */
export function sedimentSlot(heights: Int32Array, levels: Int32Array, x: number, y: number, width: number, depth: number): number {
    const i = y * width + x;
    const slot = levels[i] > heights[i] ? steepestDropSlot(heights, x, y, width, depth) : -1;
    return slot >= 0 ? slot : steepestLevelSlot(heights, levels, x, y, width, depth);
}
