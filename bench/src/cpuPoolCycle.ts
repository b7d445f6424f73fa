/**
 * The CPU backend's full cycle at 513² on one worker and on the pool (`cpuWorkers`), in the same
 * process: the default options (droplets, rivers, thermal), every batch of a cycle through
 * `CpuErosionBackend` in frames of one class at a time, from the same start every run. The pool's
 * speed-up is the one-worker time over the pool's. Under Node the helpers are worker threads
 * sharing memory; the copying fallback (a page that is not cross-origin isolated) is measured too.
 */
import { createInitialState, type ErosionStateData, ErosionSchedule, type PlannedBatch, CpuErosionBackend, type CpuPoolChoice } from "../../plugin/advanced.js";
import { resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { benchHeights } from "./workloads.js";
import { repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";

/** One cycle's batches at the defaults, cut into frames at each change of class. */
function cycleFrames(size: number, options: ErosionOptionsInput): PlannedBatch[][] {
    const schedule = new ErosionSchedule({ width: size, depth: size, cellSize: 1, worldScale: 1 }, resolveOptions(options));
    const frames: PlannedBatch[][] = [];
    while (schedule.cycle < 1) {
        const planned = schedule.planNext();
        if (planned) {
            const last = frames[frames.length - 1];
            if (last && last[0].group === planned.group) last.push(planned);
            else frames.push([planned]);
        }
        schedule.advance();
    }
    return frames;
}

async function cycleMs(start: ErosionStateData, frames: readonly PlannedBatch[][], pool: CpuPoolChoice, counts: RunCounts): Promise<number[]> {
    const backend = await CpuErosionBackend.create(start, false, pool);
    try {
        return await repeat(counts, async () => {
            await backend.writeState(start);
            const started = performance.now();
            for (const frame of frames) await backend.runFrame(frame, null);
            return performance.now() - started;
        });
    } finally {
        backend.dispose();
    }
}

/**
 * The pool's figures for one cycle of `options` (`name`: "cycle" for the defaults): milliseconds on
 * one worker and on `workers` (sharing memory, and copying rows), and the speed-ups.
 */
export async function runPoolCycleFigures(size: number, workers: number, counts: RunCounts, name: string, options: ErosionOptionsInput): Promise<BenchRecord[]> {
    const start = createInitialState(size, size, benchHeights(size));
    const frames = cycleFrames(size, options);
    const batches = frames.reduce((sum, frame) => sum + frame.length, 0);
    const detail = `one cycle of ${name === "cycle" ? "the default options" : JSON.stringify(options)} (${batches} batches in ${frames.length} classes), CpuErosionBackend in this thread with Node worker-thread helpers, from the same start each run`;
    const records: BenchRecord[] = [];
    const one = summarize(await cycleMs(start, frames, { workers: 1, shared: true }, counts));
    records.push({ backend: "cpu", kernel: `pool-${name}`, size, brushRadius: null, threads: 1, unit: "ms", ...one, runs: counts.runs, detail });
    for (const shared of [true, false]) {
        const pooled = summarize(await cycleMs(start, frames, { workers, shared }, counts));
        const how = shared ? "shared memory" : "rows copied to the helpers (no SharedArrayBuffer)";
        const suffix = shared ? "" : "-copy";
        records.push({ backend: "cpu", kernel: `pool-${name}${suffix}`, size, brushRadius: null, threads: workers, unit: "ms", ...pooled, runs: counts.runs, detail: `${detail}; ${how}` });
        records.push({ backend: "cpu", kernel: `pool-${name}-speedup${suffix}`, size, brushRadius: null, threads: workers, unit: "x", median: one.median / pooled.median, min: one.median / pooled.max, max: one.median / pooled.min, runs: counts.runs, detail: `one-worker time over the ${workers}-worker time (${how}), medians` });
    }
    return records;
}
