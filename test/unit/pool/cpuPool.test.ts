/**
 * The CPU backend's worker pool (Node worker threads) gives the one-thread terrain to the unit:
 * every operator, masks (the hardness map too), a local event and water sources, classes split across frames, a tileable
 * terrain's wrapping rivers; with shared memory and with rows copied to the helpers.
 */
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { createInitialState, createLocalEvent, createWaterGrids, ErosionSchedule, fingerprintOf, noMasks, type PlannedBatch } from "../../../plugin/advanced.js";
import { CPU_WORKER_SOURCE, CpuBatchRunner, CpuErosionBackend, CpuPool, nodeSpawner, type CpuPoolChoice, type PoolPort } from "../../../plugin/internal.js";

const ALL_OPERATORS: ErosionOptionsInput = { patchSize: 16, hydraulic: { dropletsPerBatch: 64 }, rivers: { enabled: true, stepsPerBatch: 6 }, thermal: { iterations: 3 }, water: { enabled: true, stepsPerCycle: 2 } };

/** Every batch of `cycles` cycles, planned in order (masks, an event and a source in force from the first). */
function planCycles(width: number, depth: number, options: ErosionOptionsInput, cycles: number): PlannedBatch[] {
    const resolved = resolveOptions(options);
    const schedule = new ErosionSchedule({ width, depth, cellSize: 1, worldScale: 1 }, resolved);
    const masks = noMasks();
    masks.hydraulic = Int32Array.from({ length: width * depth }, (_, i) => (i % width < width / 2 ? 65536 : 20000));
    masks.rain = Int32Array.from({ length: width * depth }, (_, i) => (Math.floor(i / width) < depth / 2 ? 65536 : 0));
    // The hardness map: the materials' hardness grid written from it once (runs without the materials only hash it).
    masks.hardness = Int32Array.from({ length: width * depth }, (_, i) => ((i % width) * 65536) / width);
    schedule.setMasks(masks);
    schedule.queueEvent(createLocalEvent(resolved, width, depth, width / 3, depth / 2, 6, {}));
    const batches: PlannedBatch[] = [];
    while (schedule.cycle < cycles) {
        const planned = schedule.planNext();
        if (planned) batches.push(planned);
        schedule.advance();
    }
    return batches;
}

async function erode(width: number, depth: number, batches: readonly PlannedBatch[], pool: CpuPoolChoice, frame: number): Promise<{ fingerprint: string; counters: number[]; maps: number[]; backend: { workers: number; shared: boolean } }> {
    const heights = heightsToFixed(generateNoiseTerrain({ width, depth, relief: 20, seed: 11 }));
    const backend = await CpuErosionBackend.create(createInitialState(width, depth, heights), false, pool);
    try {
        for (let first = 0; first < batches.length; first += frame) await backend.runFrame(batches.slice(first, first + frame), null);
        const last = batches[batches.length - 1];
        const state = await backend.readState(last.cycle + 1, 0);
        const maps = await backend.readMaps();
        return { fingerprint: fingerprintOf(state), counters: [...state.counters], maps: [maps.water, maps.wear, maps.deposition].map((map) => map.reduce((sum, value) => sum + value, 0)), backend: { workers: backend.workers, shared: backend.sharedMemory } };
    } finally {
        backend.dispose();
    }
}

