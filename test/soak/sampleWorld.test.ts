/**
 * The sample's world of 4 x 4 grounds (`?terrain=world`) in headless Chromium: it erodes live on
 * both engines, and a top-down screenshot under grazing light across a seam shows no seam. The
 * statistic: the mean brightness step between neighbouring pixel columns, over the rows of the
 * view, at the seam against the 90th percentile of the same step beside it. Babylon's own per-ground normals
 * (`createNormals`, one-sided at each ground's edge) are the control that shows a seam.
 */
import type { Page } from "playwright-core";
import { openSample, sampleState } from "../helpers/sample.js";

/** Column steps of a screenshot of the current view: `steps[k]` for the pixel column pair (centre + k, centre + k + 1). */
async function columnSteps(page: Page): Promise<Map<number, number>> {
    await page.evaluate(async () => {
        const { scene, erosion, grounds } = (window as any).sample;
        // Top-down over the first seam between columns of grounds, the sun grazing across it.
        const { x0 } = erosion.windowOf(grounds[0][1]);
        const seamX = -(erosion.fieldSize.width - 1) / 2 + x0;
        const camera = scene.activeCamera;
        camera.alpha = -Math.PI / 2;
        camera.beta = 0.001;
        camera.radius = 70;
        camera.target.set(seamX, 20, 0);
        scene.getLightByName("sky").intensity = 0.15;
        const sun = scene.getLightByName("sun");
        sun.direction.set(-1, -0.25, 0.05).normalize();
        sun.intensity = 1.2;
    });
    await page.waitForTimeout(1000);
    const screenshot = (await page.screenshot()).toString("base64");
    const steps: [number, number][] = await page.evaluate(async (png) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext("2d")!;
        context.drawImage(bitmap, 0, 0);
        const { data: pixels, width, height } = context.getImageData(0, 0, bitmap.width, bitmap.height);
        const luminance = (x: number, y: number) => 0.299 * pixels[(y * width + x) * 4] + 0.587 * pixels[(y * width + x) * 4 + 1] + 0.114 * pixels[(y * width + x) * 4 + 2];
        // The seam runs down the middle column (the camera looks straight down on it, x to the right).
        const centre = Math.floor(width / 2);
        const result: [number, number][] = [];
        for (let k = -32; k <= 32; k++) {
            let sum = 0;
            for (let y = 40; y < height - 40; y++) sum += Math.abs(luminance(centre + k + 1, y) - luminance(centre + k, y));
            result.push([k, sum / (height - 80)]);
        }
        return result;
    }, screenshot);
    return new Map(steps);
}

/** The step at the seam (the pair it falls in, or the one beside) over the 90th percentile of the steps 4 to 32 pixels away. */
function seamRatio(steps: Map<number, number>): number {
    const beside = [...steps].filter(([k]) => Math.abs(k) >= 4).map(([, step]) => step).sort((a, b) => a - b);
    return Math.max(steps.get(-1)!, steps.get(0)!) / beside[Math.floor(beside.length * 0.9)];
}

describe.each([
    ["WebGPU (SwiftShader)", "?terrain=world&size=129&droplets=128", "webgpu"],
    ["WebGL2, CPU backend in a worker", "?terrain=world&size=129&droplets=128&engine=webgl2", "cpu"],
])("the sample's world of 4 x 4 grounds on %s", (_name, query, backend) => {
    it("erodes live and shows no seam under grazing light", async () => {
        const sample = await openSample(query, { width: 600, height: 600 });
        try {
            const { page } = sample;
            expect(await page.evaluate(() => (window as any).sample.erosion.getClassName())).toBe("TerrainErosionWorld");
            expect(await page.evaluate(() => (window as any).sample.grounds.flat().length)).toBe(16);
            // Live, with room for several batches a frame (SwiftShader draws 16 grounds at a few frames a second).
            await page.evaluate(() => (window as any).sample.erosion.setOptions({ frameBudgetMs: 200 }));
            await page.waitForFunction(() => (window as any).sample.erosion.cyclesCompleted >= 1, undefined, { timeout: 120000 });
            expect((await sampleState(page)).backend).toBe(backend);
            await page.evaluate(async () => {
                const { erosion } = (window as any).sample;
                erosion.pause();
                await erosion.whenIdle();
                document.getElementById("panel")!.style.display = "none";
            });
            const world = seamRatio(await columnSteps(page));
            // Control: each ground's own normals (Babylon's createNormals) make the seam visible.
            await page.evaluate(() => (window as any).sample.grounds.flat().forEach((ground: any) => ground.createNormals(true)));
            const perGround = seamRatio(await columnSteps(page));
            expect({ world: world < 1, perGround: perGround > 3, ratios: [world, perGround] }).toEqual({ world: true, perGround: true, ratios: [world, perGround] });
            expect(sample.errors).toEqual([]);
        } finally {
            await sample.close();
        }
    });
});
