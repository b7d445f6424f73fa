/**
 * Where water and sediment go on the grid, in integers (mirrored by `shaders/fold/sediment_routing.wgsl`).
 *
 * A vertex's steepest descent is its neighbour of 8 with the largest fall per cell of run (a
 * diagonal's run is sqrt 2 cells) among those strictly lower; ties go to the first in slot order
 * (+x, -x, +y, -y, then the diagonals). Strictly lower means every step falls, so no path can loop.
 * Water and sediment follow the fill levels, so they cross basins to their spill and drainage area
 * reaches the outlets; sediment settles in a basin as it crosses it (`settling.ts`).
 *
 * On a tileable terrain the river operator sees a torus of period (width - 1) x (depth - 1): the
 * last column and row repeat the first (as the edge vertices of Babylon grounds laid side by side
 * do), so the neighbour past the last distinct column is the first. A torus has no outlets, so
 * there the operator routes over the heights and its rivers end in basins.
 */
import { mulQ16 } from "./fixedPoint.js";
import { FIRST_DIAGONAL_SLOT, THERMAL_DX, THERMAL_DY, THERMAL_SLOTS } from "./thermalDirections.js";

/** 1 / sqrt 2 in Q16 (round(65536 / sqrt 2)): a diagonal fall times this is its fall per cell of run. */
export const INVERSE_SQRT2_Q16 = 46341;

/** The fill level a vertex counts with: its level, never below its height (other passes move heights). */
export function levelAt(heights: Int32Array, levels: Int32Array, i: number): number {
    const level = levels[i];
    const height = heights[i];
    return level > height ? level : height;
}

/**
 * Index of the neighbour of (x, y) in slot k: past the field's edge -1, or, with `wrap`, across it on
 * the torus of period (width - 1) x (depth - 1).
 */
export function neighbourAt(x: number, y: number, k: number, width: number, depth: number, wrap: boolean): number {
    let nx = x + THERMAL_DX[k];
    let ny = y + THERMAL_DY[k];
    if (wrap) {
        const columns = width - 1;
        const rows = depth - 1;
        nx = nx < 0 ? nx + columns : nx >= columns ? nx - columns : nx;
        ny = ny < 0 ? ny + rows : ny >= rows ? ny - rows : ny;
    } else if (nx < 0 || ny < 0 || nx >= width || ny >= depth) {
        return -1;
    }
    return ny * width + nx;
}

/** Slot (0..7) of the steepest strictly lower neighbour of (x, y) in the heights, or -1 (a pit or a flat). */
export function steepestDropSlot(heights: Int32Array, x: number, y: number, width: number, depth: number, wrap = false): number {
    const height = heights[y * width + x];
    // -1, not 0: a diagonal fall of one unit has a steepness of 0 and still counts.
    let best = -1;
    let slot = -1;
    for (let k = 0; k < THERMAL_SLOTS; k++) {
        const n = neighbourAt(x, y, k, width, depth, wrap);
        if (n < 0) continue;
        const fall = height - heights[n];
        if (fall <= 0) continue;
        const steepness = k < FIRST_DIAGONAL_SLOT ? fall : mulQ16(fall, INVERSE_SQRT2_Q16);
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
    for (let k = 0; k < THERMAL_SLOTS; k++) {
        const nx = x + THERMAL_DX[k];
        const ny = y + THERMAL_DY[k];
        if (nx < 0 || ny < 0 || nx >= width || ny >= depth) continue;
        const fall = level - levelAt(heights, levels, ny * width + nx);
        if (fall <= 0) continue;
        const steepness = k < FIRST_DIAGONAL_SLOT ? fall : mulQ16(fall, INVERSE_SQRT2_Q16);
        if (steepness > best) {
            best = steepness;
            slot = k;
        }
    }
    return slot;
}

/**
 * Where sediment that does not settle at (x, y) moves: down the fill levels (into a basin, across it
 * toward its spill, never back), or on a torus down the heights. -1 where nothing is lower (an edge
 * vertex in a hollow, or levels not yet caught up with the heights).
 */
export function sedimentSlot(heights: Int32Array, levels: Int32Array, x: number, y: number, width: number, depth: number, wrap = false): number {
    return wrap ? steepestDropSlot(heights, x, y, width, depth, true) : steepestLevelSlot(heights, levels, x, y, width, depth);
}

/** Where the river operator's water at (x, y) goes: down the fill levels, or on a torus down the heights. -1 where nothing is lower. */
export function riverSlot(heights: Int32Array, levels: Int32Array, x: number, y: number, width: number, depth: number, wrap: boolean): number {
    return wrap ? steepestDropSlot(heights, x, y, width, depth, true) : steepestLevelSlot(heights, levels, x, y, width, depth);
}
