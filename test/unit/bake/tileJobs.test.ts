/**
 * The tile jobs a queued bake sends (`plugin/bake/queue/`), without Redis: every step's jobs encoded,
 * run from their bytes alone, each on grids the size of its box, in reverse order on two workbenches
 * that keep stale cells from earlier jobs, and applied back, give the one-machine terrain, maps and
 * counters for every operator, on plain and tileable terrains, with a water source. The queue itself: test/soak/queueBake.test.ts.
 */
import { erodeHeightfield, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createInitialState, fingerprintOf, toFixedHeights, type WaterSource } from "../../../plugin/advanced.js";
import { bakeStart, cpuBakeDevice, decodeTileBlob, encodeTileBlob, LocalTileTransport, runBake, TileBlobError, TiledBakeDevice, TileWorkbench, type StepTransport } from "../../../plugin/internal.js";

/** Runs the jobs last to first, alternating between two workbenches. */
function inProcess(): StepTransport & { jobs: number } {
    const benches = [new TileWorkbench(), new TileWorkbench()];
    const transport = {
        description: "in process",
        jobs: 0,
        async runStep(_step: unknown, jobs: readonly { tile: number }[], input: (job: never) => Uint8Array, output: (index: number, bytes: Uint8Array) => void) {
            const inputs = jobs.map((job) => input(job as never));
            for (let k = jobs.length - 1; k >= 0; k--) output(k, benches[k % 2].run(inputs[k], `tile ${jobs[k].tile}`));
            transport.jobs += jobs.length;
        },
        close: async () => undefined,
    };
    return transport as StepTransport & { jobs: number };
}

/** Bakes `size`² noise tiled in process (or on `threads` local threads, rivers in windows), or with `tilesPerSide` null on the CPU backend in this thread. */
async function bakeNoise(size: number, options: ErosionOptionsInput, cycles: number, tilesPerSide: number | null, sources: WaterSource[] = [], threads = 0, hardnessMap: Int32Array | null = null) {
    const heights = generateNoiseTerrain({ width: size, depth: size, relief: 30, seed: 5 });
    const state = createInitialState(size, size, toFixedHeights(heights, 1));
    state.sources = { inForce: sources, pending: null };
    state.masks.hardness = hardnessMap;
    const transport = threads > 0 ? Object.assign(new LocalTileTransport(threads), { jobs: 0 }) : inProcess();
    // Aprons of 2 x 8 + 6 + 2 = 24 rows, so bands of 48 rows: two windows over 65 rows.
    const settings = threads > 0 ? { riverWindows: true, riverWindowVertices: size * 64 } : {};
    const device = tilesPerSide === null ? await cpuBakeDevice(state, 1) : new TiledBakeDevice(state, tilesPerSide, transport, settings);
    const result = await runBake({ start: bakeStart(state), options: resolveOptions(options), cellSize: 1, cycles, device });
    device.dispose();
    return { fingerprint: fingerprintOf(result.state), maps: result.maps, counters: result.state.counters, jobs: transport.jobs };
}

const CASES: [string, ErosionOptionsInput][] = [
    ["droplets, rivers and thermal (the defaults, small patches)", { patchSize: 16, hydraulic: { dropletsPerBatch: 64 }, rivers: { stepsPerBatch: 8 } }],
    ["a tileable terrain", { patchSize: 16, tileable: true, hydraulic: { dropletsPerBatch: 64 }, rivers: { stepsPerBatch: 8 } }],
    ["shallow water and thermal", { patchSize: 16, hydraulic: { enabled: false }, rivers: { enabled: false }, water: { enabled: true, stepsPerCycle: 2 } }],
];

describe("tile jobs", () => {
    it.each(CASES)("give the one-machine terrain, maps and counters: %s", async (_name, options) => {
        const size = 65;
        const reference = await bakeNoise(size, options, 2, null);
        expect(reference.fingerprint).toBe(erodeHeightfield(generateNoiseTerrain({ width: size, depth: size, relief: 30, seed: 5 }), size, size, options, 2, 1).fingerprint);
        const tiled = await bakeNoise(size, options, 2, 4);
        expect(tiled.jobs).toBeGreaterThan(16);
        expect(tiled.fingerprint).toBe(reference.fingerprint);
        expect(tiled.counters).toEqual(reference.counters);
        expect(tiled.maps.wear.some((value) => value > 0)).toBe(true);
        expect(tiled.maps).toEqual(reference.maps);
    });

    it.each(CASES)("run on local threads, rivers in windows of rows, to the one-machine terrain, maps and counters: %s", async (_name, options) => {
        const reference = await bakeNoise(65, options, 2, null);
        const tiled = await bakeNoise(65, options, 2, 3, [], 2);
        expect(tiled.fingerprint).toBe(reference.fingerprint);
        expect(tiled.counters).toEqual(reference.counters);
        expect(tiled.maps).toEqual(reference.maps);
    });

    it("give the one-machine terrain with a spring feeding the shallow water (sources moved into each job's box)", async () => {
        const options = { patchSize: 16, hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false }, water: { enabled: true, stepsPerCycle: 2 } };
        const spring: WaterSource = { id: 1, column: 40, row: 22, radius: 2, rate: 40 * 65536 };
        const reference = await bakeNoise(65, options, 2, null, [spring]);
        const tiled = await bakeNoise(65, options, 2, 4, [spring]);
        expect(tiled.fingerprint).toBe(reference.fingerprint);
        expect(tiled.fingerprint).not.toBe((await bakeNoise(65, options, 2, null)).fingerprint); // the spring counts
    });

    it("carry rock and soil: dipping strata, soil from slope, weathering and a hardness map, tiled in process and on threads with the rivers in windows", async () => {
        const materials = { enabled: true, hardness: 2, soilTalus: 0.5, initialSoil: 0.5, initialSoilSlope: 1, weathering: 0.05, strataThickness: 1.5, strataShare: 0.5, strataDip: 0.3, strataDipDirection: 60 };
        const options = { patchSize: 16, hydraulic: { dropletsPerBatch: 64 }, rivers: { stepsPerBatch: 8 }, materials };
        // Harder toward the east: the map's grid is made on the coordinator and travels with the jobs.
        const hardnessMap = Int32Array.from({ length: 65 * 65 }, (_, i) => (i % 65) * 1000);
        const reference = await bakeNoise(65, options, 2, null, [], 0, hardnessMap);
        expect(reference.fingerprint).not.toBe((await bakeNoise(65, options, 2, null)).fingerprint); // the map counts
        const tiled = await bakeNoise(65, options, 2, 4, [], 0, hardnessMap);
        expect(tiled.fingerprint).toBe(reference.fingerprint);
        expect(tiled.counters).toEqual(reference.counters);
        const threaded = await bakeNoise(65, options, 2, 3, [], 2, hardnessMap);
        expect(threaded.fingerprint).toBe(reference.fingerprint);
        expect(threaded.maps).toEqual(reference.maps);
    });

    it("reject a truncated blob with a clear error", () => {
        const bytes = encodeTileBlob({ tile: 3 }, [Int32Array.of(1, 2, 3), Int32Array.of(-4)]);
        expect(decodeTileBlob<{ tile: number }>(bytes, "x").sections.map((s) => Array.from(s))).toEqual([[1, 2, 3], [-4]]);
        expect(() => decodeTileBlob(bytes.subarray(0, bytes.length - 4), "the output of tile 3")).toThrow(TileBlobError);
        expect(() => decodeTileBlob(bytes.subarray(0, bytes.length - 4), "the output of tile 3")).toThrow(/the output of tile 3 is truncated/);
    });
});
