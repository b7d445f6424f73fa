/**
 * The WebGPU river figure (`rivers`, cells/s), run by `runGpuKernelBench` (gpuKernels.ts) on its
 * `WebGpuComputeDevice`: whole river batches recorded by `GpuErosionSimulation.runBatch`, exactly
 * as the GPU backend records one (river_slots, `stepsPerBatch` drainage-area steps alternating
 * river_accumulate and river_accumulate_odd, river_erode, river_uplift, river_settle,
 * `stepsPerBatch` hops of route_sediment, apply_delta, fill_levels, copy_levels: 71 passes a batch), several batches a run, every run from a new
 * state (`riverStartState`, uploaded before the run and not timed).
 *
 * Timing: wall time from the submit to `onSubmittedWorkDone` (no timestamp queries: a run holds
 * thousands of passes). A run records at most `MAX_RIVER_BATCHES` batches, so the simulation never
 * submits by itself while recording (it does every 32 batches, its params slots) and the whole run
 * is one submit, timed.
 *
 * On an adapter too slow for one whole-field batch a run (a software adapter such as SwiftShader),
 * the batch covers a smaller square patch at the field's centre: a probe batch over a 64 x 64
 * patch sizes it, halving the side while one batch would take longer than the run's target, but
 * not below `MIN_RIVER_SIDE`. A cell is one vertex of the patch through one whole batch, counted
 * once (not once per propagation step, nor for the routing's wider extent).
 */
import { type PlannedBatch, GpuErosionSimulation, type WebGpuComputeDevice } from "../../plugin/advanced.js";
import { calibrate, repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";
import { benchOptions, riverBatch, riverStartState } from "./workloads.js";

/** Smallest side of the river figure's patch. */
const MIN_RIVER_SIDE = 128;

/** Most batches a run: `GpuErosionSimulation`'s params slots, so a run is recorded before its one submit. */
const MAX_RIVER_BATCHES = 32;

/** How the river figure runs. */
export interface GpuRiverFigureOptions {
    /** Record's `backend`. */
    backend: string;
    counts: RunCounts;
    /** What one run should take, milliseconds (sets the patch and the batches a run). */
    targetMs: number;
}

/** The river figure of a `size x size` field on `compute` (whose `GPUDevice` is `device`). */
export async function runGpuRiverFigure(compute: WebGpuComputeDevice, device: GPUDevice, size: number, options: GpuRiverFigureOptions): Promise<BenchRecord> {
    const { counts, targetMs } = options;
    const simulation = await GpuErosionSimulation.create(compute, size, size, benchOptions(size, 0, 1).patchSize);
    try {
        const start = riverStartState(size);
        /** Runs `batches` river batches over a `side x side` patch from the start state; returns cells and seconds. */
        const runRivers = async (side: number, batches: number) => {
            const work = riverBatch(size, side);
            const planned: PlannedBatch = { operator: "rivers", patch: work.patch, params: work.params, brush: new Int32Array(0), cycle: 0, batch: 0, group: 0, thermalIterations: 0, riverSteps: work.steps, masks: start.masks, waterSources: new Int32Array(1) };
            // The start of every run: the field's heights, drainage area 1, its fill levels, nothing
            // suspended, an empty accumulator; written (and finished) before the timed submit.
            simulation.upload(start);
            await device.queue.onSubmittedWorkDone();
            for (let batch = 0; batch < batches; batch++) {
                simulation.runBatch(planned);
            }
            const started = performance.now();
            simulation.submit();
            await device.queue.onSubmittedWorkDone();
            return { cells: work.cells * batches, seconds: (performance.now() - started) / 1000 };
        };
        // A probe batch over a small patch (also a warm-up) sizes the work.
        const probe = await runRivers(Math.min(size, MIN_RIVER_SIDE / 2), 1);
        const cellsInTarget = (probe.cells / probe.seconds) * (targetMs / 1000);
        let side = size;
        while (side > MIN_RIVER_SIDE && side * side > cellsInTarget) {
            side >>= 1;
        }
        // Calibrated in the first (warm-up) run: every recorded run records `batches` batches.
        let batches = 1;
        const values = await repeat(counts, async (run) => {
            const timed = await runRivers(side, batches);
            if (run === 0) {
                batches = calibrate(timed.seconds, batches, targetMs, MAX_RIVER_BATCHES);
            }
            return timed.cells / timed.seconds;
        });
        const { steps, params } = riverBatch(size, side);
        const where = side === size ? "over the whole field" : `over a ${side} x ${side} patch at the field's centre (one whole-field batch takes longer than a run's target here)`;
        const detail = `${batches} river batch${batches > 1 ? "es" : ""} a run ${where} from a new state, each as GpuErosionSimulation records it: river_slots, ${steps} drainage-area steps (river_accumulate and river_accumulate_odd alternating), river_erode, river_uplift, river_settle, ${params.routeHops} route_sediment hops, apply_delta, fill_levels, copy_levels; a cell is one vertex of the patch through a whole batch, counted once; submit to onSubmittedWorkDone (one submit a run)`;
        return { backend: options.backend, kernel: "rivers", size, brushRadius: null, threads: null, unit: "cells/s", ...summarize(values), runs: counts.runs, detail };
    } finally {
        simulation.dispose();
    }
}
