/**
 * CPU reference figures under Node: droplet steps per second and thermal cells per second, on one
 * thread (the calling thread) and on `CpuWorkerPool`'s worker threads (one per core); masked
 * droplet steps per second and river cells per second on one thread only (the figures split
 * neither masks nor the river operator across the pool). The component's own worker pool (every
 * operator, `cpuWorkers`) is measured on a full 513² cycle and on a river batch (`cpuPoolCycle.ts`).
 * Run by `npm run bench` from an esbuild bundle
 * (bench/.build/cpu.mjs), next to the bundled worker. The yardsticks (bench/yardstick/, see
 * yardsticks.ts) run in the same run, at its start and again beside each figure a target divides
 * by them (once before each run of the one-thread walk and thermal, on their core; as a series
 * just before the river figures),
 * and the figures the CPU targets are stated in come last as ratios to the yardsticks measured
 * beside them.
 *
 *   node bench/.build/cpu.mjs [--quick] [--threads=N] --json=records.json
 */
import { availableParallelism } from "node:os";
import { writeFileSync } from "node:fs";
import { COUNTER_COUNT, COUNTER_DROPLET_STEPS, erodeDroplets, thermalApply, thermalFlux, runRiverBatch, createRiverScratch, RiverBandWork, createMaps, cloneState, noMasks, THERMAL_SLOTS } from "../../plugin/advanced.js";
import { CpuWorkerPool } from "../../scripts/lib/cpuWorkers.js";
import { CorePin } from "./cpuAffinity.js";
import { formatValue, repeat, runCounts, summarize, type BenchRecord } from "./records.js";
import { benchHeights, cpuDroplets, dropletBatch, MASKED_RADIUS, RADII, RIVER_WARM_BATCHES, riverBatch, riverStartState, riverWarmState, SIZES, thermalBatch } from "./workloads.js";
import { measureYardstickNow, measureYardsticks, yardstickRatios } from "./yardsticks.js";
import { runCpuWaterFigure } from "./cpuWater.js";
import { runCpuEditFigures } from "./editFigures.js";
import { CHECKSUM_SIZES, runCpuChecksumFigures } from "./checksumFigures.js";
import { runLockstepFigures } from "./lockstepFigures.js";
import { runPoolCycleFigures } from "./cpuPoolCycle.js";
import { runBakeFigures, tiledBake } from "./bakeFigures.js";
import { runQueueBakeFigures } from "./queueBakeFigures.js";
import { runWalkProcessFigures } from "./walkProcesses.js";
import { runMaterialsCostFigures } from "./materialsCost.js";
import { runDepositionCostFigures } from "./depositionCost.js";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const jsonPath = args.find((arg) => arg.startsWith("--json="))?.slice(7);
const threadsArg = args.find((arg) => arg.startsWith("--threads="))?.slice(10);
const threads = threadsArg ? Number(threadsArg) : availableParallelism();
const sizesArg = args.find((arg) => arg.startsWith("--sizes="))?.slice(8);
const sizes = sizesArg ? sizesArg.split(",").map(Number) : [...SIZES];
const counts = runCounts(quick);
const runs = counts.runs;
const workerScript = new URL("./cpu-worker.mjs", import.meta.url);
const records: BenchRecord[] = [];
/** Yardsticks measured again just before the figure each ratio divides, by the ratio (yardsticks.ts says why). */
const adjacent = new Map<string, number>();

/** The main thread's pin to one core, for a one-thread ratio's yardstick and figure (cpuAffinity.ts says why). */
const pin = new CorePin();

/**
 * Measures yardstick `kernel` now, for `ratio`, whose figure comes next: on this thread, both
 * pinned to the core it is on until the figure is reported (`onOneCore`), or on the pool's workers
 * (every core, nothing pinned). The one-thread walk and thermal ratios use `repeatBeside`.
 */
