/**
 * The mesh-free entry point: heights in, eroded heights out, on the CPU reference, with no Babylon
 * engine. The `TerrainErosion` component gives the same heights for the same inputs.
 */
import { CpuErosionSimulation } from "./cpuSimulation.js";
import { countersToObject, type ErosionCounters } from "../core/counters.js";
import { fixedToHeights, assertFixedHeightsInRange, heightsToFixed } from "../core/fixedPoint.js";
import { resolveOptions, type ErosionOptionsInput } from "../core/options.js";
import type { ErosionStateData } from "../core/erosionState.js";
import { validateCellSize } from "../core/worldScale.js";

/** Largest grid side the simulation accepts, in vertices. */
export const MAX_GRID_SIDE = 16385;

/** What `erodeHeightfield` returns. */
export interface ErodedHeightfield {
    /** Eroded heights in metres, row-major. */
    readonly heights: Float32Array;
    /** Eroded heights in fixed point (1/65536 of the cell size), row-major: the exact state. */
    readonly fixedHeights: Int32Array;
    /** The contract fingerprint of the final state (see docs/simulation.md). */
    readonly fingerprint: string;
    /** Where material went and how many steps droplets took. */
    readonly counters: ErosionCounters;
    /** The full final state (heights, suspended sediment, counters, position). */
    readonly state: ErosionStateData;
}

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

/**
 * Erodes a heightfield on the CPU reference.
 * @param heights row-major heights: metres (`Float32Array` or any numbers) or fixed point (`Int32Array`, 1/65536 of `cellSize`)
 * @param width vertices per row, at least 2
 * @param depth rows, at least 2
 * @param options erosion options merged over the defaults
 * @param cycles whole cycles to run (every enabled operator over every patch once per cycle), default 1
 * @param cellSize distance between neighbouring vertices in metres (the heights' unit), default 1
 */
export function erodeHeightfield(
    heights: ArrayLike<number> | Int32Array, width: number, depth: number, options: ErosionOptionsInput = {}, cycles = 1, cellSize = 1
): ErodedHeightfield {
    validateGrid(width, depth, heights.length);
    if (!Number.isInteger(cycles) || cycles < 0) {
        throw new RangeError(`cycles is ${cycles}: it must be a non-negative integer.`);
    }
    validateCellSize(cellSize);
    const resolved = resolveOptions(options);
    const simulation = new CpuErosionSimulation(width, depth, toFixedHeights(heights, cellSize), resolved, cellSize);
    simulation.runCycles(cycles);
    const state = simulation.getState();
    return {
        heights: fixedToHeights(state.heights, undefined, cellSize),
        fixedHeights: state.heights,
        fingerprint: simulation.fingerprint(),
        counters: countersToObject(state.counters),
        state,
    };
}
