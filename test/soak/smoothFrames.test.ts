/**
 * Smooth frames (the smooth-frames issue), measured in headless Chromium at 513², one full cycle
 * at a 4 ms frame budget after a warm-up cycle: on WebGPU (SwiftShader) the longest erosion frame
 * is at most 3 times the median (the river batch in pieces); on the CPU backend (WebGL2) the main
 * thread's erosion work stays within the budget plus 2 ms in 95% of the frames (the river batch's
 * rows applied a band at a time). Ratios and shares of measurements of one run, not wall-clock
 * limits. Not met yet, so not asserted (printed): the same ratio with the shallow water on (its
 * one-pass frames of a few ms make the median, and a droplet batch is some 60 times that), and the
 * CPU backend's longest main-thread frame. `SMOOTH_FRAMES_DUMP=1` prints every frame.
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

function percentile(values: readonly number[], fraction: number): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
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
    it("WebGPU: the longest erosion frame of a cycle is at most 3x the median, the river batch in pieces", async () => {
        const cycle = await measure("webgpu", {});
        expect(cycle.backend).toBe("webgpu");
        expect(cycle.piecedFrames).toBeGreaterThan(10);
        expect(cycle.unsampled).toBeLessThan(cycle.erosionMs.length / 10);
        expect(Math.max(...cycle.erosionMs)).toBeLessThanOrEqual(3 * median(cycle.erosionMs));
    }, 1200000);

    it("the CPU backend (WebGL2): the main thread's erosion work stays within the budget plus 2 ms in 95% of frames, the river batch's rows applied in bands", async () => {
        const cycle = await measure("webgl2", {});
        expect(cycle.backend).toBe("cpu");
        expect(cycle.piecedFrames).toBeGreaterThan(2);
        // Not the longest frame: single bands of 8 rows measured 7 ms now and then (a stall in
        // SwiftShader's WebGL buffer upload or a collection), where most take 0.2 ms.
        expect(percentile(cycle.mainThreadMs, 0.95)).toBeLessThanOrEqual(BUDGET_MS + 2);
    }, 1200000);
});
