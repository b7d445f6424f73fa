/**
 * The CPU water figure (`water`, cells/s per step): whole water steps (seven passes over every patch
 * of the default 64-cell layout) by `CpuBatchRunner`, as the CPU backend runs them, from the wet
 * start state (`waterStartState`) every run; a cell is one vertex through one whole step.
 */
import { CpuBatchRunner, cloneState } from "../../plugin/advanced.js";
import { repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";
import { waterStartState, waterStepBatches } from "./waterWorkloads.js";

/** Steps a run: enough for a figure of tens of milliseconds at 256^2. */
const STEPS = 4;

/** The CPU water figure at `size`. */
export async function runCpuWaterFigure(size: number, counts: RunCounts): Promise<BenchRecord> {
    const start = waterStartState(size);
    const batches = waterStepBatches(size);
    const values = await repeat(counts, () => {
        const runner = new CpuBatchRunner(cloneState(start));
        const started = performance.now();
        for (let step = 0; step < STEPS; step++) {
            for (const batch of batches) runner.run(batch);
        }
        return (size * size * STEPS) / ((performance.now() - started) / 1000);
    });
    const detail = `${STEPS} water steps a run from a wet state (the field after 8 steps of rain at 0.01 cells a step), each the seven passes over every patch (${batches.length / 7} of them) as CpuBatchRunner runs them; a cell is one vertex through a whole step`;
    return { backend: "cpu", kernel: "water", size, brushRadius: null, threads: 1, unit: "cells/s", ...summarize(values), runs: counts.runs, detail };
}
