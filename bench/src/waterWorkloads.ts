/**
 * The shallow water's benchmark work: the start state (the benchmark field under a sheet of water
 * that has flowed for a few steps, so pipes run, the limiter works and the water erodes) and the
 * planned batches of one water step over the field's patches, as the schedule plans them.
 */
import { buildBatchParams, noMasks, type ErosionStateData, layoutPatches, type PlannedBatch, WATER_PASSES } from "../../plugin/advanced.js";
import { CpuErosionSimulation, resolveOptions, type ErosionOptions } from "../../plugin/index.js";
import { benchHeights } from "./workloads.js";

/** The water options of the figures: the defaults, with water on and heavier rain so the field is wet. */
export function waterBenchOptions(): ErosionOptions {
    return resolveOptions({ hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false }, water: { enabled: true, rain: 0.01, stepsPerCycle: 4 } });
}

const starts = new Map<number, ErosionStateData>();

/** The start of every water run (cached per size; copy it): the benchmark field after 2 cycles (8 steps) of rain. */
export function waterStartState(size: number): ErosionStateData {
    let state = starts.get(size);
    if (!state) {
        const simulation = new CpuErosionSimulation(size, size, benchHeights(size), waterBenchOptions());
        simulation.runCycles(2);
        state = simulation.getState();
        starts.set(size, state);
    }
    return state;
}

/** One water step over the whole field: its seven passes, each over every patch (a class), in order. */
export function waterStepBatches(size: number): PlannedBatch[] {
    const options = waterBenchOptions();
    const grid = { width: size, depth: size };
    const masks = noMasks();
    const sources = new Int32Array(1);
    const patches = layoutPatches(size, size, options.patchSize);
    return WATER_PASSES.flatMap((_, pass) => patches.map((patch) => ({ operator: "water" as const, patch, params: buildBatchParams(options, grid, patch, "water", 2, 0, masks, pass), brush: new Int32Array(0), cycle: 2, batch: 0, group: pass, thermalIterations: 0, riverSteps: 0, masks, waterSources: sources })));
}
