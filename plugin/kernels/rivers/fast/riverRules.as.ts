/**
 * The rules the river walk (`riverWalk.as.ts`) shares with the TypeScript modules it mirrors:
 * fixed point, stream power, the sediment counters and a basin vertex's room, each as its
 * TypeScript namesake computes it (the comments name the module), and the linear memory's typed
 * reads and writes. Compiled into the walk's module by `scripts/build-wasm.mjs`.
 */

import { FIXED_ONE, addF64, getI32, maxI32, minI32, mulQ16, mulQ16Sat, setI32 } from "../../fixedPoint.as";
export { FIXED_ONE, addF64, getF64, getI32, getU8, maxI32, minI32, mulQ16, mulQ16Sat, setF64, setI32, setU8 } from "../../fixedPoint.as";

// Constants of the TypeScript modules the walk reads, their values written out (AssemblyScript
// compiles apart from them). `wasmSources.test.ts` checks them against the modules.
export const HEIGHT_MAX_FIXED: i32 = 0x3fffffff;
export const ACCUMULATOR_LIMIT: i32 = 0x3fffffff;
export const ROUTE_LIMIT: i32 = 0x7ffffff;
export const DRAINAGE_AREA_LIMIT: f64 = 1073741824.0;
export const INVERSE_SQRT2_Q16: i32 = 46341;
export const ROOT_AREA_LIMIT: i32 = 32767;
export const FOLD_RELIEF_SHIFT: i32 = 3;
export const FILL_EPSILON: i32 = 1;
export const KEEP_TABLE_AREAS: i32 = 4096;
export const FIRST_DIAGONAL_SLOT: i32 = 4;
export const COUNTER_OUTFLOW: i32 = 0;
export const COUNTER_SATURATION_REMOVED: i32 = 1;
export const COUNTER_UPLIFT_ADDED: i32 = 4;

/** `streamKeep` (riverErode.ts); `masked`: whether `maskValue` applies. */
export function streamKeep(erosion: i32, area: i32, diagonal: bool, masked: bool, maskValue: i32): i32 {
    let factor = mulQ16Sat(erosion, minI32(<i32>Math.floor(Math.sqrt(<f64>area)), ROOT_AREA_LIMIT) * FIXED_ONE);
    if (diagonal) factor = mulQ16(factor, INVERSE_SQRT2_Q16);
    if (masked) factor = mulQ16(factor, maskValue);
    return factor == 0 ? FIXED_ONE : <i32>Math.floor(4294967295.0 / <f64>(FIXED_ONE + factor));
}

/** `cutOfKeep` (riverErode.ts). */
@inline export function cutOfKeep(fall: i32, keep: i32): i32 {
    return minI32(fall - mulQ16(fall, keep), ACCUMULATOR_LIMIT);
}

/** `keepSuspended` (routeSediment.ts). */
export function keepSuspended(suspended: i32, i: i32, amount: i32, counters: i32): void {
    let total = getI32(suspended, i) + amount;
    if (total > ACCUMULATOR_LIMIT) {
        addF64(counters, COUNTER_SATURATION_REMOVED, <f64>(total - ACCUMULATOR_LIMIT));
        total = ACCUMULATOR_LIMIT;
    }
    setI32(suspended, i, total);
}

// What `neighbourBounds` found last.
let boundsLowest: i32 = 0;
let boundsLowestHigher: i32 = 0;
let boundsLowestHigherLevel: i32 = 0;

/** One neighbour (height `n`, level `m`) into the bounds of a vertex at `height` under `level` (settling.ts's sign masks). */
@inline function boundNeighbour(n: i32, m: i32, height: i32, level: i32): void {
    let d = n - boundsLowest;
    boundsLowest += d & (d >> 31);
    let s = (height - n) >> 31;
    d = ((n & s) | (HEIGHT_MAX_FIXED & ~s)) - boundsLowestHigher;
    boundsLowestHigher += d & (d >> 31);
    m -= (m - n) & ((m - n) >> 31);
    s = (level - m) >> 31;
    d = ((m & s) | (HEIGHT_MAX_FIXED & ~s)) - boundsLowestHigherLevel;
    boundsLowestHigherLevel += d & (d >> 31);
}

