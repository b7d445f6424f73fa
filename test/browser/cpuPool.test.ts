/**
 * The CPU backend's worker pool in headless Chromium: helper workers nested in the backend's Web
 * Worker, sharing memory on a cross-origin isolated page and copying rows on one that is not (the
 * Playground's case); the terrain is the one-thread reference's either way.
 */
import { erodeHeightfield } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { openTestPage } from "../helpers/browser.js";

const REQUEST = {
    width: 57,
    depth: 41,
    terrainSeed: 4,
    options: { patchSize: 16, cpuWorkers: 3, hydraulic: { dropletsPerBatch: 64 }, rivers: { stepsPerBatch: 6 }, water: { enabled: true, stepsPerCycle: 2 } },
    cycles: 2,
};

interface PoolResult {
    fingerprint: string;
    pool: { workers: number; sharedMemory: boolean; webAssembly: boolean } | null;
    inWorker: boolean;
    isolated: boolean;
}

describe("the CPU worker pool in Chromium", () => {
    const reference = erodeHeightfield(generateNoiseTerrain({ width: REQUEST.width, depth: REQUEST.depth, relief: 20, seed: REQUEST.terrainSeed }), REQUEST.width, REQUEST.depth, REQUEST.options, REQUEST.cycles).fingerprint;

    it.each([
        ["a cross-origin isolated page shares memory", true],
        ["a page that is not isolated copies rows", false],
    ])("%s and gives the reference terrain", async (_name, isolated) => {
        const browser = await openTestPage("cpuPool", [], "", isolated);
        try {
            const result = await browser.page.evaluate((request) => (window as unknown as { poolRun(r: unknown): Promise<PoolResult> }).poolRun(request), REQUEST);
            expect(result.isolated).toBe(isolated);
            expect(result.inWorker).toBe(true);
            // The kernels compile to WebAssembly in the page's worker.
            expect(result.pool).toEqual({ workers: 3, sharedMemory: isolated, webAssembly: true });
            expect(result.fingerprint).toBe(reference);
            expect(browser.errors).toEqual([]);
        } finally {
            await browser.close();
        }
    });
});
