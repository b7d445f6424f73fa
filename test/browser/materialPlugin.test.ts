/**
 * `TerrainErosionMaterialPlugin` on a PBRMaterial in headless Chromium, on WebGPU (the maps texture
 * written on the GPU) and on WebGL2 (the CPU backend's texture kept current from changed rows).
 */
import { openTestPage, type OpenPage } from "../helpers/browser.js";

type PluginPage = Window & {
    setup(): Promise<{ backend: string | null; webgpu: boolean }>;
    show(variant: "plugin" | "disabled" | "plain"): Promise<void>;
    classify(): Promise<{ wet: [number, number][]; dry: [number, number][] }>;
    measure(png: string, points: [number, number][]): Promise<{ luminance: number; blue: number }>;
    difference(a: string, b: string): Promise<number>;
    texelMismatches(): Promise<{ checked: number; mismatches: number; materialMismatches: number }>;
    setPlugin(options: { soilEnabled?: boolean; layersEnabled?: boolean }): void;
    pointDifference(a: string, b: string, points: [number, number][]): Promise<number>;
    materialPoints(): Promise<{ soil: [number, number][]; bare: [number, number][]; beds: number }>;
};

describe.each([
    ["WebGPU", "webgpu", "webgpu"],
    ["WebGL2", "webgl2", "cpu"],
])("TerrainErosionMaterialPlugin on %s", (_name, engine, backend) => {
    let browser: OpenPage;

    beforeAll(async () => {
        browser = await openTestPage("materialPlugin", [], `?engine=${engine}`);
        const setup = await browser.page.evaluate(() => (window as unknown as PluginPage).setup());
        expect(setup.backend).toBe(backend);
    });

    afterAll(async () => {
        await browser?.close();
    });

    const freshShot = async (variant: "plugin" | "disabled" | "plain") => {
        await browser.page.evaluate((v) => (window as unknown as PluginPage).show(v), variant);
        return (await browser.page.screenshot({ clip: { x: 0, y: 0, width: 600, height: 600 } })).toString("base64");
    };
    // The terrain stands still until the last test (erosion paused), so each variant at the plugin's
    // default settings is shot once: a shot is 2-4 s of SwiftShader.
    const shots = new Map<string, Promise<string>>();
    const shot = (variant: "plugin" | "disabled" | "plain") => {
        if (!shots.has(variant)) shots.set(variant, freshShot(variant));
        return shots.get(variant)!;
    };

    it("renders cells with high water at least 10% darker and bluer than dry slopes", async () => {
        const png = await shot("plugin");
        const { wet, dry } = await browser.page.evaluate(() => (window as unknown as PluginPage).classify());
        expect(wet.length).toBeGreaterThan(50);
        const [wetPixels, dryPixels] = await browser.page.evaluate(async ({ image, wet, dry }) => [await (window as unknown as PluginPage).measure(image, wet), await (window as unknown as PluginPage).measure(image, dry)], { image: png, wet, dry });
        expect(wetPixels.luminance).toBeLessThan(dryPixels.luminance * 0.9);
        expect(wetPixels.blue).toBeGreaterThan(dryPixels.blue * 1.1);
        // Without the plugin the same points do not differ that way: the effect is the plugin's.
        const plainPng = await shot("plain");
        const plainWet = await browser.page.evaluate(({ image, wet }) => (window as unknown as PluginPage).measure(image, wet), { image: plainPng, wet });
        expect(wetPixels.blue).toBeGreaterThan(plainWet.blue * 1.1);
    });

    it("changes under 2% of the pixels of the plain material when isEnabled is false", async () => {
        const disabled = await shot("disabled");
        const plain = await shot("plain");
        const enabled = await shot("plugin");
        const [off, on] = await browser.page.evaluate(async ({ disabled, plain, enabled }) => [await (window as unknown as PluginPage).difference(disabled, plain), await (window as unknown as PluginPage).difference(enabled, plain)], { disabled, plain, enabled });
        expect(off).toBeLessThan(0.02);
        expect(on).toBeGreaterThan(0.05); // the comparison can tell the plugin's effect apart
    });

    it("colours soil by its thickness and bare rock by its layer", async () => {
        const { soil, bare, beds } = await browser.page.evaluate(() => (window as unknown as PluginPage).materialPoints());
        expect(soil.length).toBeGreaterThan(100);
        expect(bare.length).toBeGreaterThan(50);
        expect(beds).toBeGreaterThan(1);
        const page = browser.page;
        const differ = (a: string, b: string, points: [number, number][]) => page.evaluate(({ a, b, points }) => (window as unknown as PluginPage).pointDifference(a, b, points), { a, b, points });
        const all = await shot("plugin");
        await page.evaluate(() => (window as unknown as PluginPage).setPlugin({ soilEnabled: false }));
        const withoutSoil = await freshShot("plugin");
        await page.evaluate(() => (window as unknown as PluginPage).setPlugin({ soilEnabled: true, layersEnabled: false }));
        const withoutLayers = await freshShot("plugin");
        await page.evaluate(() => (window as unknown as PluginPage).setPlugin({ layersEnabled: true }));
        // Soil colours its thickest ground, and leaves bare rock as it was (mean channel differences, 0..255).
        expect(await differ(all, withoutSoil, soil)).toBeGreaterThan(8);
        expect(await differ(all, withoutSoil, bare)).toBeLessThan(1);
        // The layers colour bare rock.
        expect(await differ(all, withoutLayers, bare)).toBeGreaterThan(8);
    });

    it("samples maps and materials textures equal to the maps as arrays, kept current frame by frame", async () => {
        expect(await browser.page.evaluate(() => (window as unknown as PluginPage).texelMismatches())).toEqual({ checked: 65 * 65, mismatches: 0, materialMismatches: 0 });
    });

    it("prints no console errors", () => {
        expect(browser.errors).toEqual([]);
    });
});
