/**
 * The mesh-free entry point: heights in, eroded heights out, on the CPU reference, with no Babylon
 * engine. The `TerrainErosion` component gives the same heights for the same inputs.
 */
import { CpuErosionSimulation } from "./cpuSimulation.js";
import { countersToObject, type ErosionCounters } from "../core/counters.js";
import { fixedToHeights } from "../core/fixedPoint.js";
import { toFixedHeights, validateGrid } from "../core/gridValidation.js";
import { resolveOptions, type ErosionOptionsInput } from "../core/options.js";
import type { ErosionStateData } from "../core/erosionState.js";
import { validateCellSize } from "../core/worldScale.js";

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
