/**
 * How much sediment a cell can take in one pass, the rule the droplet fold, the river operator and
 * the sediment routing share (mirrored by `fillRoom` in `shaders/fold/sediment_routing.wgsl`):
 * - at most an eighth of the way up to the lowest strictly higher neighbour, so a cell raised so
 *   stays below every neighbour that was above it, even one cut in the same pass: no deposit can
 *   take a neighbour's way down from it (no dams);
 * - under its fill level (in a basin), also an eighth of the way to the level (rounded up, so a basin
 *   always fills), and on a basin's floor (no lower neighbour) up to its lowest neighbour, never past
 *   the level: basins fill toward the surface that keeps one unit of fall per cell to their spill;
 * - never to within FILL_EPSILON of the lowest neighbouring fill level above its own: a deposit never
 *   blocks the way down of a neighbour (or of a basin) that drains through this cell, so the fill
 *   levels stay an upper bound of the new heights' and only ever need to come down
 *   (`plugin/core/fillLevels.ts`).
 */
import { FOLD_RELIEF_SHIFT } from "./batchParams.js";
import { FILL_EPSILON } from "./fillLevels.js";
import { HEIGHT_MAX_FIXED } from "./fixedPoint.js";

/**
 * The room, in fixed-point units, of a cell at `height` under `level` whose lowest neighbour is
 * `lowest`, lowest strictly higher neighbour `lowestHigher`, and lowest neighbouring level above its
 * own `lowestHigherLevel` (each HEIGHT_MAX_FIXED when none).
 */
export function fillRoom(height: number, level: number, lowest: number, lowestHigher: number, lowestHigherLevel: number): number {
    let room = lowestHigher === HEIGHT_MAX_FIXED ? 0 : (lowestHigher - height) >> FOLD_RELIEF_SHIFT;
    if (level > height) {
        if (lowest >= height) {
            const toNeighbour = (level < lowestHigher ? level : lowestHigher) - height;
            if (toNeighbour > room) room = toNeighbour;
        }
    }
    if (lowestHigherLevel !== HEIGHT_MAX_FIXED) {
        const cap = lowestHigherLevel - FILL_EPSILON - height;
        if (cap < room) room = cap > 0 ? cap : 0;
    }
    return room;
}

/** What `neighbourBounds` finds (each HEIGHT_MAX_FIXED when none). */
export interface NeighbourBounds {
    lowest: number;
    lowestHigher: number;
    lowestHigherLevel: number;
}

/** The one object `neighbourBounds` fills: the kernels call it per vertex, and an object a call cost the river batch 9% of its time in allocation. */
const bounds: NeighbourBounds = { lowest: 0, lowestHigher: 0, lowestHigherLevel: 0 };

/**
 * The lowest neighbour of (x, y), its lowest strictly higher neighbour, and its lowest neighbouring
 * level (never below that neighbour's height) above its own, within the field (HEIGHT_MAX_FIXED for
 * none). The returned object is shared: valid until the next call (read it at once).
 */
