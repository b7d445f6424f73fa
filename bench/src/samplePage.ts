/**
 * The first hour's water page (issue 61: "the 129² page with water on runs about 6 minutes a cycle
 * on WebGPU (SwiftShader) and 4 on the CPU backend"): the built sample scene itself with `?water=1`,
 * as a newcomer opens it, on WebGPU and on WebGL2 with the CPU backend. On a software renderer the
 * sample picks its light terrain by itself (129 x 129, 256 droplets a batch, 20 frames a second at
 * most) and rains from the start. After its first cycle (the kernels' compile and the start's
 * frames), `CYCLES` cycles are timed from one boundary to the next: `water-page-cycle` (seconds a
 * cycle) and `water-page-frames` (frames rendered a cycle), `webgl2-` for the CPU backend's page.
 */
import type { Browser } from "playwright-core";
import type { BenchRecord } from "./records.js";
import { summarize } from "./records.js";

/** Cycles timed after the first. */
const CYCLES = 3;

interface PageCycles {
    readonly backend: string;
    readonly size: number;
    readonly budgetMs: number;
    readonly seconds: number[];
    readonly frames: number[];
}

/** Times `CYCLES` cycles of the sample at `origin` with `query` after its first one. */
async function timeCycles(browser: Browser, origin: string, query: string): Promise<PageCycles> {
    const page = await browser.newPage({ viewport: { width: 640, height: 400 } });
    page.on("pageerror", (error) => process.stderr.write(`[page error] ${String(error)}\n`));
    try {
        await page.goto(`${origin}/index.html${query}`);
        await page.waitForFunction(() => (window as unknown as { sample?: { erosion: { backend: string | null } } }).sample?.erosion.backend != null, undefined, { timeout: 300000 });
        return await page.evaluate(async (cycles) => {
            type SampleErosion = { backend: string; cyclesCompleted: number; options: { frameBudgetMs: number }; maps: { getFieldGridTransform(): { width: number } } };
            type SampleEngine = { onEndFrameObservable: { add(f: () => void): unknown; remove(o: unknown): void } };
            const { erosion, engine } = (window as unknown as { sample: { erosion: SampleErosion; engine: SampleEngine } }).sample;
            const nextBoundary = async (after: number) => {
                const deadline = performance.now() + 600000;
                while (erosion.cyclesCompleted <= after) {
                    if (performance.now() > deadline) throw new Error(`The sample did not complete cycle ${after + 1} within 10 minutes.`);
                    await new Promise((resolve) => setTimeout(resolve, 20));
                }
            };
            await nextBoundary(0);
            const seconds: number[] = [];
            const frames: number[] = [];
            for (let k = 0; k < cycles; k++) {
                const from = erosion.cyclesCompleted;
                let rendered = 0;
                const counter = engine.onEndFrameObservable.add(() => rendered++);
                const started = performance.now();
                await nextBoundary(from);
                engine.onEndFrameObservable.remove(counter);
                seconds.push((performance.now() - started) / 1000);
                frames.push(rendered);
            }
            return { backend: erosion.backend, size: erosion.maps.getFieldGridTransform().width, budgetMs: erosion.options.frameBudgetMs, seconds, frames };
        }, CYCLES);
    } finally {
        await page.close();
    }
}

/** The water page's figures from the sample served at `origin` (a fresh build of it). */
export async function samplePageRecords(browser: Browser, origin: string): Promise<BenchRecord[]> {
    const records: BenchRecord[] = [];
    for (const [prefix, query, what] of [
        ["", "?water=1", "the sample with ?water=1 on WebGPU"],
        ["webgl2-", "?water=1&engine=webgl2", "the sample with ?water=1 on WebGL2, the CPU backend in its worker"],
    ] as const) {
        const cycles = await timeCycles(browser, origin, query);
        const common = { backend: "component-chromium", size: cycles.size, brushRadius: null, threads: null, budgetMs: cycles.budgetMs };
        const detail =
            `${what} (${cycles.backend} backend; the sample's light terrain on a software renderer: ${cycles.size}², 256 droplets a batch, ` +
            `the shallow water on with its rain, at most 20 frames a second), ${CYCLES} cycles timed boundary to boundary after the first`;
        records.push({ ...common, kernel: `${prefix}water-page-cycle`, unit: "s", ...summarize(cycles.seconds), runs: CYCLES, detail: `${detail}; seconds a cycle` });
        records.push({ ...common, kernel: `${prefix}water-page-frames`, unit: "frames", ...summarize(cycles.frames), runs: CYCLES, detail: `${detail}; frames rendered a cycle` });
    }
    return records;
}
