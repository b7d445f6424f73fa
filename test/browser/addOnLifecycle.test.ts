/**
 * A game object's whole life with every add-on on (material plugin, water surface, rain), on WebGPU
 * and on WebGL2: attach, run, detach, 30 frames, attach again, dispose, 30 frames; and a world
 * disposed with its add-ons. Every step keeps the render loop going (no page error), draws the
 * ground (pixels other than the clear colour where the ground is) and keeps the eroded heights.
 */
import { openTestPage, type OpenPage } from "../helpers/browser.js";

interface LifeStep {
    framesDrawn: boolean;
    errors: string[];
    heightChange: number;
    backend: string | null;
    waterShown: boolean;
    cycles: number;
}

type LifePage = Window & {
    setup(): Promise<{ webgpu: boolean }>;
    attach(): Promise<LifeStep>;
    leave(how: "detach" | "dispose"): Promise<LifeStep>;
    attachAgain(): Promise<LifeStep>;
    worldLife(): Promise<LifeStep>;
    groundCoverage(png: string): Promise<number>;
};

describe.each([
    ["WebGPU", "webgpu", "webgpu"],
    ["WebGL2", "webgl2", "cpu"],
])("detach, dispose and attach again with the material plugin and the water surface on %s", (_name, engine, backend) => {
    let browser: OpenPage;

    beforeAll(async () => {
        browser = await openTestPage("addOnLifecycle", [], `?engine=${engine}`);
        expect((await browser.page.evaluate(() => (window as unknown as LifePage).setup())).webgpu).toBe(engine === "webgpu");
    });

    afterAll(async () => {
        await browser?.close();
    });

    const coverage = async () => {
        const png = (await browser.page.screenshot({ clip: { x: 0, y: 0, width: 400, height: 400 } })).toString("base64");
        return browser.page.evaluate((image) => (window as unknown as LifePage).groundCoverage(image), png);
    };

    it("keeps drawing the eroded ground after detach, erodes again after ground.addBehavior, and after dispose", async () => {
        const attached = await browser.page.evaluate(() => (window as unknown as LifePage).attach());
        expect(attached).toMatchObject({ framesDrawn: true, errors: [], backend, waterShown: true });
        expect(attached.cycles).toBeGreaterThanOrEqual(1);
        expect(await coverage()).toBeGreaterThan(0.95);

        const detached = await browser.page.evaluate(() => (window as unknown as LifePage).leave("detach"));
        // 30 frames after the detach: the render loop goes on, the water hides, the eroded heights stay.
        expect(detached).toMatchObject({ framesDrawn: true, errors: [], heightChange: 0, backend: null, waterShown: false });
        expect(await coverage()).toBeGreaterThan(0.95);

        const again = await browser.page.evaluate(() => (window as unknown as LifePage).attachAgain());
        // The plugin and the surface take the new runner's textures; a new cycle erodes the ground.
        expect(again).toMatchObject({ framesDrawn: true, errors: [], backend, waterShown: true });
        expect(again.cycles).toBeGreaterThanOrEqual(1);
        expect(again.heightChange).toBeGreaterThan(0);
        expect(await coverage()).toBeGreaterThan(0.95);

        const disposed = await browser.page.evaluate(() => (window as unknown as LifePage).leave("dispose"));
        expect(disposed).toMatchObject({ framesDrawn: true, errors: [], heightChange: 0, backend: null, waterShown: false });
        expect(await coverage()).toBeGreaterThan(0.95);
    });

    it("keeps drawing a TerrainErosionWorld's grounds after it is disposed with its add-ons", async () => {
        const world = await browser.page.evaluate(() => (window as unknown as LifePage).worldLife());
        expect(world).toMatchObject({ framesDrawn: true, errors: [], heightChange: 0, backend: null, waterShown: false });
        expect(await coverage()).toBeGreaterThan(0.95);
        expect(browser.errors).toEqual([]);
    });
});
