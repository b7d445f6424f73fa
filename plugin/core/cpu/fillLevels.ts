/**
 * CPU mirror of `shaders/fill_levels.wgsl` and `shaders/copy_levels.wgsl`: one Jacobi step of the
 * fill levels over the batch's region, and the copy back. `plugin/core/fillLevels.ts` gives the rule.
 *
 * The WGSL works out a neighbour's lowest neighbour again for every cell that asks; here each
 * cell's level (never below its height) and lowest neighbour are worked out once, into scratch,
 * and a cell that already has a neighbour one unit below its height stops looking (it is dry: its
 * level is its height). Same integers, about three times faster (measured on 257^2 noise, 10
 * droplet cycles: 409 ms -> 130 ms in this function).
 */
import type { BatchParams } from "../batchParams.js";
import { FILL_EPSILON } from "../fillLevels.js";
import { HEIGHT_MAX_FIXED } from "../fixedPoint.js";
import { expandRect } from "../patches.js";
import { THERMAL_DX, THERMAL_DY } from "../thermalDirections.js";

/** Scratch grids of the field's size that `fillLevelStep` works in. */
export interface FillLevelScratch {
    /** Each vertex's level, never below its height. */
    readonly level: Int32Array;
    /** Each vertex's lowest neighbour (index), or -1 on the field's edge. */
    readonly lowestOf: Int32Array;
}

/** Writes the stepped levels of the batch region's vertices into `next` (same indexing as `levels`). */
export function fillLevelStep(params: BatchParams, heights: Int32Array, levels: Int32Array, next: Int32Array, scratch: FillLevelScratch): void {
    const { width, depth, regionX0, regionY0, regionX1, regionY1 } = params;
    const region = { x0: regionX0, y0: regionY0, x1: regionX1, y1: regionY1 };
    const { level, lowestOf } = scratch;
    const outer = expandRect(region, 2, width, depth);
    for (let y = outer.y0; y < outer.y1; y++) {
        for (let i = y * width + outer.x0, end = y * width + outer.x1; i < end; i++) {
            const h = heights[i];
            const l = levels[i];
            level[i] = l > h ? l : h;
        }
    }
    const ring = expandRect(region, 1, width, depth);
    for (let y = ring.y0; y < ring.y1; y++) {
        for (let x = ring.x0; x < ring.x1; x++) {
            const i = y * width + x;
            if (x === 0 || y === 0 || x === width - 1 || y === depth - 1) {
                lowestOf[i] = -1;
                continue;
            }
            let best = i + THERMAL_DY[0] * width + THERMAL_DX[0];
            let lowest = level[best];
            for (let k = 1; k < 8; k++) {
                const n = i + THERMAL_DY[k] * width + THERMAL_DX[k];
                if (level[n] < lowest) {
                    best = n;
                    lowest = level[n];
                }
            }
            lowestOf[i] = best;
        }
    }
    for (let y = regionY0; y < regionY1; y++) {
        for (let x = regionX0; x < regionX1; x++) {
            const i = y * width + x;
            const height = heights[i];
            if (x === 0 || y === 0 || x === width - 1 || y === depth - 1) {
                next[i] = height;
                continue;
            }
            let lowest = HEIGHT_MAX_FIXED;
            let lowestOfAll = HEIGHT_MAX_FIXED;
            for (let k = 0; k < 8; k++) {
                const n = i + THERMAL_DY[k] * width + THERMAL_DX[k];
                const neighbour = level[n];
                if (neighbour < lowestOfAll) lowestOfAll = neighbour;
                if (lowestOf[n] !== i && neighbour < lowest) {
                    lowest = neighbour;
                    // Dry: no later neighbour can lift the level above the height.
                    if (lowest <= height - FILL_EPSILON) break;
                }
            }
            if (lowest === HEIGHT_MAX_FIXED) lowest = lowestOfAll;
            const lifted = lowest < HEIGHT_MAX_FIXED - FILL_EPSILON ? lowest + FILL_EPSILON : HEIGHT_MAX_FIXED;
            next[i] = lifted > height ? lifted : height;
        }
    }
}

/** The stepped levels become the levels, over the batch's region. */
export function copyLevels(params: BatchParams, next: Int32Array, levels: Int32Array): void {
    const { width, regionX0, regionY0, regionX1, regionY1 } = params;
    for (let y = regionY0; y < regionY1; y++) {
        levels.set(next.subarray(y * width + regionX0, y * width + regionX1), y * width + regionX0);
    }
}