function measureBeside(kernel: string, ratio: string, onOneCore: boolean): void {
    if (onOneCore) pin.pinHere();
    const median = measureYardstickNow(kernel, quick, runs, onOneCore ? pin : null);
    if (median === null) return;
    adjacent.set(ratio, median);
    const where = pin.cpu === null ? "" : ` (pinned to CPU ${pin.cpu} with the figure)`;
    process.stderr.write(`  cpu ${kernel} again, for ${ratio}${where}: ${formatValue(median, "steps/s")} steps/s\n`);
}

/** How long a one-thread figure runs unrecorded after its yardsticks, before each recorded run (`repeatBeside`). */
const WARM_AFTER_STICKS_MS = 150;

/**
 * `repeat(counts, measure)` with each of `sticks` (a yardstick and the ratio it divides) run once
 * before every run, all on one core: each ratio takes the median of the yardstick's runs beside the
 * recorded ones, so a slow minute slows both sides. Measured just before the figure (medians of
 * whole series) was not close enough for the walk: in the 2026-12-01 23:55 run the JS walk read
 * 14.7 M steps/s in the ten seconds before the walk's figure, whose runs then all fell in a slow
 * minute (9.3-10.5 M, where the run before read 13.4 M): 0.71x for 0.90x. After a yardstick (the
 * thread blocked on it for a second) the first tens of milliseconds run slow on this host (a
 * 512² river batch took 55 ms instead of 21, the walk's first batch 8.3 M steps/s against 9.7), so
 * `measure` runs unrecorded for WARM_AFTER_STICKS_MS before each recorded run.
 */
async function repeatBeside(sticks: ReadonlyArray<readonly [kernel: string, ratio: string]>, measure: (run: number) => number | Promise<number>): Promise<number[]> {
    if (sticks.length > 0) pin.pinHere();
    const beside = sticks.map((): number[] => []);
    const values = await repeat(counts, async (run) => {
        sticks.forEach(([kernel], k) => {
            const value = measureYardstickNow(kernel, quick, 1, pin);
            if (value !== null) beside[k].push(value);
        });
        for (const started = performance.now(); sticks.length > 0 && performance.now() - started < WARM_AFTER_STICKS_MS; ) await measure(run);
        return measure(run);
    });
    const where = pin.cpu === null ? "" : ` (pinned to CPU ${pin.cpu} with the figure)`;
    sticks.forEach(([kernel, ratio], k) => {
        if (beside[k].length === 0) return;
        const median = summarize(beside[k].slice(-runs)).median;
        adjacent.set(ratio, median);
        const unit = kernel.endsWith("thermal") ? "cells/s" : "steps/s";
        process.stderr.write(`  cpu ${kernel} before each run, for ${ratio}${where}: ${formatValue(median, unit)} ${unit}\n`);
    });
    return values;
}

function report(record: BenchRecord): void {
    records.push(record);
    pin.release();
    const figure = `${record.kernel} ${record.size}² r${record.brushRadius ?? "-"} ${record.threads} thread${record.threads === 1 ? "" : "s"}`;
    process.stderr.write(`  cpu ${figure.padEnd(28)} ${formatValue(record.median, record.unit)} ${record.unit} (min ${formatValue(record.min, record.unit)}, max ${formatValue(record.max, record.unit)})\n`);
}

/**
 * Runs the droplet kernel on every brush radius (and the masked walk) before any figure is
 * measured, so V8 compiles it once with the feedback of every path rather than recompiling it
 * between figures.
 */
function warmUpKernels(): void {
    const size = 256;
    const heights = benchHeights(size);
    const delta = new Int32Array(size * size);
    for (let round = 0; round < 3; round++) {
        for (const brushRadius of RADII) {
            const { params, brush } = dropletBatch(size, brushRadius, cpuDroplets(size), 1000 + round);
            erodeDroplets(params, heights, delta, brush, new Float64Array(COUNTER_COUNT));
        }
        const masked = dropletBatch(size, MASKED_RADIUS, cpuDroplets(size), 1000 + round, true);
        erodeDroplets(masked.params, heights, delta, masked.brush, new Float64Array(COUNTER_COUNT), 0, masked.params.dropletCount, null, masked.mask);
    }
}

