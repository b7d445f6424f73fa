/**
 * CPU mirror of `shaders/fold/fill_levels.wgsl` and `shaders/fold/copy_levels.wgsl`: one Jacobi step of the
 * fill levels over the batch's extent, and the copy back. `plugin/core/fillLevels.ts` gives the rule.
 *
 * The WGSL works out a neighbour's level (never below its height) again for every vertex that
 * asks; here each vertex's is worked out once, into scratch, and each column's lowest of three rows
 * once a row (`fillLevelStep`). Same integers; a 512² step 6.3 -> 2.5 ms (about 8 ms before the
 * scratch, measured on noise), 2.7 -> 1.8 ms with the minima taken by sign masks (`lowerOf`).
 */
import type { BatchParams } from "../../core/batchParams.js";
import { FILL_EPSILON } from "../../core/fillLevels.js";
import { HEIGHT_MAX_FIXED } from "../../core/fixedPoint.js";
import { expandRect } from "../../core/patches.js";

/** Scratch grids of the field's size that `fillLevelStep` works in. */
export interface FillLevelScratch {
    /** Each vertex's level, never below its height. */
    readonly level: Int32Array;
}

/** Writes the stepped levels of the batch extent's vertices into `next` (same indexing as `levels`). */
export function fillLevelStep(params: BatchParams, heights: Int32Array, levels: Int32Array, next: Int32Array, scratch: FillLevelScratch): void {
    const { width, depth, extentX0: regionX0, extentY0: regionY0, extentX1: regionX1, extentY1: regionY1 } = params;
    const region = { x0: regionX0, y0: regionY0, x1: regionX1, y1: regionY1 };
    const { level } = scratch;
    const outer = expandRect(region, 1, width, depth);
    for (let y = outer.y0; y < outer.y1; y++) {
        for (let i = y * width + outer.x0, end = y * width + outer.x1; i < end; i++) {
            const h = heights[i];
            const l = levels[i];
            level[i] = (l - ((l - h) & ((l - h) >> 31))) | 0;
        }
    }
    // The lowest of the eight neighbours as the lowest of the columns left and right of the vertex
    // (three rows each) and the vertices above and below it, each column's minimum worked out once
    // as the row is swept: three reads a vertex where eight were (the minimum of a set does not
    // depend on the order it is taken in).
    // The module's constants as locals, and every difference `| 0` (they all fit in 32 bits: see
    // `lowerOf`): V8 read the constants from the module's context at every vertex and checked each
    // difference for overflow (a 512² step 1.85 -> 1.7 ms).
    const epsilon = FILL_EPSILON | 0;
    const heightMax = HEIGHT_MAX_FIXED | 0;
    const liftLimit = (heightMax - epsilon) | 0;
    for (let y = regionY0; y < regionY1; y++) {
        const row = y * width;
        if (y === 0 || y === depth - 1) {
            for (let i = row + regionX0; i < row + regionX1; i++) next[i] = heights[i];
            continue;
        }
        let x = regionX0;
        if (x === 0) {
            next[row] = heights[row];
            x = 1;
        }
        const end = Math.min(regionX1, width - 1);
        if (x < end) {
            let i = row + x;
            let left = columnMin(level, i - 1, width);
            let above = level[i - width];
            let below = level[i + width];
            let centre = min3(above, level[i], below);
            for (; x < end; x++, i++) {
                const nextAbove = level[i + 1 - width];
                const nextBelow = level[i + 1 + width];
                const right = min3(nextAbove, level[i + 1], nextBelow);
                const lowest = lowerOf(lowerOf(left, right), lowerOf(above, below));
                const lifted = lowest < liftLimit ? (lowest + epsilon) | 0 : heightMax;
                const height = heights[i];
                next[i] = (lifted - ((lifted - height) & ((lifted - height) >> 31))) | 0;
                left = centre;
                centre = right;
                above = nextAbove;
                below = nextBelow;
            }
        }
        if (regionX1 === width && width > 1) next[row + width - 1] = heights[row + width - 1];
    }
}

/** The lowest of the three vertices of column i's rows y - 1, y, y + 1. */
function columnMin(level: Int32Array, i: number, width: number): number {
    return min3(level[i - width], level[i], level[i + width]);
}

function min3(a: number, b: number, c: number): number {
    return lowerOf(lowerOf(a, b), c);
}

/**
 * The lower of a and b with a sign mask, not a branch: which of two neighbours is lower is a coin
 * toss the processor mispredicts (so too the higher of a level and a height, written out above).
 * Heights and levels lie in [HEIGHT_MIN_FIXED, HEIGHT_MAX_FIXED] = [-2^30, 2^30 - 1], so a - b
 * fits in 32 bits and its sign bit (>> 31: all ones when negative) says which is lower.
 */
function lowerOf(a: number, b: number): number {
    const difference = (a - b) | 0;
    return (b + (difference & (difference >> 31))) | 0;
}

/** The stepped levels become the levels, over the batch's extent. */
export function copyLevels(params: BatchParams, next: Int32Array, levels: Int32Array): void {
    const { width, extentX0, extentY0, extentX1, extentY1 } = params;
    for (let y = extentY0; y < extentY1; y++) {
        levels.set(next.subarray(y * width + extentX0, y * width + extentX1), y * width + extentX0);
    }
}
