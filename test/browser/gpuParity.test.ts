/**
 * GPU parity in real WebGPU: the plugin's own ComputeShader wrappers on Babylon's WebGPUEngine in
 * headless Chromium (SwiftShader) against the CPU reference, over the whole state.
 */
import { readFileSync } from "node:fs";
import { type MaskName, CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { regionChecksums } from "../../plugin/lockstep.js";
import { decodeGrayPng, samplesToHeights, generateNoiseTerrain } from "../../plugin/terrain.js";
import { type ErosionMasks, MASK_NAMES, noMasks, HEIGHT_MAX_METRES, HEIGHT_MIN_METRES, STATE_GRIDS, type ErosionStateData, type WaterGrids } from "../../plugin/advanced.js";
import { decodeInt32, encodeInt32 } from "../helpers/base64.js";
import { openTestPage, type OpenPage } from "../helpers/browser.js";
import { firstDifference } from "../helpers/stateDiff.js";
import type { GpuRunRequest, GpuRunResult } from "./pages/gpuParity.js";

interface ParityCase {
    name: string;
    width: number;
    depth: number;
    relief: number;
    base?: number;
    /** Take the heights from a crop of the real Mont Blanc DEM instead of noise. */
    montBlanc?: boolean;
    /** The grid's cell size in metres (default 1). */
    cellSize?: number;
    /** Heights in metres at (x, y), instead of noise. */
    shape?: (x: number, y: number) => number;
    /** Masks to run with. */
    masks?: (width: number, depth: number) => ErosionMasks;
    /** erodeAt events (grid cells), queued after a batch. */
    events?: { afterBatch: number; x: number; y: number; radius: number; droplets: number }[];
    /** Ground edits (grid cells, fixed-point heights), stamped after a batch. */
    edits?: GpuRunRequest["edits"];
    /** Masks set after a batch (from the next cycle boundary). */
    maskChanges?: { afterBatch: number; name: MaskName; values: (width: number, depth: number) => Int32Array }[];
    options: ErosionOptionsInput;
    /** Batches to run. */
    batches: number;
}

/** A soil map (`setMask("soil")`): bands of none, some and all of the starting soil, and a ramp between. */
function soilMap(width: number, depth: number): Int32Array {
    return Int32Array.from({ length: width * depth }, (_, i) => [0, 20000, 65536, Math.round(((i % width) / (width - 1)) * 65536)][Math.floor(i / width) % 4]);
}

const CASES: ParityCase[] = [
    { name: "non-square 97 x 61 grid (sides not multiples of the workgroup), brush 3", width: 97, depth: 61, relief: 80, options: { patchSize: 32, seed: 11, hydraulic: { dropletsPerBatch: 600, brushRadius: 3 } }, batches: 24 },
    { name: "brush radius 0, inertia 0, 4-neighbour open thermal", width: 70, depth: 70, relief: 120, options: { patchSize: 40, hydraulic: { dropletsPerBatch: 800, brushRadius: 0, inertia: 0 }, thermal: { neighbours: 4, boundary: "open", talus: 0.2 } }, batches: 16 },
    { name: "inertia 0.9, brush 3, 8-neighbour closed thermal", width: 64, depth: 80, relief: 60, options: { patchSize: 48, hydraulic: { dropletsPerBatch: 700, inertia: 0.9 }, thermal: { neighbours: 8, talus: 0.1, iterations: 3 } }, batches: 12 },
    { name: "thermal only, 4 neighbours, steep noise", width: 50, depth: 45, relief: 200, options: { patchSize: 16, hydraulic: { enabled: false }, thermal: { neighbours: 4, talus: 0.5, rate: 1 } }, batches: 30 },
    { name: "real-mountain relief (an 81 x 81 crop of the Mont Blanc DEM, 93 m cells), carry at end of walk", width: 81, depth: 81, relief: 0, montBlanc: true, cellSize: 60000 / 646, options: { patchSize: 40, seed: 3, hydraulic: { dropletsPerBatch: 500, brushRadius: 2, endOfWalk: "carry", gravity: 10, capacity: 8 }, thermal: { talus: 0.45 } }, batches: 12 },
    { name: "featureSize on half-metre cells (brush, walk and thermal steps scaled by 3)", width: 58, depth: 49, relief: 12, cellSize: 0.5, options: { patchSize: 24, seed: 5, featureSize: 1.5, hydraulic: { dropletsPerBatch: 300, maxSteps: 16, brushRadius: 1 }, thermal: { iterations: 1 } }, batches: 8 },
    { name: "extreme: heights at both limits of the fixed-point range, open thermal", width: 24, depth: 24, relief: 0, shape: (x, y) => ((x + y) % 2 === 0 ? HEIGHT_MAX_METRES : HEIGHT_MIN_METRES), options: { patchSize: 16, hydraulic: { dropletsPerBatch: 200 }, thermal: { boundary: "open" } }, batches: 12 },
    { name: "extreme: a 2 x 2 field", width: 2, depth: 2, relief: 0, shape: (x, y) => 3 - x - 2 * y, options: { patchSize: 8, hydraulic: { dropletsPerBatch: 50 } }, batches: 6 },
    { name: "extreme: a thin 2 x 60 field", width: 2, depth: 60, relief: 0, shape: (x, y) => 60 - y + x * 0.5, options: { patchSize: 16, hydraulic: { dropletsPerBatch: 100 } }, batches: 16 },
    { name: "rivers with droplets and thermal: strong erosion, deposition and uplift", width: 57, depth: 45, relief: 40, options: { patchSize: 24, seed: 6, hydraulic: { dropletsPerBatch: 300 }, rivers: { erosion: 0.5, capacity: 0.2, deposition: 0.8, uplift: 0.01, stepsPerBatch: 6 } }, batches: 27 },
    { name: "rivers on a tileable terrain, wrapping across the seam, an odd number of area steps (droplets and thermal too: tile_seam after every class), a crater across the seam", width: 40, depth: 33, relief: 30, options: { patchSize: 16, tileable: true, hydraulic: { dropletsPerBatch: 200 }, rivers: { erosion: 0.2, stepsPerBatch: 11 } }, batches: 30, edits: [{ afterBatch: 7, request: { kind: "crater", depth: 2 * 65536 }, points: [{ x: 1, y: 31 }], radius: 4 }] },
    { name: "rivers only on a tileable terrain whose patch covers the whole torus", width: 17, depth: 17, relief: 20, options: { patchSize: 16, tileable: true, hydraulic: { enabled: false }, thermal: { enabled: false }, rivers: { erosion: 1, stepsPerBatch: 20 } }, batches: 6 },
    { name: "rivers only on a hand-built V valley falling toward +y", width: 33, depth: 29, relief: 0, shape: (x, y) => Math.abs(x - 16) * 2 + (28 - y) * 0.5, options: { patchSize: 16, hydraulic: { enabled: false }, thermal: { enabled: false }, rivers: { erosion: 0.1 } }, batches: 18 },
    { name: "rivers only on a cone with a crater (a basin to fill and spill), largest erosion", width: 31, depth: 31, relief: 0, shape: (x, y) => { const r = Math.hypot(x - 15, y - 15); return 40 - r * 2 + (r < 4 ? -12 + r * 2 : 0); }, options: { patchSize: 16, hydraulic: { enabled: false }, thermal: { enabled: false }, rivers: { erosion: 10, capacity: 0.05 } }, batches: 18 },
    {
        name: "masks on all four (a gradient, a band of zeros, a checkerboard, an uplift ramp)",
        width: 61,
        depth: 47,
        relief: 35,
        options: { patchSize: 24, seed: 8, hydraulic: { dropletsPerBatch: 400 }, rivers: { erosion: 0.1, uplift: 0.02 }, thermal: { talus: 0.2 } },
        batches: 24,
        masks: (width, depth) => ({
            hydraulic: Int32Array.from({ length: width * depth }, (_, i) => Math.round(((i % width) / (width - 1)) * 65536)),
            thermal: Int32Array.from({ length: width * depth }, (_, i) => (Math.floor(i / width) > 15 && Math.floor(i / width) < 25 ? 0 : 65536)),
            rivers: Int32Array.from({ length: width * depth }, (_, i) => (((i % width) + Math.floor(i / width)) % 2 === 0 ? 65536 : 20000)),
            uplift: Int32Array.from({ length: width * depth }, (_, i) => Math.round((Math.floor(i / width) / (depth - 1)) * 65536)),
            rain: null,
            hardness: null,
            soil: null,
        }),
    },
    {
        name: "ground edits stamped mid-cycle: a crater, a canal along a path, a pile over the edge, a flatten, a polygon, a dig and a crater kept as sediment, with rivers and thermal",
        width: 60,
        depth: 52,
        relief: 30,
        options: { patchSize: 24, seed: 21, hydraulic: { dropletsPerBatch: 200 }, rivers: { erosion: 0.2 }, thermal: { talus: 0.3 } },
        batches: 26,
        edits: [
            { afterBatch: 0, request: { kind: "crater", depth: 4 * 65536, rim: true }, points: [{ x: 30.5, y: 20.25 }], radius: 6 },
            { afterBatch: 3, request: { kind: "dig", depth: 3 * 65536 }, points: [{ x: 2, y: 40 }, { x: 30, y: 44 }, { x: 58, y: 30 }], radius: 2.5 },
            { afterBatch: 3, request: { kind: "pile", height: 5 * 65536 }, points: [{ x: 59, y: 2 }], radius: 7 },
            { afterBatch: 11, request: { kind: "flatten", target: 12 * 65536, edge: 0.4 }, points: [{ x: 12, y: 12 }], radius: 8 },
            { afterBatch: 14, request: { kind: "flatten", target: 9 * 65536, area: true }, points: [{ x: 40, y: 30 }, { x: 52, y: 34 }, { x: 44, y: 46 }], radius: 2 },
            { afterBatch: 17, request: { kind: "dig", depth: 2 * 65536, sediment: true }, points: [{ x: 20, y: 30 }], radius: 4 },
            { afterBatch: 17, request: { kind: "crater", depth: 3 * 65536, rim: false, sediment: true }, points: [{ x: 45, y: 10 }], radius: 5 },
        ],
    },
    { name: "erodeAt events: discs inside, across the edge, and queued mid-cycle", width: 66, depth: 50, relief: 30, options: { patchSize: 32, seed: 12, hydraulic: { dropletsPerBatch: 200 } }, batches: 20, events: [{ afterBatch: 0, x: 30.5, y: 20.25, radius: 6, droplets: 500 }, { afterBatch: 0, x: 2, y: 47, radius: 8, droplets: 400 }, { afterBatch: 5, x: 50, y: 10, radius: 3.5, droplets: 200 }] },
    {
        name: "materials: soil at its own angle over dipping strata of hard and soft rock (some beds below the base), a hardness map, initial soil by a soil map, weathering, rivers with uplift under an uplift map, a pile and a dig",
        width: 49,
        depth: 41,
        relief: 30,
        options: { patchSize: 24, seed: 6, hydraulic: { dropletsPerBatch: 120 }, rivers: { erosion: 0.5, capacity: 0.2, uplift: 0.01, stepsPerBatch: 6 }, thermal: { talus: 0.6, iterations: 3 }, materials: { enabled: true, soilTalus: 0.3, hardness: 1.5, initialSoil: 0.4, strataThickness: 1.25, strataHardness: 25, strataShare: 0.4, strataSeed: 77, strataBase: -4, strataBeds: 12, strataDip: 0.2, strataDipDirection: 130, hardnessMapScale: 7.5, weathering: 0.05, soilDepth: 0.7 } },
        batches: 12,
        masks: (width, depth) => ({ ...noMasks(), uplift: Int32Array.from({ length: width * depth }, (_, i) => Math.round(((i % width) / (width - 1)) * 65536)), hardness: Int32Array.from({ length: width * depth }, (_, i) => Math.round((Math.floor(i / width) / (depth - 1)) * 65536)), soil: soilMap(width, depth) }),
        edits: [
            { afterBatch: 2, request: { kind: "pile", height: 3 * 65536 }, points: [{ x: 20, y: 20 }], radius: 5 },
            { afterBatch: 9, request: { kind: "dig", depth: 2 * 65536 }, points: [{ x: 40, y: 10 }, { x: 44, y: 30 }], radius: 2 },
        ],
    },
    { name: "materials on a tileable terrain with the shallow water (the seam and the water's apply keep the soil), soil from a soil map and slope at the start, the channel rule handing slopes' debris to the rivers (channelSoil off)", width: 40, depth: 33, relief: 30, masks: (width, depth) => ({ ...noMasks(), soil: soilMap(width, depth) }), options: { patchSize: 16, tileable: true, hydraulic: { dropletsPerBatch: 200 }, rivers: { erosion: 0.2, stepsPerBatch: 5, channelArea: 6 }, water: { enabled: true, stepsPerCycle: 2, rain: 0.01 }, materials: { enabled: true, hardness: 3, initialSoil: 0.2, initialSoilSlope: 1.5, channelSoil: false } }, batches: 24 },
    {
        name: "materials: rock placed by a pile and a flatten, a pile of soil, under dipping strata, droplets, rivers and thermal; a hardness map set after them (its factors written around the placed rock)",
        width: 40,
        depth: 33,
        relief: 20,
        options: { patchSize: 16, seed: 4, hydraulic: { dropletsPerBatch: 150 }, rivers: { erosion: 0.3, stepsPerBatch: 6 }, thermal: { talus: 0.5, iterations: 3 }, materials: { enabled: true, soilTalus: 0.3, initialSoil: 0.3, strataThickness: 1.5, strataShare: 0.5, strataDip: 0.1, hardnessMapScale: 6 } },
        batches: 48,
        edits: [
            { afterBatch: 2, request: { kind: "pile", height: 3 * 65536, rock: 40 }, points: [{ x: 12, y: 12 }, { x: 26, y: 18 }], radius: 3 },
            { afterBatch: 3, request: { kind: "pile", height: 2 * 65536 }, points: [{ x: 30, y: 8 }], radius: 4 },
            { afterBatch: 4, request: { kind: "flatten", target: 12 * 65536, edge: 0.2, rock: 6 }, points: [{ x: 10, y: 26 }], radius: 5 },
        ],
        maskChanges: [{ afterBatch: 10, name: "hardness", values: (width, depth) => Int32Array.from({ length: width * depth }, (_, i) => Math.round(((i % width) / (width - 1)) * 65536)) }],
    },
    { name: "a run of many batches (160: 16 patches x 3 operators a cycle)", width: 65, depth: 65, relief: 50, options: { patchSize: 16, seed: 99, hydraulic: { dropletsPerBatch: 200, maxSteps: 24 }, thermal: { talus: 0.3 } }, batches: 160 },
];

describe("WGSL kernels through Babylon ComputeShaders equal the CPU reference bit for bit", () => {
    let browser: OpenPage;
    let montBlanc: Float32Array;
    const runOnGpu = async (request: GpuRunRequest) => (await browser.page.evaluate((r) => (window as unknown as { runGpuBatches(r: GpuRunRequest): Promise<GpuRunResult> }).runGpuBatches(r), request)) as GpuRunResult;
    const stateOf = (result: GpuRunResult, width: number, depth: number) => {
        const state = { width, depth, cycle: result.cycle, batch: result.batch, masks: noMasks(), counters: Float64Array.from(result.counters) } as ErosionStateData;
        for (const grid of STATE_GRIDS) state[grid] = decodeInt32(result.grids[grid]);
        // The water's grids, where water ran or an edit kept its material as the water's sediment.
        state.water = result.water ? (Object.fromEntries(Object.entries(result.water).map(([grid, encoded]) => [grid, decodeInt32(encoded)])) as unknown as WaterGrids) : null;
        state.materials = result.materials ? { soil: decodeInt32(result.materials.soil), hardness: decodeInt32(result.materials.hardness) } : null;
        return state;
    };

    beforeAll(async () => {
        const image = await decodeGrayPng(readFileSync("sample-scene/public/alps-montblanc.png"));
        // The crop around the summit: rows and columns 280..360 of the 647 x 647 DEM.
        const crop = new Uint16Array(81 * 81);
        for (let y = 0; y < 81; y++) for (let x = 0; x < 81; x++) crop[y * 81 + x] = image.samples[(280 + y) * image.width + 280 + x];
        montBlanc = samplesToHeights(crop, { min: 454, max: 4810 });
        browser = await openTestPage("gpuParity");
    });

    afterAll(async () => {
        await browser?.close();
    });

    it.each(CASES)("$name", async (testCase) => {
        const metres = testCase.shape
            ? Float64Array.from({ length: testCase.width * testCase.depth }, (_, i) => testCase.shape!(i % testCase.width, Math.floor(i / testCase.width)))
            : testCase.montBlanc
              ? montBlanc.slice()
              : generateNoiseTerrain({ width: testCase.width, depth: testCase.depth, relief: testCase.relief, seed: testCase.width * 7 + testCase.depth });
        if (testCase.base) {
            for (let i = 0; i < metres.length; i++) metres[i] += testCase.base;
        }
        const cellSize = testCase.cellSize ?? 1;
        const fixed = heightsToFixed(metres, "heights", undefined, cellSize);
        const masks = testCase.masks?.(testCase.width, testCase.depth);
        const encodeMask = (mask: Int32Array | null | undefined) => (mask ? encodeInt32(mask) : null);
        const request: GpuRunRequest = { width: testCase.width, depth: testCase.depth, heights: encodeInt32(fixed), cellSize, options: testCase.options, batches: testCase.batches, masks: masks ? (Object.fromEntries(MASK_NAMES.map((name) => [name, encodeMask(masks[name])])) as Record<MaskName, string | null>) : null, events: testCase.events, edits: testCase.edits, maskChanges: testCase.maskChanges?.map((change) => ({ afterBatch: change.afterBatch, name: change.name, values: encodeInt32(change.values(testCase.width, testCase.depth)) })) };
        const result = await runOnGpu(request);
        const gpuState = stateOf(result, testCase.width, testCase.depth);

        const cpu = new CpuErosionSimulation(testCase.width, testCase.depth, fixed, resolveOptions(testCase.options), cellSize);
        if (masks) cpu.setMasks(masks);
        // An edit applies at once on the CPU simulation; the page plans it as one of its batches.
        let editsApplied = 0;
        for (let i = 0; i < testCase.batches; i++) {
            for (const event of testCase.events ?? []) if (event.afterBatch === i) cpu.erodeAt(event.x, event.y, event.radius, { droplets: event.droplets });
            for (const edit of testCase.edits ?? []) if (edit.afterBatch === i) (cpu.edit(edit.request, edit.points, edit.radius), editsApplied++);
            for (const change of testCase.maskChanges ?? []) if (change.afterBatch === i) cpu.setMasks({ ...cpu.schedule.latestMasks, [change.name]: change.values(testCase.width, testCase.depth) });
            if (editsApplied > 0) editsApplied--;
            else cpu.runBatch();
        }

        expect(result.adapter.length).toBeGreaterThan(0);
        // The materials and the water ran where the options turn them on (so their grids were compared).
        expect(gpuState.materials !== null).toBe(testCase.options.materials?.enabled === true);
        if (testCase.options.water?.enabled) expect(gpuState.water).not.toBeNull();
        expect(firstDifference(gpuState, cpu.getState())).toBeNull();
        // The region checksums the kernels compute are the CPU reference's, lane for lane.
        expect(Array.from(new Uint32Array(decodeInt32(result.checksums).buffer))).toEqual(Array.from(regionChecksums(cpu.getState(), 8).lanes));
        // The erosion maps match too.
        for (const map of ["water", "wear", "deposition"] as const) {
            expect(Array.from(new Uint32Array(decodeInt32(result.maps[map]).buffer))).toEqual(Array.from(cpu.maps[map]));
        }
        // The run really eroded something.
        let changed = 0;
        for (let i = 0; i < fixed.length; i++) if (gpuState.heights[i] !== fixed[i]) changed++;
        expect(changed).toBeGreaterThan(testCase.shape ? 0 : fixed.length / 20);
        expect(browser.errors).toEqual([]);
    });

    it.each([
        { name: "129 x 129, patches of 16 (droplet classes of four patches, thermal classes of sixteen)", width: 129, depth: 129, tileable: false },
        { name: "tileable 97 x 97 (classes kept apart across the seam too)", width: 97, depth: 97, tileable: true },
    ])("gives the CPU's terrain when a class's batches share their dispatches, and one at a time in reverse: $name", async (testCase) => {
        const options = { patchSize: 16, seed: 4, tileable: testCase.tileable, hydraulic: { dropletsPerBatch: 100, maxSteps: 8 }, thermal: { talus: 0.4 } };
        const fixed = heightsToFixed(generateNoiseTerrain({ width: testCase.width, depth: testCase.depth, relief: 30, seed: 3 }));
        const cpu = new CpuErosionSimulation(testCase.width, testCase.depth, fixed, resolveOptions(options));
        const units = cpu.schedule.units;
        const largestClass = Math.max(...units.map((unit) => units.filter((other) => other.group === unit.group).length));
        expect(largestClass).toBeGreaterThanOrEqual(4);
        const batches = 2 * cpu.schedule.batchesPerCycle + 5;
        for (let i = 0; i < batches; i++) cpu.runBatch();
        for (const mode of ["class", "reverse"] as const) {
            const result = await runOnGpu({ width: testCase.width, depth: testCase.depth, heights: encodeInt32(fixed), cellSize: 1, options, batches, masks: null, mode });
            expect({ mode, difference: firstDifference(stateOf(result, testCase.width, testCase.depth), cpu.getState()) }).toEqual({ mode, difference: null });
        }
        expect(browser.errors).toEqual([]);
    });

    it.each(CASES.filter((testCase) => !testCase.shape && !testCase.masks && !testCase.edits && !testCase.events && !testCase.montBlanc && !testCase.options.materials && testCase.batches <= 30))("gives the CPU's terrain with each river and droplet batch in pieces (droplets in ranges of a workgroup's 64, costly passes in bands of a workgroup's 8 rows, cheap ones together, three pieces a submission): $name", async (testCase) => {
        const fixed = heightsToFixed(generateNoiseTerrain({ width: testCase.width, depth: testCase.depth, relief: testCase.relief, seed: 3 }));
        const cpu = new CpuErosionSimulation(testCase.width, testCase.depth, fixed, resolveOptions(testCase.options));
        for (let i = 0; i < testCase.batches; i++) cpu.runBatch();
        const result = await runOnGpu({ width: testCase.width, depth: testCase.depth, heights: encodeInt32(fixed), cellSize: 1, options: testCase.options, batches: testCase.batches, masks: null, mode: "pieces" });
        expect(firstDifference(stateOf(result, testCase.width, testCase.depth), cpu.getState())).toBeNull();
        expect(browser.errors).toEqual([]);
    });
});
