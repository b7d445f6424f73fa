/**
 * TerrainErosionWorld on Babylon's WebGPUEngine in headless Chromium (SwiftShader): the stitched
 * field's fingerprint on both backends, and seams identical in the GPU vertex buffers during a run.
 */
import { erodeHeightfield } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { openTestPage, type OpenPage } from "../helpers/browser.js";

const REQUEST = {
    width: 61,
    depth: 33,
    terrainSeed: 8,
    tiles: { columns: [24, 16, 20], rows: [12, 20] },
    options: { patchSize: 16, seed: 3, hydraulic: { dropletsPerBatch: 120, maxSteps: 30 }, thermal: { talus: 0.4 } },
    cycles: 2,
    readEvery: 4,
};

interface WorldResult {
    backend: string;
    frames: number;
    gpuChecks: number;
    cpuSeamMismatches: number;
    gpuSeamMismatches: number;
    windowMismatches: number;
    fingerprint: string;
    cpuFingerprint: string;
    cpuInWorker: boolean;
    updatedGrounds: number;
}

describe("TerrainErosionWorld on WebGPU", () => {
    let browser: OpenPage;
    let result: WorldResult;

    beforeAll(async () => {
        browser = await openTestPage("worldWebgpu");
        result = await browser.page.evaluate((request) => (window as unknown as { worldRun(r: unknown): Promise<WorldResult> }).worldRun(request), REQUEST);
    });

    afterAll(async () => {
        await browser?.close();
    });

    it("gives the stitched field's fingerprint on WebGPU and on the CPU backend in a worker", () => {
        const heights = generateNoiseTerrain({ width: REQUEST.width, depth: REQUEST.depth, relief: 20, seed: REQUEST.terrainSeed });
        const reference = erodeHeightfield(heights, REQUEST.width, REQUEST.depth, REQUEST.options, REQUEST.cycles).fingerprint;
        expect(result.backend).toBe("webgpu");
        expect(result.fingerprint).toBe(reference);
        expect(result.cpuFingerprint).toBe(reference);
        expect(result.cpuInWorker).toBe(true);
    });

    it("keeps shared edge vertices identical (positions and normals) in the GPU and CPU vertex data at every frame checked", () => {
        expect(result.frames).toBeGreaterThan(10);
        expect(result.gpuChecks).toBeGreaterThan(3);
        expect(result.cpuSeamMismatches).toBe(0);
        expect(result.gpuSeamMismatches).toBe(0);
        expect(result.windowMismatches).toBe(0);
        expect(result.updatedGrounds).toBe(6);
    });

    it("prints no console errors", () => {
        expect(browser.errors).toEqual([]);
    });
});
