/**
 * The schedule's cycle figures: dispatches and GPU time of one whole cycle with the default
 * options at 513², 2049² and 4097², recorded by `GpuErosionSimulation.runBatches` as the GPU
 * backend's `runCycles` records it (each class of independent patches shares its dispatches).
 *
 * Dispatches are counted on a device that runs nothing (`scripts/lib/cycleRecording.ts`), so every
 * size is counted on any machine. GPU time is wall time from the first recorded dispatch to
 * `onSubmittedWorkDone` after the cycle's last submit, after one untimed cycle (pipelines warm, the
 * field already eroded once). It is measured at 513², then at each larger size whose time the 513²
 * cycle predicts (scaled by the cells) within `MAX_CYCLE_SECONDS`: a software adapter such as
 * SwiftShader takes about a minute for 513² and is not asked for 4097²; a real GPU is.
 */
import { resolveOptions } from "../../plugin/index.js";
import { ErosionSchedule, GpuErosionSimulation, createInitialState, type WebGpuComputeDevice } from "../../plugin/advanced.js";
import { planCycle, recordCycle } from "../../scripts/lib/cycleRecording.js";
import { repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";
import { benchHeights } from "./workloads.js";

/** Field sides of the cycle figures. */
export const CYCLE_SIZES = [513, 2049, 4097] as const;

/** Longest a timed cycle may be predicted to take before its size is skipped, seconds. */
const MAX_CYCLE_SECONDS = 30;

/** Seconds of one cycle with the default options on `compute`, from the benchmark field. */
async function timeCycle(compute: WebGpuComputeDevice, device: GPUDevice, size: number, counts: RunCounts): Promise<number[]> {
    const options = resolveOptions({});
    const schedule = new ErosionSchedule({ width: size, depth: size }, options);
    const simulation = await GpuErosionSimulation.create(compute, size, size, options.patchSize);
    try {
        simulation.upload(createInitialState(size, size, benchHeights(size)));
        await device.queue.onSubmittedWorkDone();
        return await repeat(counts, async () => {
            const planned = planCycle(schedule);
            const started = performance.now();
            simulation.runBatches(planned);
            simulation.submit();
            await device.queue.onSubmittedWorkDone();
            return (performance.now() - started) / 1000;
        });
    } finally {
        simulation.dispose();
    }
}

/** Dispatches and GPU time per cycle at each of `CYCLE_SIZES`. */
export async function runGpuCycleFigures(compute: WebGpuComputeDevice, device: GPUDevice, backend: string, quick: boolean, log: (line: string) => void): Promise<BenchRecord[]> {
    const records: BenchRecord[] = [];
    // One warm-up cycle, then one timed (quick) or three.
    const counts: RunCounts = { warmup: 1, warmupMs: 0, runs: quick ? 1 : 3 };
    let secondsPerCell: number | null = null;
    for (const size of CYCLE_SIZES) {
        const recorded = await recordCycle(size, {});
        records.push({ backend, kernel: "cycle-dispatches", size, brushRadius: null, threads: null, unit: "dispatches", median: recorded.dispatches, min: recorded.dispatches, max: recorded.dispatches, runs: 1, detail: `one cycle with the default options: ${recorded.batches} batches in ${recorded.dispatches} dispatches (counted while recording, nothing run)` });
        const predicted = secondsPerCell === null ? 0 : secondsPerCell * size * size;
        if (predicted > MAX_CYCLE_SECONDS) {
            const detail = `not measured: the ${CYCLE_SIZES[0]}² cycle predicts ${predicted.toFixed(0)} s on this adapter (more than ${MAX_CYCLE_SECONDS} s)`;
            records.push({ backend, kernel: "cycle-gpu-ms", size, brushRadius: null, threads: null, unit: "ms", median: NaN, min: NaN, max: NaN, runs: 0, detail });
            log(`  ${backend} cycle ${size}²: ${recorded.dispatches} dispatches; GPU time ${detail}`);
            continue;
        }
        const seconds = await timeCycle(compute, device, size, counts);
        secondsPerCell ??= summarize(seconds).median / (size * size);
        const ms = summarize(seconds.map((value) => value * 1000));
        records.push({ backend, kernel: "cycle-gpu-ms", size, brushRadius: null, threads: null, unit: "ms", ...ms, runs: seconds.length, detail: `one cycle with the default options (${recorded.batches} batches, ${recorded.dispatches} dispatches) from the benchmark field, after one untimed cycle; first recorded dispatch to onSubmittedWorkDone` });
        log(`  ${backend} cycle ${size}²: ${recorded.dispatches} dispatches, ${ms.median.toFixed(0)} ms`);
    }
    return records;
}