async function main(): Promise<void> {
    warmUpKernels();
    // The yardsticks first, each in its own process, then the project's figures; the ratios last.
    const yardstick = measureYardsticks(quick, runs);
    yardstick.records.forEach(report);
    yardstick.skipped.forEach((what) => process.stderr.write(`  cpu skipped ${what}\n`));
    for (const size of sizes) {
        const heights = benchHeights(size);
        const droplets = cpuDroplets(size);
        // Small fields run several batches a run, so every run walks at least about a million steps.
        const batchesPerRun = Math.max(1, (512 * 512) / (size * size));
        const pool = threads > 1 ? await CpuWorkerPool.create(threads, workerScript, size, size) : null;
        pool?.heights.set(heights);
        const delta = new Int32Array(size * size);
        // Water visits, which the CPU backend counts for the erosion maps as it walks.
        const water = new Int32Array(size * size);

        /** Droplet steps per second over one run's batches; `erode` runs one batch, and only it is timed. */
        const dropletStepsPerSecond = async (run: number, brushRadius: number, masked: boolean, erode: (batch: ReturnType<typeof dropletBatch>, counters: Float64Array) => void | Promise<void>): Promise<number> => {
            let steps = 0;
            let seconds = 0;
            for (let batch = 0; batch < batchesPerRun; batch++) {
                const work = dropletBatch(size, brushRadius, droplets, run * batchesPerRun + batch, masked);
                const counters = new Float64Array(COUNTER_COUNT);
                delta.fill(0);
                const started = performance.now();
                const pending = erode(work, counters);
                if (pending) await pending; // a synchronous kernel's time holds no extra microtask
                seconds += (performance.now() - started) / 1000;
                steps += counters[COUNTER_DROPLET_STEPS];
            }
            return steps / seconds;
        };

        for (const brushRadius of RADII) {
            const detail = `${droplets} droplets a batch over the whole field, ${batchesPerRun} batch${batchesPerRun > 1 ? "es" : ""} a run; erodeDroplets only (no fold), counting water visits as the CPU backend does`;
            // One thread: the kernel on this thread (at 512², radius 3, the walk yardsticks of its
            // ratios run before each of its runs).
            const sticks = size === 512 && brushRadius === 3 ? ([["yardstick-c-walk", "ratio-walk-vs-c"], ["yardstick-js-walk", "ratio-walk-vs-js"]] as const) : [];
            const single = await repeatBeside(sticks, (run) =>
                dropletStepsPerSecond(run, brushRadius, false, ({ params, brush }, counters) => {
                    erodeDroplets(params, heights, delta, brush, counters, 0, params.dropletCount, water);
                })
            );
            report({ backend: "cpu", kernel: "droplet", size, brushRadius, threads: 1, unit: "steps/s", ...summarize(single), runs, detail });
            if (pool) {
                const parallel = await repeat(counts, (run) => dropletStepsPerSecond(run, brushRadius, false, ({ params, brush }, counters) => pool.erodeDroplets(params, brush, delta, water, counters)));
                report({ backend: "cpu", kernel: "droplet", size, brushRadius, threads, unit: "steps/s", ...summarize(parallel), runs, detail: `${detail}; droplets split across worker threads, deltas and water visits summed (included in the time)` });
            }
        }

        {
            // The same batches with the hydraulic mask (one thread: the pool does not split masks),
            // each run just after a run of the same batches without it, for the ratio of the two.
            const brushRadius = MASKED_RADIUS;
            const ratios: number[] = [];
            const masked = await repeat(counts, async (run) => {
                const unmasked = await dropletStepsPerSecond(run, brushRadius, false, ({ params, brush }, counters) => {
                    erodeDroplets(params, heights, delta, brush, counters, 0, params.dropletCount, water);
                });
                const rate = await dropletStepsPerSecond(run, brushRadius, true, ({ params, brush, mask }, counters) => {
                    erodeDroplets(params, heights, delta, brush, counters, 0, params.dropletCount, water, mask);
                });
                ratios.push(rate / unmasked);
                return rate;
            });
            const detail = `${droplets} droplets a batch over the whole field, ${batchesPerRun} batch${batchesPerRun > 1 ? "es" : ""} a run, hydraulic mask benchMask (32-cell checkerboard, half held out, the rest a 1/32..1 ramp); erodeDroplets only (no fold), counting water visits as the CPU backend does`;
            report({ backend: "cpu", kernel: "droplet-masked", size, brushRadius, threads: 1, unit: "steps/s", ...summarize(masked), runs, detail });
            report({ backend: "cpu", kernel: "ratio-masked-vs-unmasked", size, brushRadius, threads: 1, unit: "x", ...summarize(ratios.slice(-runs)), runs, detail: `each droplet-masked run over a run of the same batches without the mask just before it (issue 17: within 20%, i.e. at least 0.8x); ${detail}` });
        }

        const { params, iterations } = thermalBatch(size);
        const cells = (params.patchX1 - params.patchX0) * (params.patchY1 - params.patchY0) * iterations;
        const detail = `whole field as one patch, ${iterations} relaxation steps (flux + apply) a run`;
        const working = heights.slice();
        const flux = new Int32Array(cells / iterations * THERMAL_SLOTS);
        // No drainage area anywhere: the channel rule (a river channel's inflow joins its load) never applies.
        const channel = { drainageArea: new Int32Array(size * size), suspended: new Int32Array(size * size) };
        const single = await repeatBeside(size === 1024 ? [["yardstick-js-thermal", "ratio-thermal-vs-js"]] : [], () => {
            working.set(heights);
            const counters = new Float64Array(COUNTER_COUNT);
            const started = performance.now();
            for (let step = 0; step < iterations; step++) {
                thermalFlux(params, working, flux);
                thermalApply(params, working, flux, counters, null, channel);
            }
            return cells / ((performance.now() - started) / 1000);
        });
        report({ backend: "cpu", kernel: "thermal", size, brushRadius: null, threads: 1, unit: "cells/s", ...summarize(single), runs, detail });
        if (pool) {
            const parallel = await repeat(counts, async () => {
                pool.heights.set(heights);
                const counters = new Float64Array(COUNTER_COUNT);
                const started = performance.now();
                await pool.thermal(params, iterations, counters);
                return cells / ((performance.now() - started) / 1000);
            });
            report({ backend: "cpu", kernel: "thermal", size, brushRadius: null, threads, unit: "cells/s", ...summarize(parallel), runs, detail: `${detail}; rows split across worker threads, every step` });
        }

        for (const [kernel, start, from] of [
            ["rivers", riverStartState(size), "a new state (drainage area 1, priority-flood fill levels)"],
            ["rivers-warm", riverWarmState(size), `the state ${RIVER_WARM_BATCHES} river batches after a new one (the areas mostly caught up, as in a running component)`],
        ] as const) {
            // A river batch as CpuBatchRunner runs one (one thread: the pool runs river batches on
            // the calling thread too), from the same start every run; only runRiverBatch is timed.
            const { params: rivers, steps, cells } = riverBatch(size);
            const state = cloneState(start);
            const masks = noMasks();
            const scratch = createRiverScratch(size * size);
            const work = RiverBandWork.create(size * size);
            const maps = createMaps(size * size);
            // Its yardstick as a series just before it, not between its runs: after a yardstick the
            // river batch ran slow for longer than the warm-up (the 00:43 run: 7.94 M cells/s
            // interleaved, 11.8 M warm just after; 8.28x where series read 10.3-11.3x).
            if (kernel === "rivers" && size === 512) measureBeside("yardstick-c-walk", "ratio-rivers-vs-flow", true);
            const single = await repeat(counts, () => {
                state.heights.set(start.heights);
                state.suspended.set(start.suspended);
                state.drainageArea.set(start.drainageArea);
                state.fillLevels.set(start.fillLevels);
                state.counters.fill(0);
                const started = performance.now();
                runRiverBatch(rivers, steps, state, masks, scratch, work, maps);
                return cells / ((performance.now() - started) / 1000);
            });
            const riverDetail = `whole field as one patch, one river batch a run from ${from}: runRiverBatch (river slots, donors, one walk down the slot forest for the ${steps} drainage-area steps, erosion, uplift, settling and ${rivers.routeHops} routing hops, apply, fill levels; recording wear and deposition as the CPU backend does); a cell is one vertex of the patch through the whole batch, counted once`;
            report({ backend: "cpu", kernel, size, brushRadius: null, threads: 1, unit: "cells/s", ...summarize(single), runs, detail: riverDetail });
        }
        report(await runCpuWaterFigure(size, counts));
        if (size === 512) for (const record of await runCpuEditFigures(size, counts)) report(record);
        await pool?.terminate();
    }
    // Bedrock and soil: what the materials cost each operator (materialsCost.ts).
    if (sizes.includes(256)) for (const record of await runMaterialsCostFigures(256, counts)) report(record);
    // Laying down: what the rivers' deposits cost (depositionCost.ts).
    for (const record of await runDepositionCostFigures(counts)) report(record);
    // Region checksums: a full set at 512² and at a world's 4096² (checksumFigures.ts).
    if (sizes.includes(512)) for (const size of CHECKSUM_SIZES) report(await runCpuChecksumFigures(size, counts));
    // Lockstep: a player's traffic a minute and its catch-up rate (lockstepFigures.ts).
    if (sizes.includes(512)) for (const record of await runLockstepFigures()) report(record);
    // The walk in fresh processes, each beside the JS walk (issue 17: 0.75x "in every process").
    if (sizes.includes(512)) runWalkProcessFigures(new URL("./cpu-walk.mjs", import.meta.url).pathname, quick ? 3 : 5, quick, runs, pin).forEach(report);
    // The component's CPU backend on its worker pool: a full cycle at 513² (the figure) and a
    // river batch alone (the operator the pool splits by rows), one worker against `threads`.
    for (const [name, options] of [
        ["cycle", {}],
        ["rivers", { hydraulic: { enabled: false }, thermal: { enabled: false } }],
    ] as const) {
        if (name === "rivers") measureBeside("yardstick-c-walk", "ratio-pool-rivers-vs-flow", false);
        (await runPoolCycleFigures(513, Math.max(2, threads), counts, name, options)).forEach(report);
    }
    // The bake command on one worker and on every core (each bake its own process), on the worker
    // pool and in tiles; with --bake-large also an 8193² bake on every core (in tiles, the
    // command's default there), for its peak memory (minutes, about 3 GB).
    const bakeCli = new URL("./terrain-erosion.mjs", import.meta.url).pathname;
    (await runBakeFigures(bakeCli, 2049, Math.max(2, threads), quick ? 1 : 3)).forEach(report);
    (await runBakeFigures(bakeCli, 2049, Math.max(2, threads), 1, 1, false, tiledBake(4))).forEach(report);
    if (args.includes("--bake-large")) (await runBakeFigures(bakeCli, 8193, Math.max(2, threads), 1, 1, true, tiledBake(null))).forEach(report);
    // The bake on a BullMQ queue with 1 and 2 worker processes, against the local bake (issue 19).
    (await runQueueBakeFigures(bakeCli, 2049, [1, 2])).forEach(report);
    yardstickRatios(records, adjacent).forEach(report);
    if (jsonPath) {
        writeFileSync(jsonPath, JSON.stringify(records, null, 2));
    }
}

main().catch((error) => {
    console.error(error);
    process.exit(1);
});
