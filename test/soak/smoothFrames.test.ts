/**
 * Smooth frames (the smooth-frames issue), measured in headless Chromium at 513², one full cycle
 * at a 4 ms frame budget after a warm-up cycle: on WebGPU (SwiftShader) no frame of the river
 * batch's pieces is longer than 3 times the median erosion frame. A ratio of measurements of one
 * run, not a wall-clock limit. Not met yet, so not asserted (printed): the longest frame overall
 * within 3x the median (a droplet batch's, which is not cut into pieces), the same with the
 * shallow water on (its one-pass frames of a few ms make the median, and a droplet batch is some
 * 60 times that). The page measures the CPU backend (WebGL2) too (`measure("webgl2", ...)`); its
 * main-thread figures are in the bench (`webgl2-frame-main` at 4 ms). `SMOOTH_FRAMES_DUMP=1`
 * prints every frame.
 */
import { openTestPage, type OpenPage } from "../helpers/browser.js";
import type { SmoothCycle } from "../browser/pages/smoothFrames.js";
import type { ErosionOptionsInput } from "../../plugin/index.js";

const SIZE = 513;
const BUDGET_MS = 4;

function median(values: readonly number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) / 2)];
}

async function measure(engine: "webgpu" | "webgl2", options: ErosionOptionsInput): Promise<SmoothCycle> {
    let browser: OpenPage | null = null;
    try {
        browser = await openTestPage("smoothFrames", [], engine === "webgpu" ? "?engine=webgpu" : "", true);
        const cycle = await browser.page.evaluate((request) => (window as unknown as { smoothCycle(r: unknown): Promise<SmoothCycle> }).smoothCycle(request), { size: SIZE, budgetMs: BUDGET_MS, options, timeoutMs: 900000 });
        const longest = Math.max(...cycle.erosionMs);
        const worst = cycle.erosionMs
            .map((ms, k) => [ms, cycle.kinds[k]] as const)
            .sort((a, b) => b[0] - a[0])
            .slice(0, 5)
            .map(([ms, kind]) => `${ms.toFixed(0)} ms (${kind})`);
        console.log(`${engine} ${cycle.backend} ${JSON.stringify(options)}: ${cycle.erosionMs.length} landed frames (${cycle.unsampled} unsampled, ${cycle.piecedFrames} of pieces, ${cycle.renderedFrames} rendered, ${cycle.seconds.toFixed(1)} s); erosion median ${median(cycle.erosionMs).toFixed(1)} ms, longest ${longest.toFixed(1)} ms (${(longest / median(cycle.erosionMs)).toFixed(2)}x): ${worst.join(", ")}; main thread median ${median(cycle.mainThreadMs).toFixed(2)} ms, longest ${Math.max(...cycle.mainThreadMs).toFixed(2)} ms`);
        if (process.env.SMOOTH_FRAMES_DUMP) console.log(cycle.erosionMs.map((ms, k) => `${cycle.kinds[k]}: ${ms.toFixed(0)}`).join("\n"));
        if (process.env.SMOOTH_FRAMES_DUMP) console.log(cycle.mainThreadMs.map((ms, k) => `main ${cycle.mainThreadKinds[k]}: ${ms.toFixed(2)}`).join("\n"));
        return cycle;
    } finally {
        await browser?.close();
    }
}

describe("smooth frames at 513², a 4 ms budget (soak)", () => {
    it("WebGPU: no frame of the river batch's pieces is longer than 3x the median erosion frame (the whole batch was 72x)", async () => {
        const cycle = await measure("webgpu", {});
        expect(cycle.backend).toBe("webgpu");
        expect(cycle.piecedFrames).toBeGreaterThan(10);
        // Two frames may land between two looks (two in flight): the sampler misses the first of them.
        expect(cycle.unsampled).toBeLessThan(cycle.erosionMs.length / 4);
        const pieces = cycle.erosionMs.filter((_, k) => cycle.kinds[k].startsWith("pieces"));
        expect(Math.max(...pieces)).toBeLessThanOrEqual(3 * median(cycle.erosionMs));
        // Not asserted: the longest frame overall, a droplet batch's (not cut into pieces yet), which
        // came to 2.5x the median alone and 3.6x with another process busy beside it.
    }, 1200000);
});
