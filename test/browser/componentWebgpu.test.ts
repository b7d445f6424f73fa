/**
 * The TerrainErosion component on Babylon's WebGPUEngine in headless Chromium (SwiftShader).
 */
import { computeNormalRows, CpuErosionSimulation, erodeHeightfield, fixedToHeights, generateNoiseTerrain, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { encodeInt32 } from "../helpers/base64.js";
import { openTestPage, type OpenPage } from "../helpers/browser.js";

const WIDTH = 65;
const DEPTH = 49;
const CYCLES = 3;
const OPTIONS = { patchSize: 32, seed: 21, hydraulic: { dropletsPerBatch: 300, maxSteps: 40 }, thermal: { talus: 0.3 } };

interface ScenarioResult {
    framedFingerprint: string;
    bakedFingerprint: string;
    cpuFingerprint: string;
    backends: string[];
    maxBatchesInFrame: number;
    eroded: number[];
    gpuPositions: number[];
    gpuNormals: number[];
    cpuPositions: number[];
    probes: { x: number; z: number; height: number; expected: number }[];
    bakedAfterDetach: number[];
    buffers: { baseline: number; heldWhileAttached: number; afterDetach: number };
}

describe("TerrainErosion on WebGPU", () => {
    let browser: OpenPage;
    let result: ScenarioResult;
    const heights = heightsToFixed(generateNoiseTerrain({ width: WIDTH, depth: DEPTH, relief: 25, seed: 4 }));

    beforeAll(async () => {
        browser = await openTestPage("componentWebgpu");
        result = await browser.page.evaluate(
            (request) => (window as unknown as { framesVersusRunCycles(r: unknown): Promise<ScenarioResult> }).framesVersusRunCycles(request),
            { width: WIDTH, depth: DEPTH, heights: encodeInt32(heights), options: OPTIONS, cycles: CYCLES }
        );
    });

    afterAll(async () => {
        await browser?.close();
    });

    it("runs on the WebGPU backend, and the CPU backend in a Web Worker", () => {
        expect(result.backends).toEqual(["webgpu", "webgpu", "cpu", "true"]);
    });

    it("gives the same fingerprint one batch per frame, with runCycles, on the CPU backend and from the mesh-free entry point", () => {
        const reference = erodeHeightfield(heights, WIDTH, DEPTH, OPTIONS, CYCLES).fingerprint;
        expect(result.maxBatchesInFrame).toBe(1);
        expect(result.framedFingerprint).toBe(reference);
        expect(result.bakedFingerprint).toBe(reference);
        expect(result.cpuFingerprint).toBe(reference);
    });

    it.each(["webgpu", "cpu"] as const)("gives one fingerprint with frame budgets of 0.05, 1 and 50 ms on the %s backend, classes of several patches split over frames or not", async (backend) => {
        // Patches of 8 and short walks: the droplet and thermal classes hold several patches each.
        const options = { patchSize: 8, seed: 9, hydraulic: { dropletsPerBatch: 40, maxSteps: 6 }, thermal: { talus: 0.3 } };
        const cycles = 2;
        const runs = await browser.page.evaluate(
            (request) => (window as unknown as { budgets(r: unknown): Promise<{ budget: number; fingerprint: string; backend: string }[]> }).budgets(request),
            { width: WIDTH, depth: DEPTH, heights: encodeInt32(heights), options, cycles, budgets: [0.05, 1, 50], backend }
        );
        const reference = erodeHeightfield(heights, WIDTH, DEPTH, options, cycles).fingerprint;
        expect(runs.map((run) => [run.budget, run.backend, run.fingerprint])).toEqual([0.05, 1, 50].map((budget) => [budget, backend, reference]));
    });

    it("writes the eroded heights into the ground's own GPU vertex buffer and keeps the CPU copy in sync", () => {
        const expected = fixedToHeights(erodeHeightfield(heights, WIDTH, DEPTH, OPTIONS, CYCLES).fixedHeights);
        expect(result.eroded).toEqual(Array.from(expected));
        for (let i = 0; i < WIDTH * DEPTH; i++) {
            expect(result.gpuPositions[i * 3 + 1]).toBe(expected[i]);
            expect(result.cpuPositions[i * 3 + 1]).toBe(expected[i]);
        }
        expect(result.bakedAfterDetach).toEqual(Array.from(expected));
    });

    it("regenerates normals on the GPU within 1 degree of CPU central differences of the same heights", () => {
        const cpuNormals = new Float32Array(WIDTH * DEPTH * 3);
        computeNormalRows(Float32Array.from(result.gpuPositions), cpuNormals, WIDTH, DEPTH, 1, 0, DEPTH);
        let worst = 0;
        for (let i = 0; i < WIDTH * DEPTH; i++) {
            const dot = result.gpuNormals[i * 3] * cpuNormals[i * 3] + result.gpuNormals[i * 3 + 1] * cpuNormals[i * 3 + 1] + result.gpuNormals[i * 3 + 2] * cpuNormals[i * 3 + 2];
            worst = Math.max(worst, (Math.acos(Math.min(1, dot)) * 180) / Math.PI);
        }
        expect(worst).toBeLessThan(1);
    });

    it("answers getHeightAtCoordinates with the eroded heights", () => {
        for (const probe of result.probes) {
            expect(Math.abs(probe.height - probe.expected)).toBeLessThan(0.5);
        }
        // Off a vertex the query interpolates the eroded triangle, so compare at the vertex itself too.
        expect(result.probes.length).toBe(4);
    });

    it("releases every GPU buffer it created on detach, and logs no console errors", () => {
        expect(result.buffers.heldWhileAttached).toBeGreaterThan(result.buffers.baseline);
        expect(result.buffers.afterDetach).toBe(result.buffers.baseline);
        expect(browser.errors).toEqual([]);
    });
});

describe("frame cost measurement on WebGPU", () => {
    it("uses GPU timestamp queries when the device has them, and submit-to-done otherwise", async () => {
        const browser = await openTestPage("componentWebgpu");
        try {
            const heights = heightsToFixed(generateNoiseTerrain({ width: 33, depth: 33, relief: 10 }));
            const result = await browser.page.evaluate((r) => (window as any).frameTiming(r), { width: 33, depth: 33, heights: encodeInt32(heights), options: { patchSize: 16, hydraulic: { dropletsPerBatch: 64 } }, cycles: 1 });
            expect(result.plain.features).toBe(false);
            expect(result.plain.measuredBy).toBe("submitted");
            expect(result.timed.features).toBe(true);
            expect(result.timed.measuredBy).toBe("timestamp");
            expect(result.timed.measuredMs).toBeGreaterThan(0);
            expect(browser.errors).toEqual([]);
        } finally {
            await browser.close();
        }
    });
});

describe("erosion maps texture on WebGPU", () => {
    it("holds, per vertex and with no readback, the water, wear, deposition and drainage-direction maps, and the drainage area in its own texture", async () => {
        const browser = await openTestPage("componentWebgpu");
        try {
            const heights = heightsToFixed(generateNoiseTerrain({ width: 41, depth: 33, relief: 12, seed: 3 }));
            const result = await browser.page.evaluate((r) => (window as any).mapsTexture(r), { width: 41, depth: 33, heights: encodeInt32(heights), options: { patchSize: 16, hydraulic: { dropletsPerBatch: 100 }, rivers: { erosion: 0.1 } }, cycles: 2 });
            expect(result.size).toEqual({ width: 41, height: 33 });
            expect(result.wear.some((value: number) => value > 0)).toBe(true);
            for (let i = 0; i < 41 * 33; i++) {
                expect(result.pixels[i * 4]).toBe(result.water[i]);
                expect(result.pixels[i * 4 + 1]).toBeCloseTo(result.wear[i] / 65536, 4);
                expect(result.pixels[i * 4 + 2]).toBeCloseTo(result.deposition[i] / 65536, 4);
                expect(result.pixels[i * 4 + 3]).toBe(result.direction[i] === 255 ? -1 : result.direction[i]);
            }
            // The drainage area (cells, exact in f32 at these sizes) from getMapTexture("drainageArea").
            expect(result.areaSize).toEqual({ width: 41, height: 33 });
            expect(result.areaPixels.slice(0, 41 * 33)).toEqual(result.drainageArea);
            expect(Math.max(...result.drainageArea)).toBeGreaterThan(20);
            // After reset() the directions are those of the original heights, in the texture too.
            expect(result.directionAfterReset).not.toEqual(result.direction);
            for (let i = 0; i < 41 * 33; i++) {
                expect(result.pixelsAfterReset[i * 4 + 3]).toBe(result.directionAfterReset[i] === 255 ? -1 : result.directionAfterReset[i]);
            }
            expect(browser.errors).toEqual([]);
        } finally {
            await browser.close();
        }
    });
});

describe("shallow water on WebGPU", () => {
    it("equals the CPU reference with rain and a spring, and writes depth, velocity and surface into the shallowWater texture", async () => {
        const browser = await openTestPage("componentWebgpu");
        try {
            const width = 37;
            const depth = 29;
            const options: ErosionOptionsInput = { patchSize: 16, hydraulic: { dropletsPerBatch: 60 }, water: { enabled: true, rain: 0.01, stepsPerCycle: 3 } };
            const heights = heightsToFixed(generateNoiseTerrain({ width, depth, relief: 10, seed: 9 }));
            const result = await browser.page.evaluate((r) => (window as any).shallowWaterTexture(r), { width, depth, heights: encodeInt32(heights), options, cycles: 2 });
            // Before any water: depth 0 and the surface at the ground.
            for (let i = 0; i < width * depth; i++) {
                expect(result.dry[i * 4]).toBe(0);
                expect(result.dry[i * 4 + 3]).toBeCloseTo(result.heightsBefore[i], 4);
            }
            const reference = new CpuErosionSimulation(width, depth, heights, resolveOptions(options));
            // World (2, -3) on a ground centred at the origin: column 2 + 18, row 14 + 3 (row 0 is the far, +z, edge).
            reference.addWaterSource(20, 17, 2, 4);
            reference.runCycles(2);
            expect(result.fingerprint).toBe(reference.fingerprint());
            expect(Math.max(...result.depth)).toBeGreaterThan(0.01);
            for (let i = 0; i < width * depth; i++) {
                expect(result.pixels[i * 4]).toBeCloseTo(result.depth[i], 5);
                expect(result.pixels[i * 4 + 1]).toBeCloseTo(result.velocity[i * 2], 4);
                expect(result.pixels[i * 4 + 2]).toBeCloseTo(result.velocity[i * 2 + 1], 4);
                expect(result.pixels[i * 4 + 3]).toBeCloseTo(result.heights[i] + result.depth[i], 3);
            }
            expect(browser.errors).toEqual([]);
        } finally {
            await browser.close();
        }
    });
});
