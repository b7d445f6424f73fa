/**
 * The sample's water in headless Chromium, on WebGPU (WGSL shaders, GPU-written texture) and on
 * WebGL2 (GLSL, CPU backend uploading the texture): `?water=1` rains from the start, the water
 * surface shows over wet ground after two cycles (the picture changes when it is hidden), and the
 * Spring tool adds and removes springs, with no console errors.
 */
import { openSample } from "../helpers/sample.js";

type SampleWindow = {
    sample: {
        erosion: { pause(): void; runCycles(count: number): Promise<void>; maps: { readMaps(): Promise<{ waterDepth: Float32Array }> }; options: { water: { enabled: boolean; rain: number } } };
        water: { surface(): { whenReady: Promise<void>; isEnabled: boolean; meshes: { isEnabled(): boolean }[]; getClassName(): string } | null; springCount(): number };
    };
};

describe.each([
    ["WebGPU (SwiftShader)", "?water=1&size=65&droplets=128"],
    ["WebGL2, CPU backend in a worker", "?water=1&size=65&droplets=128&engine=webgl2"],
])("the sample's water on %s", (_name, query) => {
    it("rains, shows the water surface over wet ground, and places springs", async () => {
        // A desktop-sized window: in a small one the panel (water controls included) covers the spot the Spring tool clicks.
        const sample = await openSample(query, { width: 900, height: 600 });
        try {
            const { page } = sample;
            await page.waitForFunction(() => (window as unknown as SampleWindow).sample.water.surface() !== null, undefined, { timeout: 30000 });
            const setup = await page.evaluate(async () => {
                const { erosion, water } = (window as unknown as SampleWindow).sample;
                const surface = water.surface()!;
                await surface.whenReady;
                erosion.pause();
                await erosion.runCycles(2);
                const depths = (await erosion.maps.readMaps()).waterDepth;
                return { className: surface.getClassName(), meshes: surface.meshes.length, enabled: surface.meshes.every((mesh) => mesh.isEnabled()), water: erosion.options.water, wet: depths.filter((depth) => depth > 0.05).length };
            });
            expect(setup).toMatchObject({ className: "TerrainWaterSurface", meshes: 1, enabled: true, water: { enabled: true } });
            expect(setup.water.rain).toBeGreaterThan(0);
            expect(setup.wet).toBeGreaterThan(50);
            expect(await page.isChecked("#water-rain")).toBe(true);

            // The surface draws something: hiding it changes the picture (the panel, whose FPS changes, hidden).
            await page.evaluate(() => (document.getElementById("panel")!.style.visibility = "hidden"));
            await page.waitForTimeout(500);
            const withWater = await page.screenshot();
            await page.evaluate(() => ((window as unknown as SampleWindow).sample.water.surface()!.isEnabled = false));
            await page.waitForTimeout(500);
            const withoutWater = await page.screenshot();
            expect(Buffer.compare(withWater, withoutWater)).not.toBe(0);
            expect(Buffer.compare(withoutWater, await page.screenshot())).toBe(0);
            await page.evaluate(() => ((window as unknown as SampleWindow).sample.water.surface()!.isEnabled = true));
            await page.evaluate(() => (document.getElementById("panel")!.style.visibility = "visible"));

            // The Spring tool: a click on the terrain adds a spring, the button removes them all.
            await page.click("#water-spring");
            const box = (await page.locator("#renderCanvas").boundingBox())!;
            await page.mouse.click(box.x + box.width * 0.62, box.y + box.height * 0.6);
            await page.waitForFunction(() => (window as unknown as SampleWindow).sample.water.springCount() === 1, undefined, { timeout: 10000 });
            expect(await page.textContent("#water-springs")).toBe("1 spring");
            await page.click("#water-remove");
            expect(await page.evaluate(() => (window as unknown as SampleWindow).sample.water.springCount())).toBe(0);
            expect(sample.errors).toEqual([]);
        } finally {
            await sample.close();
        }
    });
});
