/**
 * CPU mirror of `shaders/fill_levels.wgsl` and `shaders/copy_levels.wgsl`: one Jacobi step of the
 * fill levels over the batch's region, and the copy back. `plugin/core/fillLevels.ts` gives the rule.
 */
import type { BatchParams } from "../batchParams.js";
import { FILL_EPSILON } from "../fillLevels.js";
import { HEIGHT_MAX_FIXED } from "../fixedPoint.js";
import { expandRect } from "../patches.js";
import { levelAt } from "../steepestDescent.js";
import { THERMAL_DX, THERMAL_DY } from "../thermalDirections.js";

const { max, min } = Math;

/**
 * Writes the stepped levels of the batch region's vertices into `next` (same indexing as `levels`).
 * `lowestOf` is scratch of the grid's size: each vertex's lowest neighbour, worked out once per
 * vertex here where the WGSL works it out again for every neighbour that asks.
 */
export function fillLevelStep(params: BatchParams, heights: Int32Array, levels: Int32Array, next: Int32Array, lowestOf: Int32Array): void {
    const { width, depth, regionX0, regionY0, regionX1, regionY1 } = params;
    const ring = expandRect({ x0: regionX0, y0: regionY0, x1: regionX1, y1: regionY1 }, 1, width, depth);
    for (let y = ring.y0; y < ring.y1; y++) {
        for (let x = ring.x0; x < ring.x1; x++) {
            lowestOf[y * width + x] = lowestNeighbour(heights, levels, x, y, width, depth);
        }
    }
    for (let y = regionY0; y < regionY1; y++) {
        for (let x = regionX0; x < regionX1; x++) {
            const i = y * width + x;
            if (x === 0 || y === 0 || x === width - 1 || y === depth - 1) {
                next[i] = heights[i];
                continue;
            }
            let lowest = HEIGHT_MAX_FIXED;
            let lowestOfAll = HEIGHT_MAX_FIXED;
            for (let k = 0; k < 8; k++) {
                const n = (y + THERMAL_DY[k]) * width + x + THERMAL_DX[k];
                const level = levelAt(heights, levels, n);
                lowestOfAll = min(lowestOfAll, level);
                if (lowestOf[n] !== i) lowest = min(lowest, level);
            }
            if (lowest === HEIGHT_MAX_FIXED) lowest = lowestOfAll;
            next[i] = max(heights[i], min(lowest + FILL_EPSILON, HEIGHT_MAX_FIXED));
        }
    }
}

/** Index of the neighbour of (x, y) with the lowest level (the first in slot order on ties), or -1 on the field's edge. */
function lowestNeighbour(heights: Int32Array, levels: Int32Array, x: number, y: number, width: number, depth: number): number {
    if (x === 0 || y === 0 || x === width - 1 || y === depth - 1) return -1;
    let best = -1;
    let lowest = 0;
    for (let k = 0; k < 8; k++) {
        const n = (y + THERMAL_DY[k]) * width + x + THERMAL_DX[k];
        const level = levelAt(heights, levels, n);
        if (best < 0 || level < lowest) {
            best = n;
            lowest = level;
        }
    }
    return best;
}

/** The stepped levels become the levels, over the batch's region. */
export function copyLevels(params: BatchParams, next: Int32Array, levels: Int32Array): void {
    const { width, regionX0, regionY0, regionX1, regionY1 } = params;
    for (let y = regionY0; y < regionY1; y++) {
        levels.set(next.subarray(y * width + regionX0, y * width + regionX1), y * width + regionX0);
    }
}
