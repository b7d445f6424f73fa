/**
 * What the TerrainErosion component gives out on Babylon's WebGPUEngine in headless Chromium
 * (SwiftShader), on one page: its frame-cost measurement, the maps texture and the shallow water's
 * texture. The component's terrain and frames: componentWebgpu.test.ts.
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { encodeInt32 } from "../helpers/base64.js";
import { openTestPage, type OpenPage } from "../helpers/browser.js";

let browser: OpenPage;

beforeAll(async () => {
    browser = await openTestPage("componentWebgpu");
});

afterAll(async () => {
    await browser?.close();
});

describe("frame cost measurement on WebGPU", () => {
    it("uses GPU timestamp queries when the device has them, and submit-to-done otherwise", async () => {
        const heights = heightsToFixed(generateNoiseTerrain({ width: 33, depth: 33, relief: 10 }));
        const result = await browser.page.evaluate((r) => (window as any).frameTiming(r), { width: 33, depth: 33, heights: encodeInt32(heights), options: { patchSize: 16, hydraulic: { dropletsPerBatch: 64 } }, cycles: 1 });
        expect(result.plain.features).toBe(false);
        expect(result.plain.measuredBy).toBe("submitted");
        expect(result.timed.features).toBe(true);
        expect(result.timed.measuredBy).toBe("timestamp");
        expect(result.timed.measuredMs).toBeGreaterThan(0);
        expect(browser.errors).toEqual([]);
    });
});

describe("erosion maps texture on WebGPU", () => {
    it("holds, per vertex and with no readback, the water, wear, deposition and drainage-direction maps, and the drainage area in its own texture (each frame writing its changed rows only)", async () => {
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
    });
});

describe("shallow water on WebGPU", () => {
    it("equals the CPU reference with rain and a spring, and writes depth, velocity and surface into the shallowWater texture, at a cycle boundary and inside a step", async () => {
        const width = 37;
        const depth = 29;
        const options: ErosionOptionsInput = { patchSize: 16, hydraulic: { dropletsPerBatch: 60 }, water: { enabled: true, rain: 0.01, stepsPerCycle: 3 } };
        const heights = heightsToFixed(generateNoiseTerrain({ width, depth, relief: 10, seed: 9 }));
        // 3 x 2 patches, so a water pass is 6 batches: the second step's flux pass done and its scale
        // pass half done (the pipes raw, the depth the first step's).
        const midStep = { cycle: 2, batch: 7 * 6 + 6 + 3 };
        const result = await browser.page.evaluate((r) => (window as any).shallowWaterTexture(r), { width, depth, heights: encodeInt32(heights), options, cycles: 2, midStep });
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
        // Inside a step: the GPU's state is the CPU's at that batch, the texture is what readMaps
        // says (the velocity the first step's depth pass left), and no velocity passes a cell a step.
        for (let batch = 0; batch < midStep.batch; batch++) reference.runBatch();
        expect(reference.stamp).toEqual(midStep);
        expect(result.mid.fingerprint).toBe(reference.fingerprint());
        const cellSize = 1;
        let fastest = 0;
        for (let i = 0; i < width * depth; i++) {
            expect(result.mid.pixels[i * 4]).toBeCloseTo(result.mid.depth[i], 5);
            expect(result.mid.pixels[i * 4 + 1]).toBeCloseTo(result.mid.velocity[i * 2], 4);
            expect(result.mid.pixels[i * 4 + 2]).toBeCloseTo(result.mid.velocity[i * 2 + 1], 4);
            expect(result.mid.pixels[i * 4 + 3]).toBeCloseTo(result.mid.heights[i] + result.mid.depth[i], 3);
            fastest = Math.max(fastest, Math.abs(result.mid.pixels[i * 4 + 1]), Math.abs(result.mid.pixels[i * 4 + 2]));
        }
        expect(fastest).toBeGreaterThan(0.05 * cellSize);
        expect(fastest).toBeLessThanOrEqual(cellSize);
        expect(browser.errors).toEqual([]);
    });
});
