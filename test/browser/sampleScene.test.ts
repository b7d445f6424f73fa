/**
 * The sample scene in headless Chromium: loads without console errors on WebGPU (SwiftShader) and on
 * WebGL2 (CPU backend), erodes visibly, and picks its light terrain on the software renderer. Its
 * tools (maps, erodeAt, the Inspector): sampleTools.test.ts.
 */
import { openSample, sampleState } from "../helpers/sample.js";

describe.each([
    ["WebGPU (SwiftShader)", "?size=65&droplets=128", "webgpu", "webgpu", 65],
    // No size asked: on SwiftShader the sample picks its light terrain and says so.
    ["WebGL2, CPU backend on two workers", "?engine=webgl2&workers=2", "webgl2", "cpu", 129],
])("the sample scene on %s", (_name, query, engine, backend, side) => {
    it("loads without console errors and erodes visibly", async () => {
        const sample = await openSample(query);
        try {
            const before = await sample.page.screenshot();
            const heightsBefore = await sample.page.evaluate(() => (window as any).sample.erosion.maps.readHeights().then((h: Float32Array) => Array.from(h)));
            const cyclesBefore = await sample.page.evaluate(() => (window as any).sample.erosion.cyclesCompleted);
            // Live frames with room for several batches each (SwiftShader draws a few frames a second).
            await sample.page.evaluate(() => (window as any).sample.erosion.setOptions({ frameBudgetMs: 50 }));
            // A cycle more than when the heights were read (the page may be fast enough to have run some already).
            await sample.page.waitForFunction((from) => (window as any).sample.erosion.cyclesCompleted >= from + 1, cyclesBefore, { timeout: 120000 });
            const heightsAfter = await sample.page.evaluate(() => (window as any).sample.erosion.maps.readHeights().then((h: Float32Array) => Array.from(h)));
            await sample.page.waitForTimeout(500);
            const after = await sample.page.screenshot();
            const current = await sampleState(sample.page);
            expect(current.engine).toBe(engine);
            expect(current.backend).toBe(backend);
            // The CPU backend's pool shares memory: the sample is served cross-origin isolated.
            if (backend === "cpu") expect(await sample.page.textContent("#stat-backend")).toBe("cpu (2 Web Workers, shared memory)");
            expect(current.cycles).toBeGreaterThanOrEqual(1);
            expect(await sample.page.evaluate(() => (window as any).sample.ground.getTotalVertices())).toBe(side * side);
            const note = await sample.page.textContent("#stat-light");
            expect(note).toMatch(side === 129 ? /^Software renderer \(.*swiftshader.*\): a light 129 x 129 terrain, 256 droplets a batch, 20 frames a second/i : /^Software renderer \(.*swiftshader.*\): erosion runs slowly here, 20 frames a second$/i);
            expect(heightsAfter.some((h: number, i: number) => Math.abs(h - heightsBefore[i]) > 1e-3)).toBe(true);
            expect(Buffer.compare(before, after)).not.toBe(0);
            expect(sample.errors).toEqual([]);
        } finally {
            await sample.close();
        }
    });
});

