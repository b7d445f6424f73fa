/**
 * The CPU reference split across worker threads (scripts/lib/cpuWorkers.ts, which the benchmarks'
 * multi-thread figures run on) gives the single-thread result to the unit: droplets split by ranges
 * with one delta accumulator per worker, thermal steps split by rows. Small fields and few batches,
 * so the test stays quick; it measures no time.
 */
import { build, stop } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createInitialState, ErosionSchedule, fingerprintOf } from "../../../plugin/advanced.js";
import { CpuWorkerPool } from "../../../scripts/lib/cpuWorkers.js";
import { splitRange } from "../../../scripts/lib/splitBatch.js";

describe("splitRange", () => {
    it("covers the range once, in order, in near-equal parts", () => {
        for (const [start, end, parts] of [[0, 10, 3], [5, 6, 4], [0, 1000, 7], [3, 3, 2]]) {
            const ranges = splitRange(start, end, parts);
            let next = start;
            for (const [from, to] of ranges) {
                expect(from).toBe(next);
                expect(to).toBeGreaterThan(from);
                expect(to - from).toBeLessThanOrEqual(Math.ceil((end - start) / parts));
                next = to;
            }
            expect(next).toBe(end);
        }
    });
});

describe("CpuWorkerPool", () => {
    let directory: string;
    let workerScript: string;

    beforeAll(async () => {
        directory = mkdtempSync(join(tmpdir(), "erosion-bench-"));
        workerScript = join(directory, "cpuWorker.mjs");
        // The asynchronous build and stop(): buildSync leaves a worker thread and the esbuild
        // process running, which held the jest worker past its exit (the forced-exit warning).
        await build({ entryPoints: [resolve("scripts/lib/cpuWorker.ts")], bundle: true, platform: "node", format: "esm", outfile: workerScript, logLevel: "silent" });
    });

    afterAll(async () => {
        await stop();
        rmSync(directory, { recursive: true, force: true });
    });

    it.each([
        ["brush 3, 3 workers, closed thermal", 3, { seed: 5, patchSize: 64, hydraulic: { dropletsPerBatch: 600, brushRadius: 3 } }],
        ["brush 0, carry, 2 workers, open 4-neighbour thermal", 2, { seed: 9, patchSize: 48, hydraulic: { dropletsPerBatch: 333, brushRadius: 0, endOfWalk: "carry" }, thermal: { neighbours: 4, boundary: "open", talus: 0.2, iterations: 3 } }],
    ] as [string, number, ErosionOptionsInput][])("is bit-identical to one thread: %s", async (_name, threads, input) => {
        const size = 129;
        const heights = heightsToFixed(generateNoiseTerrain({ width: size, depth: size, relief: 60, seed: 3 }));
        const options = resolveOptions(input);
        const single = new CpuErosionSimulation(size, size, heights, options);

        const pool = await CpuWorkerPool.create(threads, workerScript, size, size);
        try {
            pool.heights.set(heights);
            const state = { ...createInitialState(size, size, heights), heights: pool.heights };
            const delta = new Int32Array(size * size);
            const water = new Int32Array(size * size);
            const schedule = new ErosionSchedule({ width: size, depth: size }, options);
            const batches = schedule.batchesPerCycle + 3; // one cycle and a few batches of the next
            for (let batch = 0; batch < batches; batch++) {
                const planned = schedule.planNext()!;
                await pool.runBatch(planned, state, delta, water);
                schedule.advance();
                single.runBatch();
            }
            state.cycle = schedule.cycle;
            state.batch = schedule.batch;
            expect(Array.from(state.counters)).toEqual(Array.from(single.state.counters));
            expect(fingerprintOf(state)).toBe(single.fingerprint());
            expect(single.state.counters[3]).toBeGreaterThan(0); // droplets did walk
        } finally {
            await pool.terminate();
        }
    });
});
