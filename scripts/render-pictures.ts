// Renders the README's before/after pictures with the sample scene in headless Chromium:
// `npx tsx scripts/render-pictures.ts` after `npm run build:sample` (`... water` renders only the
// shallow-water picture). Uses WebGL2 and the CPU backend (bit-identical to WebGPU) so it runs at
// the same speed with or without a GPU.
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS, findChromium, serveDirectories } from "./lib/browser.js";

const ROOT = process.cwd();
const SHOTS = [
    { name: "generated", query: "?engine=webgl2", cycles: 40 },
    { name: "montblanc", query: "?engine=webgl2&terrain=montblanc", cycles: 25 },
];
/** The shallow water: the sample's rain (`?water=1`) on the generated terrain, seen closer. */
const WATER_SHOT = { name: "generated-water", query: "?engine=webgl2&water=1", cycles: 20, camera: { radius: 300, beta: 0.95 } };

async function main(): Promise<void> {
    const { server, origin } = await serveDirectories([join(ROOT, "dist/sample"), join(ROOT, "sample-scene/public")]);
    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    try {
        for (const shot of process.argv[2] === "water" ? [] : SHOTS) {
            const page = await browser.newPage({ viewport: { width: 960, height: 600 } });
            await page.goto(`${origin}/index.html${shot.query}`);
            await page.waitForFunction(() => (window as any).sample?.erosion.backend != null, undefined, { timeout: 120000 });
            await page.evaluate(async () => {
                const { erosion } = (window as any).sample;
                erosion.pause();
                await erosion.history.reset();
                // reset() restores the heights; the maps (the wet tint) keep what the frames before the pause added.
                await erosion.maps.resetMaps();
                document.getElementById("panel")!.style.display = "none";
            });
            await page.waitForTimeout(1500);
            await page.screenshot({ path: join(ROOT, `docs/images/${shot.name}-before.png`) });
            const started = Date.now();
            await page.evaluate((cycles) => (window as any).sample.erosion.runCycles(cycles), shot.cycles);
            await page.waitForTimeout(1500);
            await page.screenshot({ path: join(ROOT, `docs/images/${shot.name}-after.png`) });
            // The river network the erosion left: the drainage-area map (its colour scale refitted every two seconds).
            await page.evaluate(() => ((window as any).sample.erosionMaterial.mapView = "drainage"));
            await page.waitForTimeout(2500);
            await page.screenshot({ path: join(ROOT, `docs/images/${shot.name}-drainage.png`) });
            console.log(`${shot.name}: ${shot.cycles} cycles in ${((Date.now() - started) / 1000).toFixed(1)} s`);
            await page.close();
        }
        await renderWater(origin, browser);
    } finally {
        await browser.close();
        server.close();
    }
}

/** The water picture: rain from the start, `cycles` cycles, the camera moved in, the surface drawn. */
async function renderWater(origin: string, browser: Browser): Promise<void> {
    const shot = WATER_SHOT;
    const page = await browser.newPage({ viewport: { width: 960, height: 600 } });
    await page.goto(`${origin}/index.html${shot.query}`);
    await page.waitForFunction(() => (window as any).sample?.erosion.backend != null && (window as any).sample.water.surface() != null, undefined, { timeout: 120000 });
    const started = Date.now();
    await page.evaluate(async ({ cycles, camera }) => {
        const { erosion, scene, water } = (window as any).sample;
        erosion.pause();
        await erosion.history.reset();
        await water.surface().whenReady;
        await erosion.runCycles(cycles);
        Object.assign(scene.activeCamera, camera);
        document.getElementById("panel")!.style.display = "none";
    }, shot);
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(ROOT, `docs/images/${shot.name}.png`) });
    console.log(`${shot.name}: ${shot.cycles} cycles in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await page.close();
}

main().catch((error) => {
    console.error(error);
    process.exit(1);
});