/** `neighbourBounds` (settling.ts) of (x, y) into the `bounds` globals. */
export function neighbourBounds(heights: i32, levels: i32, x: i32, y: i32, width: i32, depth: i32): void {
    const i = y * width + x;
    const height = getI32(heights, i);
    const own = getI32(levels, i);
    const level = own > height ? own : height;
    boundsLowest = HEIGHT_MAX_FIXED;
    boundsLowestHigher = HEIGHT_MAX_FIXED;
    boundsLowestHigherLevel = HEIGHT_MAX_FIXED;
    if (x > 0 && y > 0 && x < width - 1 && y < depth - 1) {
        boundNeighbour(getI32(heights, i + 1), getI32(levels, i + 1), height, level);
        boundNeighbour(getI32(heights, i - 1), getI32(levels, i - 1), height, level);
        boundNeighbour(getI32(heights, i + width), getI32(levels, i + width), height, level);
        boundNeighbour(getI32(heights, i - width), getI32(levels, i - width), height, level);
        boundNeighbour(getI32(heights, i + width + 1), getI32(levels, i + width + 1), height, level);
        boundNeighbour(getI32(heights, i + width - 1), getI32(levels, i + width - 1), height, level);
        boundNeighbour(getI32(heights, i - width + 1), getI32(levels, i - width + 1), height, level);
        boundNeighbour(getI32(heights, i - width - 1), getI32(levels, i - width - 1), height, level);
        return;
    }
    for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= depth) continue;
        for (let dx = -1; dx <= 1; dx++) {
            const nx = x + dx;
            if ((dx == 0 && dy == 0) || nx < 0 || nx >= width) continue;
            const n = ny * width + nx;
            const neighbour = getI32(heights, n);
            if (neighbour < boundsLowest) boundsLowest = neighbour;
            if (neighbour > height && neighbour < boundsLowestHigher) boundsLowestHigher = neighbour;
            const stored = getI32(levels, n);
            const neighbourLevel = stored > neighbour ? stored : neighbour;
            if (neighbourLevel > level && neighbourLevel < boundsLowestHigherLevel) boundsLowestHigherLevel = neighbourLevel;
        }
    }
}

/** `fillRoom` (settling.ts). */
export function fillRoom(height: i32, level: i32, lowest: i32, lowestHigher: i32, lowestHigherLevel: i32): i32 {
    let room = lowestHigher == HEIGHT_MAX_FIXED ? 0 : (lowestHigher - height) >> FOLD_RELIEF_SHIFT;
    if (level > height && lowest >= height) {
        const toNeighbour = (level < lowestHigher ? level : lowestHigher) - height;
        if (toNeighbour > room) room = toNeighbour;
    }
    if (lowestHigherLevel != HEIGHT_MAX_FIXED) {
        const cap = lowestHigherLevel - FILL_EPSILON - height;
        if (cap < room) room = cap > 0 ? cap : 0;
    }
    return room;
}

/** `basinRoomAt` (riverErode.ts). */
export function basinRoomAt(heights: i32, levels: i32, x: i32, y: i32, width: i32, depth: i32): i32 {
    const i = y * width + x;
    neighbourBounds(heights, levels, x, y, width, depth);
    return fillRoom(getI32(heights, i), getI32(levels, i), boundsLowest, boundsLowestHigher, boundsLowestHigherLevel);
}

/** `overCapacity` (riverErode.ts): part of `excess`, never up to a donor's height (`donorFloor`, less the vertex's own cut). */
export function overCapacity(heights: i32, x: i32, y: i32, width: i32, deposition: i32, cut: i32, donorFloor: i32, excess: i32): i32 {
    const height = getI32(heights, y * width + x);
    const below = maxI32(donorFloor - (height - cut) - 1, 0);
    return minI32(mulQ16(excess, deposition), below);
}
