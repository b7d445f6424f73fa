/**
 * The sample scene in headless Chromium: loads without console errors on WebGPU (SwiftShader) and on
 * WebGL2 (CPU backend), erodes visibly, and its Inspector tunes the running erosion.
 */
import { openSample, sampleState } from "../helpers/sample.js";

describe.each([
    ["WebGPU (SwiftShader)", "?size=65&droplets=128", "webgpu", "webgpu"],
    ["WebGL2, CPU backend on two workers", "?engine=webgl2&size=65&droplets=128&workers=2", "webgl2", "cpu"],
])("the sample scene on %s", (_name, query, engine, backend) => {
    it("loads without console errors and erodes visibly", async () => {
        const sample = await openSample(query);
        try {
            const before = await sample.page.screenshot();
            const heightsBefore = await sample.page.evaluate(() => (window as any).sample.erosion.readHeights().then((h: Float32Array) => Array.from(h)));
            const cyclesBefore = await sample.page.evaluate(() => (window as any).sample.erosion.cyclesCompleted);
            // Two more cycles than when the heights were read (the page may be fast enough to have run some already).
            await sample.page.waitForFunction((from) => (window as any).sample.erosion.cyclesCompleted >= Math.max(2, from + 2), cyclesBefore, { timeout: 120000 });
            const heightsAfter = await sample.page.evaluate(() => (window as any).sample.erosion.readHeights().then((h: Float32Array) => Array.from(h)));
            await sample.page.waitForTimeout(500);
            const after = await sample.page.screenshot();
            const current = await sampleState(sample.page);
            expect(current.engine).toBe(engine);
            expect(current.backend).toBe(backend);
            // The CPU backend's pool shares memory: the sample is served cross-origin isolated.
            if (backend === "cpu") expect(await sample.page.textContent("#stat-backend")).toBe("cpu (2 Web Workers, shared memory)");
            expect(current.cycles).toBeGreaterThanOrEqual(2);
            expect(heightsAfter.some((h: number, i: number) => Math.abs(h - heightsBefore[i]) > 1e-3)).toBe(true);
            expect(Buffer.compare(before, after)).not.toBe(0);
            expect(sample.errors).toEqual([]);
        } finally {
            await sample.close();
        }
    });
});

describe("erosion maps and local erosion in the sample", () => {
    it("shows each map in turn and rains on the terrain under a shift-drag (erodeAt)", async () => {
        const sample = await openSample("?engine=webgl2&size=65&droplets=64");
        try {
            await sample.page.evaluate(() => (window as any).sample.erosionMaterial.whenReady);
            const shots: Buffer[] = [];
            for (const mode of ["water", "wear", "deposition", "direction"]) {
                await sample.page.selectOption("#map-mode", mode);
                await sample.page.waitForTimeout(300);
                expect(await sample.page.evaluate(() => (window as any).sample.erosionMaterial.mapView)).toBe(mode);
                shots.push(await sample.page.screenshot());
            }
            expect(new Set(shots.map((shot) => shot.toString("base64"))).size).toBe(4);
            await sample.page.evaluate(() => (window as any).sample.erosion.pause());
            const box = (await sample.page.locator("#renderCanvas").boundingBox())!;
            await sample.page.keyboard.down("Shift");
            await sample.page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.6);
            await sample.page.mouse.down();
            await sample.page.mouse.move(box.x + box.width * 0.65, box.y + box.height * 0.62, { steps: 4 });
            await sample.page.mouse.up();
            await sample.page.keyboard.up("Shift");
            const events = await sample.page.evaluate(() => (window as any).sample.erosion.localEvents);
            expect(events.inForce + events.pending).toBeGreaterThan(0);
            expect(sample.errors).toEqual([]);
        } finally {
            await sample.close();
        }
    });
});

describe("Inspector tuning in the sample", () => {
    it("opens the Inspector with the ground selected, shows the erosion controls, and a switch changes the option", async () => {
        const sample = await openSample("?engine=webgl2&size=65&droplets=64");
        try {
            await sample.page.keyboard.press("i");
            await sample.page.getByText("hydraulic inertia", { exact: false }).first().waitFor({ timeout: 90000 });
            expect(await sample.page.getByText("thermal talus", { exact: false }).count()).toBeGreaterThan(0);
            expect(await sample.page.evaluate(() => (window as any).sample.erosion.options.thermal.enabled)).toBe(true);
            // The property line: the label's span, two divs up, holds the Fluent UI switch.
            await sample.page.locator("xpath=//span[normalize-space(text())='thermal enabled']/ancestor::div[2]//input[@role='switch']").first().click({ force: true });
            await sample.page.waitForFunction(() => (window as any).sample.erosion.options.thermal.enabled === false, undefined, { timeout: 10000 });
            expect(sample.errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
        } finally {
            await sample.close();
        }
    });
});
