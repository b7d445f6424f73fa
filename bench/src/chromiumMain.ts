/**
 * WebGPU figures in headless Chromium: the kernel figures on Chromium's adapter and the
 * component's cost per frame (bench/pages/benchGpu.ts, bundled into bench/.build/pages by
 * scripts/bench.mjs). Uses the browser helpers the tests use too (scripts/lib/browser.ts): the
 * installed Chromium (never downloads one), its WebGPU flags, the local static server.
 *
 * And a world of 8 x 8 grounds of 513 x 513 on the default limits (bench/pages/benchWorld.ts), and
 * the main thread's share of erosion on WebGL2 with the CPU backend (bench/pages/benchWebgl.ts).
 *
 * And the first hour's water page: the built sample itself with `?water=1` on both engines
 * (`samplePage.ts`), from the sample build `--sample=` names (scripts/bench.mjs passes a fresh one).
 *
 *   node bench/.build/chromium.mjs [--quick] --pages=bench/.build/pages --json=records.json [--sample=dist/sample] [--skip-kernels] [--skip-component] [--skip-world] [--skip-webgl] [--skip-sample] [--edits-only]
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, findChromium, serveDirectories } from "../../scripts/lib/browser.js";
import type { BenchPageResult, ComponentBenchRequest, KernelBenchRequest } from "../pages/benchGpu.js";
import type { WorldBenchRequest } from "../pages/benchWorld.js";
import type { WebglBenchRequest } from "../pages/benchWebgl.js";
import type { BenchRecord } from "./records.js";
import { samplePageRecords } from "./samplePage.js";

/** Frame budgets of the component figures, milliseconds. */
export const COMPONENT_BUDGETS = [1, 4, 16, 50];

/** Side of the component's ground, vertices. */
export const COMPONENT_SIZE = 513;
/** Cycles the WebGL2 page runs before its measured cycle at the smooth-frames issue's 4 ms budget (V8's compiling threads settled by then). */
const WEBGL_WARM_UP_CYCLES = 8;

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const jsonPath = args.find((arg) => arg.startsWith("--json="))?.slice(7);
const pagesDir = resolve(args.find((arg) => arg.startsWith("--pages="))?.slice(8) ?? "bench/.build/pages");
const sampleDir = args.find((arg) => arg.startsWith("--sample="))?.slice(9);
const sizesArg = args.find((arg) => arg.startsWith("--sizes="))?.slice(8);
const sizes = sizesArg ? sizesArg.split(",").map(Number) : undefined;

type BenchWindow = Window & {
    pageReady?: boolean;
    runKernelBench(request: KernelBenchRequest): Promise<BenchPageResult>;
    runComponentBench(request: ComponentBenchRequest): Promise<BenchPageResult>;
    runWorldBench(request: WorldBenchRequest): Promise<BenchPageResult>;
    runWebglBench(request: WebglBenchRequest): Promise<BenchPageResult>;
};

async function main(): Promise<void> {
    const { server, origin } = await serveDirectories([pagesDir]);
    // Developer features: timestamp queries at full resolution (Chromium otherwise rounds them to 100 us).
    const browser = await chromium.launch({ executablePath: findChromium(), args: [...CHROMIUM_ARGS, "--enable-webgpu-developer-features"], headless: true });
    const records: BenchRecord[] = [];
    const adapters: Record<string, string> = {};
    try {
        const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
        page.on("console", (message) => process.stderr.write(`${message.type() === "error" ? "[page error] " : ""}${message.text()}\n`));
        page.on("pageerror", (error) => process.stderr.write(`[page error] ${String(error)}\n`));
        await page.goto(`${origin}/benchGpu.html`);
        await page.waitForFunction(() => (window as unknown as BenchWindow).pageReady === true, undefined, { timeout: 60000 });
        if (!args.includes("--skip-kernels")) {
            const kernels = await page.evaluate((request) => (window as unknown as BenchWindow).runKernelBench(request), { quick, sizes } as KernelBenchRequest);
            adapters["webgpu-chromium"] = kernels.adapter;
            records.push(...kernels.records);
        }
        if (!args.includes("--skip-component")) {
            const component = await page.evaluate((request) => (window as unknown as BenchWindow).runComponentBench(request), { size: COMPONENT_SIZE, budgets: COMPONENT_BUDGETS, quick, editsOnly: args.includes("--edits-only") } as ComponentBenchRequest);
            adapters["component-chromium"] = component.adapter;
            records.push(...component.records);
        }
        await page.close();
        if (!args.includes("--skip-world")) {
            // Its own page: the 4097 x 4097 world's buffers are released with it.
            const worldPage = await browser.newPage({ viewport: { width: 800, height: 600 } });
            worldPage.on("console", (message) => process.stderr.write(`${message.type() === "error" ? "[page error] " : ""}${message.text()}\n`));
            worldPage.on("pageerror", (error) => process.stderr.write(`[page error] ${String(error)}\n`));
            await worldPage.goto(`${origin}/benchWorld.html`);
            await worldPage.waitForFunction(() => (window as unknown as BenchWindow).pageReady === true, undefined, { timeout: 60000 });
            const world = await worldPage.evaluate((request) => (window as unknown as BenchWindow).runWorldBench(request), { tiles: 8, tileSide: 513, frames: quick ? 3 : 10 } as WorldBenchRequest);
            adapters["world-chromium"] = world.adapter;
            records.push(...world.records);
            await worldPage.close();
        }
        if (!args.includes("--skip-webgl")) {
            const webglPage = await browser.newPage({ viewport: { width: 800, height: 600 } });
            webglPage.on("pageerror", (error) => process.stderr.write(`[page error] ${String(error)}\n`));
            await webglPage.goto(`${origin}/benchWebgl.html`);
            await webglPage.waitForFunction(() => (window as unknown as BenchWindow).pageReady === true, undefined, { timeout: 60000 });
            const webgl = await webglPage.evaluate((request) => (window as unknown as BenchWindow).runWebglBench(request), { size: COMPONENT_SIZE, budgetMs: 16 } as WebglBenchRequest);
            adapters["webgl2-chromium"] = webgl.adapter;
            records.push(...webgl.records);
            // The smooth-frames budget (4 ms): the main thread's share of each frame, the river batch's rows in bands.
            await webglPage.reload();
            await webglPage.waitForFunction(() => (window as unknown as BenchWindow).pageReady === true, undefined, { timeout: 60000 });
            const webglSmall = await webglPage.evaluate((request) => (window as unknown as BenchWindow).runWebglBench(request), { size: COMPONENT_SIZE, budgetMs: 4, skipEdits: true, warmUpCycles: WEBGL_WARM_UP_CYCLES } as WebglBenchRequest);
            records.push(...webglSmall.records);
            await webglPage.close();
        }
        if (!args.includes("--skip-sample") && sampleDir) {
            // Served cross-origin isolated, as the sample's own dev server serves it (its CPU backend's shared memory).
            const sample = await serveDirectories([resolve(sampleDir), resolve("sample-scene/public")], true);
            try {
                records.push(...(await samplePageRecords(browser, sample.origin)));
            } finally {
                await new Promise<void>((done) => sample.server.close(() => done()));
            }
        }
    } finally {
        await browser.close();
        await new Promise<void>((done) => server.close(() => done()));
    }
    if (jsonPath) {
        writeFileSync(jsonPath, JSON.stringify({ adapters, records }, null, 2));
    }
}

main().then(
    () => process.exit(0),
    (error) => {
        console.error(error);
        process.exit(1);
    }
);