describe("the CPU worker pool", () => {
    const width = 61;
    const depth = 45;

    it.each([
        ["two workers sharing memory", { workers: 2, shared: true }, 5, false],
        ["three workers copying rows", { workers: 3, shared: false }, 13, false],
        // Shared memory with the materials: the tileable case below.
        ["three workers copying rows, bedrock and soil on", { workers: 3, shared: false }, 13, true],
    ])("gives the one-thread terrain, counters and maps with %s", async (_name, pool, frame, materials) => {
        const options: ErosionOptionsInput = materials ? { ...ALL_OPERATORS, rivers: { ...ALL_OPERATORS.rivers, uplift: 0.01 }, materials: { enabled: true, soilTalus: 0.4, hardness: 4, initialSoil: 0.3 } } : ALL_OPERATORS;
        const batches = planCycles(width, depth, options, 2);
        const single = await erode(width, depth, batches, { workers: 1, shared: false }, 1000);
        const pooled = await erode(width, depth, batches, pool, frame);
        expect(pooled.backend).toEqual({ workers: pool.workers, shared: pool.shared });
        expect(pooled.fingerprint).toBe(single.fingerprint);
        expect(pooled.counters).toEqual(single.counters);
        expect(pooled.maps).toEqual(single.maps);
    });

    it("gives the one-thread terrain on a tileable terrain (rivers wrap across the seam), both ways", async () => {
        const options = { ...ALL_OPERATORS, tileable: true, water: { enabled: false }, materials: { enabled: true, initialSoil: 0.2, hardness: 2 } };
        const batches = planCycles(width, width, options, 2);
        const single = await erode(width, width, batches, { workers: 1, shared: false }, 1000);
        for (const shared of [true, false]) {
            expect((await erode(width, width, batches, { workers: 2, shared }, 3)).fingerprint).toBe(single.fingerprint);
        }
    });

    it("erodes a written state as it eroded the first, in the grids its helpers already share", async () => {
        const batches = planCycles(width, depth, { patchSize: 16, hydraulic: { dropletsPerBatch: 64 }, rivers: { enabled: true, stepsPerBatch: 6 } }, 1);
        const start = createInitialState(width, depth, heightsToFixed(generateNoiseTerrain({ width, depth, relief: 20, seed: 11 })));
        const backend = await CpuErosionBackend.create(start, false, { workers: 2, shared: true });
        try {
            const runs: string[] = [];
            for (let run = 0; run < 2; run++) {
                await backend.writeState(start);
                await backend.runFrame(batches, null);
                runs.push(fingerprintOf(await backend.readState(1, 0)));
            }
            expect(runs[1]).toBe(runs[0]);
        } finally {
            backend.dispose();
        }
        // The runner writes a state into the grids it holds (a new grid would have to be shared and sent to every helper again).
        const runner = new CpuBatchRunner(createInitialState(width, depth, start.heights.slice()));
        const heights = runner.state.heights;
        runner.replaceState(start);
        expect(runner.state.heights).toBe(heights);
        expect(Array.from(runner.state.heights)).toEqual(Array.from(start.heights));
        expect(runner.state.heights).not.toBe(start.heights);
        expect(runner.state.counters).not.toBe(start.counters);
        // Water too: into the runner's water grids where it has them, a copy where it has none.
        const wet = { ...start, water: createWaterGrids(width * depth) };
        wet.water.waterDepth.fill(7);
        const withWater = new CpuBatchRunner({ ...createInitialState(width, depth, start.heights.slice()), water: createWaterGrids(width * depth) });
        const ownDepth = withWater.state.water!.waterDepth;
        withWater.replaceState(wet);
        expect(withWater.state.water!.waterDepth).toBe(ownDepth);
        expect(withWater.state.water!.waterDepth[5]).toBe(7);
        runner.replaceState(wet);
        expect(runner.state.water!.waterDepth[5]).toBe(7);
        expect(runner.state.water!.waterDepth).not.toBe(wet.water.waterDepth);
    });

    it("fails a frame with a clear error when a helper is lost, and does not hang", async () => {
        const batches = planCycles(width, depth, ALL_OPERATORS, 1);
        const heights = heightsToFixed(generateNoiseTerrain({ width, depth, relief: 20, seed: 11 }));
        const spawn = nodeSpawner(CPU_WORKER_SOURCE)!;
        let helper: PoolPort | null = null;
        const pool = CpuPool.create(new CpuBatchRunner(createInitialState(width, depth, heights)), {
            members: 2,
            shared: true,
            spawn: () => (helper = spawn()),
        })!;
        try {
            await pool.runBatches(batches.slice(0, 20));
            helper!.terminate();
            await expect(pool.runBatches(batches.slice(20))).rejects.toThrow(/CPU erosion pool worker: a CPU erosion pool worker exited/);
        } finally {
            pool.dispose();
        }
    });
});
