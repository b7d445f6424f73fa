/**
 * A bake is the browser's terrain: `terrain-erosion bake` of a generated 129² PNG gives the
 * fingerprint the TerrainErosion component computes from the same PNG in headless Chromium
 * (WebGPU on SwiftShader), and its snapshot file restores there exactly.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeGray16Png, generateNoiseTerrain, heightsToSamples } from "../../plugin/terrain.js";
import { bake } from "../../plugin/internal.js";
import { openTestPage } from "../helpers/browser.js";

const SIZE = 129;
const RANGE = { min: 0, max: 40 };
const OPTIONS = { patchSize: 32, hydraulic: { dropletsPerBatch: 128 }, rivers: { stepsPerBatch: 8 } };

interface BakeRestoreResult {
    backend: string;
    fingerprint: string;
    restoredFingerprint: string;
    heightsEqual: boolean;
    cycles: number;
}

describe("a bake in the browser", () => {
    it("equals the component's terrain, and its snapshot restores exactly", async () => {
        const dir = mkdtempSync(join(tmpdir(), "bake-browser-"));
        writeFileSync(join(dir, "in.png"), await encodeGray16Png(heightsToSamples(generateNoiseTerrain({ width: SIZE, depth: SIZE, relief: 30, seed: 3 }), RANGE).samples, SIZE, SIZE));
        writeFileSync(join(dir, "options.json"), JSON.stringify(OPTIONS));
        const baked = await bake({ input: join(dir, "in.png"), out: join(dir, "out.png"), cycles: 2, optionsFile: join(dir, "options.json"), scale: { heightRange: RANGE, cellSize: 2 }, workers: 2 });
        const browser = await openTestPage("bakeRestore", [dir]);
        try {
            const request = { png: "in.png", snapshot: "out.snapshot", range: RANGE, extent: { width: (SIZE - 1) * 2, height: (SIZE - 1) * 2 }, options: OPTIONS, cycles: 2 };
            const result = await browser.page.evaluate((r) => (window as unknown as { bakeRestore(r: unknown): Promise<BakeRestoreResult> }).bakeRestore(r), request);
            expect(result.backend).toBe("webgpu");
            expect(result.fingerprint).toBe(baked.fingerprint);
            expect(result.restoredFingerprint).toBe(baked.fingerprint);
            expect(result.heightsEqual).toBe(true);
            expect(result.cycles).toBe(2);
            expect(browser.errors).toEqual([]);
        } finally {
            await browser.close();
        }
    });
});
