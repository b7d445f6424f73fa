// Renders the README's pictures of landforms that build from the sample: `?terrain=fan` (a
// mountain front whose river lays a fan on the plain) and `?terrain=delta` (a river into a closed
// lake, raining, that builds a delta at its mouth), before and after 100 cycles, and `?terrain=scarp`
// (a capped escarpment under the mesa's settings) before and after the apron claim's 40, with the
// deposition map (the escarpment: the soil map) over the height colouring (the delta's lake hidden,
// to show its floor). `npx tsx
// scripts/render-sample-landforms.ts` after `npm run build:sample`. WebGL2 and the CPU backend (bit-identical to WebGPU), so it runs at the same speed
// with or without a GPU; the sample's droplets per batch at their default (1024), as the claims run.
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM_ARGS, findChromium, serveDirectories } from "./lib/browser.js";

const ROOT = process.cwd();
/**
 * Each picture's camera (alpha, beta in radians; radius in terrain sides) and cycles: the fan seen
 * from the plain, the range behind it; the delta from above, its feeding valley at the bottom; the
 * escarpment from its plain, the cliff across the picture.
 */
const VIEWS = {
    fan: { alpha: Math.PI / 2, beta: 0.8, radius: 1.05, targetZ: 0, cycles: 100, mapView: "deposition" },
    // Over the lake (its centre 40 rows from the +z edge), the valley's mouth below it.
    delta: { alpha: -Math.PI / 2, beta: 0.45, radius: 0.75, targetZ: 24, cycles: 100, mapView: "deposition" },
    // Row 0 is the +z edge: the cliff's foot (row 55) lies at z = 9; the camera on the plain's side (-z) looks at the face.
    // The soil map, the apron's own: the deposition map adds up each pass's raising, and at the
    // patches' seams, which two patches' thermal passes both move (32 steps a batch), it draws stripes.
    scarp: { alpha: -Math.PI / 2, beta: 1.0, radius: 0.8, targetZ: 9, cycles: 40, mapView: "soil" },
} as const;

async function picture(page: Page, name: string): Promise<void> {
    // The sample refits the maps' colour scales every two seconds.
    await page.waitForTimeout(3000);
    await page.screenshot({ path: join(ROOT, `docs/images/landforms/${name}.png`) });
}

async function render(page: Page, origin: string, terrain: keyof typeof VIEWS): Promise<void> {
    await page.goto(`${origin}/index.html?engine=webgl2&terrain=${terrain}&droplets=1024`);
    await page.waitForFunction(() => (window as any).sample?.erosion.backend != null, undefined, { timeout: 120000 });
    await page.evaluate(async (view) => {
        const { erosion, scene, erosionMaterial } = (window as any).sample;
        erosion.pause();
        document.getElementById("panel")!.style.display = "none";
        erosionMaterial.mapView = view.mapView;
        const camera = scene.activeCamera;
        camera.alpha = view.alpha;
        camera.beta = view.beta;
        camera.radius = view.radius * 128;
        camera.target.set(0, 4, view.targetZ);
    }, VIEWS[terrain]);
    await picture(page, `${terrain}-sample-before`);
    await page.evaluate(async (cycles) => {
        const { erosion, erosionMaterial, water } = (window as any).sample;
        await erosion.runCycles(cycles);
        // The lake's floor, not its water: no wet tint, no surface over it.
        erosionMaterial.wetEnabled = false;
        const surface = water?.surface();
        if (surface) surface.isEnabled = false;
    }, VIEWS[terrain].cycles);
    await picture(page, `${terrain}-sample-after`);
}

async function main(): Promise<void> {
    const { server, origin } = await serveDirectories([join(ROOT, "dist/sample"), join(ROOT, "sample-scene/public")], true);
    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    try {
        const page = await browser.newPage({ viewport: { width: 800, height: 500 } });
        for (const terrain of ["fan", "delta", "scarp"] as const) await render(page, origin, terrain);
    } finally {
        await browser.close();
        server.close();
    }
}

void main();
