/**
 * A grid's checks, for every door a grid comes in by (`erodeHeightfield`, the bake, the
 * component's grounds): its sides in vertices, and its heights' count and range.
 */
import { assertFixedHeightsInRange, heightsToFixed } from "./fixedPoint.js";

/** Largest grid side the simulation accepts, in vertices. */
export const MAX_GRID_SIDE = 16385;

/** Checks grid dimensions and the height array's length; throws a `RangeError` naming the bad one. */
export function validateGrid(width: number, depth: number, length: number): void {
    for (const [name, value] of [["width", width], ["depth", depth]] as const) {
        if (!Number.isInteger(value) || value < 2 || value > MAX_GRID_SIDE) {
            throw new RangeError(`${name} is ${value}: it must be an integer number of vertices in [2, ${MAX_GRID_SIDE}].`);
        }
    }
    if (length !== width * depth) {
        throw new RangeError(`heights has ${length} values but width x depth is ${width} x ${depth} = ${width * depth}.`);
    }
}

/**
 * Converts heights in metres (`Float32Array`, `Float64Array` or a number array) to fixed point
 * (1/65536 of `cellSize`), or checks and copies fixed-point heights (`Int32Array`, already in that unit).
 */
export function toFixedHeights(heights: ArrayLike<number> | Int32Array, cellSize = 1): Int32Array {
    if (heights instanceof Int32Array) {
        assertFixedHeightsInRange(heights);
        return heights.slice();
    }
    return heightsToFixed(heights, "heights", undefined, cellSize);
}
