// Renders the README's strata picture: the sample's `?strata=1` preset after 30 cycles, with the
// material plugin colouring rock by its bed and soil by its thickness. `npx tsx
// scripts/render-strata-picture.ts` after `npm run build:sample`. WebGL2 and the CPU backend
// (bit-identical to WebGPU), so it runs at the same speed with or without a GPU.
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium, serveDirectories } from "./lib/browser.js";

const ROOT = process.cwd();
const CYCLES = 30;

async function main(): Promise<void> {
    const { server, origin } = await serveDirectories([join(ROOT, "dist/sample"), join(ROOT, "sample-scene/public")]);
    const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
    try {
        const page = await browser.newPage({ viewport: { width: 960, height: 600 } });
        await page.goto(`${origin}/index.html?engine=webgl2&strata=1`);
        await page.waitForFunction(() => (window as any).sample?.erosion.backend != null, undefined, { timeout: 120000 });
        await page.evaluate(async (cycles) => {
            document.getElementById("panel")!.style.display = "none";
            await (window as any).sample.erosion.runCycles(cycles);
        }, CYCLES);
        // The rock and soil alone: no wet tint over the basins. The sample refits the colour scales every two seconds.
        await page.evaluate(() => ((window as any).sample.erosionMaterial.wetEnabled = false));
        await page.waitForTimeout(3000);
        await page.screenshot({ path: join(ROOT, "docs/images/strata-sample.png") });
    } finally {
        await browser.close();
        server.close();
    }
}

void main();