export function neighbourBounds(heights: Int32Array, levels: Int32Array, x: number, y: number, width: number, depth: number): Readonly<NeighbourBounds> {
    const i = y * width + x;
    const height = heights[i];
    const level = levels[i] > height ? levels[i] : height;
    let lowest = HEIGHT_MAX_FIXED;
    let lowestHigher = HEIGHT_MAX_FIXED;
    let lowestHigherLevel = HEIGHT_MAX_FIXED;
    if (x > 0 && y > 0 && x < width - 1 && y < depth - 1) {
        // Away from the edges the eight neighbours written out, no bounds to check (the minima do
        // not depend on the order), and no branches: whether a neighbour is lower or higher is a
        // coin toss the processor mispredicts, and minima taken with sign masks halve a call (53
        // -> 28 ns at the basin vertices of the benchmark's 512² field, 2026-12-01). Heights and
        // levels lie in [HEIGHT_MIN_FIXED, HEIGHT_MAX_FIXED] = [-2^30, 2^30 - 1], so every
        // difference fits in 32 bits and its sign bit (>> 31: all ones when negative) says which
        // side is lower. Written out, not as helpers: V8 stops inlining calls into a function this
        // long (helpers took as long as the branches). Per neighbour: n its height, m its level
        // (never below n), d a difference, s a sign mask; `none` the module's constant as a local
        // (a bundle's module constant is read from the module's context at every use: 33 -> 30 ns).
        const none = HEIGHT_MAX_FIXED | 0;
        let n = 0;
        let m = 0;
        let d = 0;
        let s = 0;
        n = heights[i + 1];
        m = levels[i + 1];
        d = n - lowest;
        lowest += d & (d >> 31);
        s = (height - n) >> 31;
        d = ((n & s) | (none & ~s)) - lowestHigher;
        lowestHigher += d & (d >> 31);
        m -= (m - n) & ((m - n) >> 31);
        s = (level - m) >> 31;
        d = ((m & s) | (none & ~s)) - lowestHigherLevel;
        lowestHigherLevel += d & (d >> 31);
        n = heights[i - 1];
        m = levels[i - 1];
        d = n - lowest;
        lowest += d & (d >> 31);
        s = (height - n) >> 31;
        d = ((n & s) | (none & ~s)) - lowestHigher;
        lowestHigher += d & (d >> 31);
        m -= (m - n) & ((m - n) >> 31);
        s = (level - m) >> 31;
        d = ((m & s) | (none & ~s)) - lowestHigherLevel;
        lowestHigherLevel += d & (d >> 31);
        n = heights[i + width];
        m = levels[i + width];
        d = n - lowest;
        lowest += d & (d >> 31);
        s = (height - n) >> 31;
        d = ((n & s) | (none & ~s)) - lowestHigher;
        lowestHigher += d & (d >> 31);
        m -= (m - n) & ((m - n) >> 31);
        s = (level - m) >> 31;
        d = ((m & s) | (none & ~s)) - lowestHigherLevel;
        lowestHigherLevel += d & (d >> 31);
        n = heights[i - width];
        m = levels[i - width];
        d = n - lowest;
        lowest += d & (d >> 31);
        s = (height - n) >> 31;
        d = ((n & s) | (none & ~s)) - lowestHigher;
        lowestHigher += d & (d >> 31);
        m -= (m - n) & ((m - n) >> 31);
        s = (level - m) >> 31;
        d = ((m & s) | (none & ~s)) - lowestHigherLevel;
        lowestHigherLevel += d & (d >> 31);
        n = heights[i + width + 1];
        m = levels[i + width + 1];
        d = n - lowest;
        lowest += d & (d >> 31);
        s = (height - n) >> 31;
        d = ((n & s) | (none & ~s)) - lowestHigher;
        lowestHigher += d & (d >> 31);
        m -= (m - n) & ((m - n) >> 31);
        s = (level - m) >> 31;
        d = ((m & s) | (none & ~s)) - lowestHigherLevel;
        lowestHigherLevel += d & (d >> 31);
        n = heights[i + width - 1];
        m = levels[i + width - 1];
        d = n - lowest;
        lowest += d & (d >> 31);
        s = (height - n) >> 31;
        d = ((n & s) | (none & ~s)) - lowestHigher;
        lowestHigher += d & (d >> 31);
        m -= (m - n) & ((m - n) >> 31);
        s = (level - m) >> 31;
        d = ((m & s) | (none & ~s)) - lowestHigherLevel;
        lowestHigherLevel += d & (d >> 31);
        n = heights[i - width + 1];
        m = levels[i - width + 1];
        d = n - lowest;
        lowest += d & (d >> 31);
        s = (height - n) >> 31;
        d = ((n & s) | (none & ~s)) - lowestHigher;
        lowestHigher += d & (d >> 31);
        m -= (m - n) & ((m - n) >> 31);
        s = (level - m) >> 31;
        d = ((m & s) | (none & ~s)) - lowestHigherLevel;
        lowestHigherLevel += d & (d >> 31);
        n = heights[i - width - 1];
        m = levels[i - width - 1];
        d = n - lowest;
        lowest += d & (d >> 31);
        s = (height - n) >> 31;
        d = ((n & s) | (none & ~s)) - lowestHigher;
        lowestHigher += d & (d >> 31);
        m -= (m - n) & ((m - n) >> 31);
        s = (level - m) >> 31;
        d = ((m & s) | (none & ~s)) - lowestHigherLevel;
        lowestHigherLevel += d & (d >> 31);
        bounds.lowest = lowest;
        bounds.lowestHigher = lowestHigher;
        bounds.lowestHigherLevel = lowestHigherLevel;
        return bounds;
    }
    for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= depth) continue;
        for (let dx = -1; dx <= 1; dx++) {
            const nx = x + dx;
            if ((dx === 0 && dy === 0) || nx < 0 || nx >= width) continue;
            const n = ny * width + nx;
            const neighbour = heights[n];
            if (neighbour < lowest) lowest = neighbour;
            if (neighbour > height && neighbour < lowestHigher) lowestHigher = neighbour;
            const neighbourLevel = levels[n] > neighbour ? levels[n] : neighbour;
            if (neighbourLevel > level && neighbourLevel < lowestHigherLevel) lowestHigherLevel = neighbourLevel;
        }
    }
    bounds.lowest = lowest;
    bounds.lowestHigher = lowestHigher;
    bounds.lowestHigherLevel = lowestHigherLevel;
    return bounds;
}
