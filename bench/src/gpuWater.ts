/**
 * The WebGPU water figure (`water`, cells/s per step), run by `runGpuKernelBench` (gpuKernels.ts):
 * whole water steps recorded by `GpuErosionSimulation.runBatches` exactly as the GPU backend records
 * them (each pass a class of every patch: one dispatch set), several steps a run, from the wet start
 * state (`waterStartState`, uploaded before the run and not timed). Timing: submit to
 * `onSubmittedWorkDone`, one submit a run (at most `MAX_STEPS` steps: 7 params slots a step of the
 * simulation's 32).
 */
import { GpuErosionSimulation, type WebGpuComputeDevice } from "../../plugin/advanced.js";
import { calibrate, repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";
import { waterBenchOptions, waterStartState, waterStepBatches } from "./waterWorkloads.js";

/** Most steps a run, so the run is recorded before its one submit (7 of the 32 params slots a step). */
const MAX_STEPS = 4;

/** The water figure of a `size x size` field on `compute` (whose `GPUDevice` is `device`). */
export async function runGpuWaterFigure(compute: WebGpuComputeDevice, device: GPUDevice, size: number, options: { backend: string; counts: RunCounts; targetMs: number }): Promise<BenchRecord> {
    const simulation = await GpuErosionSimulation.create(compute, size, size, waterBenchOptions().patchSize);
    try {
        const start = waterStartState(size);
        const batches = waterStepBatches(size);
        let steps = 1;
        const values = await repeat(options.counts, async (run) => {
            simulation.upload(start);
            simulation.submit();
            await device.queue.onSubmittedWorkDone();
            for (let step = 0; step < steps; step++) simulation.runBatches(batches);
            const started = performance.now();
            simulation.submit();
            await device.queue.onSubmittedWorkDone();
            const seconds = (performance.now() - started) / 1000;
            const cells = size * size * steps;
            if (run === 0) steps = calibrate(seconds, steps, options.targetMs, MAX_STEPS);
            return cells / seconds;
        });
        const detail = `${steps} water step${steps > 1 ? "s" : ""} a run from a wet state (the field after 8 steps of rain), each seven passes (water_flux, water_scale, water_limit, water_transport, water_erode, water_depth, water_apply), one dispatch each over the ${batches.length / 7} patches as GpuErosionSimulation records a class; a cell is one vertex through a whole step; submit to onSubmittedWorkDone (one submit a run)`;
        return { backend: options.backend, kernel: "water", size, brushRadius: null, threads: null, unit: "cells/s", ...summarize(values), runs: options.counts.runs, detail };
    } finally {
        simulation.dispose();
    }
}
