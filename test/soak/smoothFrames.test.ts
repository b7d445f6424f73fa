/**
 * Smooth frames (the smooth-frames issue), measured in headless Chromium at 513², one full cycle
 * at a 4 ms frame budget after a warm-up cycle, on WebGPU (SwiftShader), with the shallow water off
 * and on: the 99th-percentile erosion frame within 3 times the median one and the longest within 6
 * times (one frame lengthened by a busy host is noise, a batch run whole is not), pieces of both kinds of cut
 * batch among the frames (the river batch whole was 72x the median, and with the water on its
 * one-pass frames of 6 ms made the median: 12.7x). The batches the budget cannot hold run in pieces
 * (`plugin/gpu/batchPieces.ts`), and where even a piece is more than the budget, frames of cheaper
 * batches are filled to a piece's cost (`FramePlanOptions.evenFrames`). A ratio of measurements of
 * one run, not a wall-clock limit (1.7x and 2.5x in the last runs here, with river_erode weighted
 * 32 in `batchPieces.ts`: at 11 its bands over the big channels made 3.1-3.3x with the water on). With
 * `SMOOTH_FRAMES_WEBGL=1` the CPU backend on WebGL2 is printed too (its main-thread figures are in
 * the bench: `webgl2-frame-main` at 4 ms). `SMOOTH_FRAMES_DUMP=1` prints every frame.
 */
import { openTestPage, type OpenPage } from "../helpers/browser.js";
import type { SmoothCycle, StartupFrames } from "../browser/pages/smoothFrames.js";
import type { ErosionOptionsInput } from "../../plugin/index.js";

const SIZE = 513;
const BUDGET_MS = 4;

function median(values: readonly number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) / 2)];
}

async function measure(engine: "webgpu" | "webgl2", options: ErosionOptionsInput, warmUpCycles = 1): Promise<SmoothCycle> {
    let browser: OpenPage | null = null;
    try {
        browser = await openTestPage("smoothFrames", [], engine === "webgpu" ? "?engine=webgpu" : "", true);
        const cycle = await browser.page.evaluate((request) => (window as unknown as { smoothCycle(r: unknown): Promise<SmoothCycle> }).smoothCycle(request), { size: SIZE, budgetMs: BUDGET_MS, options, timeoutMs: 900000, warmUpCycles });
        const longest = Math.max(...cycle.erosionMs);
        const p99 = [...cycle.erosionMs].sort((a, b) => a - b)[Math.floor(0.99 * (cycle.erosionMs.length - 1))];
        const worst = cycle.erosionMs
            .map((ms, k) => [ms, cycle.kinds[k]] as const)
            .sort((a, b) => b[0] - a[0])
            .slice(0, 5)
            .map(([ms, kind]) => `${ms.toFixed(0)} ms (${kind})`);
        console.log(`${engine} ${cycle.backend} (timed by ${cycle.measuredBy}) ${JSON.stringify(options)}: ${cycle.erosionMs.length} landed frames (${cycle.unsampled} unsampled, ${cycle.piecedFrames} of pieces, ${cycle.renderedFrames} rendered, ${cycle.seconds.toFixed(1)} s); erosion median ${median(cycle.erosionMs).toFixed(1)} ms, 99th percentile ${p99.toFixed(1)} ms (${(p99 / median(cycle.erosionMs)).toFixed(2)}x), longest ${longest.toFixed(1)} ms (${(longest / median(cycle.erosionMs)).toFixed(2)}x): ${worst.join(", ")}; main thread median ${median(cycle.mainThreadMs).toFixed(2)} ms, longest ${Math.max(...cycle.mainThreadMs).toFixed(2)} ms`);
        if (process.env.SMOOTH_FRAMES_DUMP) console.log(cycle.erosionMs.map((ms, k) => `${cycle.kinds[k]}: ${ms.toFixed(0)}`).join("\n"));
        if (process.env.SMOOTH_FRAMES_DUMP) console.log(cycle.mainThreadMs.map((ms, k) => `main ${cycle.mainThreadKinds[k]}: ${ms.toFixed(2)}`).join("\n"));
        return cycle;
    } finally {
        await browser?.close();
    }
}

describe("smooth frames at 513², a 4 ms budget (soak)", () => {
    const longestOverMedian = (cycle: SmoothCycle) => Math.max(...cycle.erosionMs) / median(cycle.erosionMs);
    const p99OverMedian = (cycle: SmoothCycle) => [...cycle.erosionMs].sort((a, b) => a - b)[Math.floor(0.99 * (cycle.erosionMs.length - 1))] / median(cycle.erosionMs);
    // The frames' shape, not one frame's noise: the 99th percentile within 3x the median, the longest
    // within 6x. A batch run whole (72x) or the water's one-pass frames (12.7x) break either; a single
    // frame the host's other work lengthened does not (a clean-clone CI run on a busy host measured
    // the longest at 3.55x with the 99th percentile at 2.67x).
    const expectEvenFrames = (cycle: SmoothCycle) => {
        expect(p99OverMedian(cycle)).toBeLessThanOrEqual(3);
        expect(longestOverMedian(cycle)).toBeLessThanOrEqual(6);
    };

    it("WebGPU: the 99th-percentile erosion frame within 3x the median one (the longest within 6x), the cut batches' pieces among them (the river batch whole was 72x)", async () => {
        const cycle = await measure("webgpu", {});
        expect(cycle.backend).toBe("webgpu");
        expect(cycle.piecedFrames).toBeGreaterThan(10);
        // Two frames may land between two looks (two in flight): the sampler misses the first of them.
        expect(cycle.unsampled).toBeLessThan(cycle.erosionMs.length / 4);
        // Both kinds of batch run in pieces: the rivers' (hundreds) and the droplets' (several each).
        expect(new Set(cycle.kinds.filter((kind) => kind.startsWith("pieces")).map((kind) => kind.replace(/^pieces \d+-\d+ of /, ""))).size).toBeGreaterThan(1);
        expectEvenFrames(cycle);
        // After V8's compiling threads settle (they still took a sixth of a core in the second cycle).
        if (process.env.SMOOTH_FRAMES_WEBGL) await measure("webgl2", {}, 8);
    }, 1200000);

    it("WebGPU start: the page renders on while the kernels compile and the state uploads (a frame each 20-40 ms on SwiftShader, not 6 frames in 4 s), no frame of it over 4x the running median, the first batches' frame within 12x", async () => {
        const browser = await openTestPage("smoothFrames", [], "?engine=webgpu", true);
        try {
            const start: StartupFrames = await browser.page.evaluate((request) => (window as unknown as { startupFrames(r: unknown): Promise<StartupFrames> }).startupFrames(request), { size: SIZE, budgetMs: 16 });
            const longest = [...start.intervals].sort((a, b) => b.ms - a.ms).slice(0, 5);
            const runningMedian = median(start.running);
            console.log(`WebGPU start at 513²: ${start.phases}; ${start.intervals.length} frames, the longest ${longest.map(({ ms, phase }) => `${ms.toFixed(0)} ms (${phase})`).join(", ")}; then, running, the median frame ${runningMedian.toFixed(0)} ms, the longest ${Math.max(...start.running).toFixed(0)} ms`);
            expect(start.backend).toBe("webgpu");
            // No frame of the start longer than a few of the running component's (render intervals, which vary
            // more than erosion's measured time: 3-440 ms at a 16 ms budget on SwiftShader). The attach's own
            // frame was 300 ms (Babylon's zero uploads of every storage buffer) and two frames of the WGSL
            // made side by side 390-610 ms; now the start's longest is 115-170 ms against a running median of
            // 72-110 ms. The frame the first batches land in is the longest of all, 250-450 ms (2.7x-6.2x in
            // eight runs; not the buffers' lazy zeroing: writing zeros to every buffer over the upload's
            // frames left it as it was): a bound of its own, which the first batches' frames of 600 ms
            // and more before the start ran in phases would break.
            // A clean-clone CI run on a faster host measured a running median of 52 ms and the first
            // batches' frame at 478 ms (9.2x), so that bound is 12x: the compile-in-one-frame start
            // it guards against (6 frames in 4 s) also fails the count of compiling frames below.
            const beforeRunning = start.intervals.filter(({ phase }) => phase !== "running");
            expect(Math.max(...beforeRunning.map(({ ms }) => ms))).toBeLessThanOrEqual(4 * runningMedian);
            expect(longest[0].ms).toBeLessThanOrEqual(12 * runningMedian);
            // Babylon compiled every pipeline inside the first erosion frame: 6-7 frames from attach to the first batches.
            const compiling = start.intervals.filter(({ phase }) => phase.startsWith("compiling-kernels"));
            expect(compiling.length).toBeGreaterThan(50);
        } finally {
            await browser.close();
        }
    }, 600000);

    it("WebGPU with the shallow water on: the 99th-percentile erosion frame within 3x the median one (the longest within 6x) (the water's one-pass frames made it 12.7x)", async () => {
        const cycle = await measure("webgpu", { water: { enabled: true } });
        // Frames of cheap batches (the water's passes) are filled to a piece's cost: many batches a frame.
        expect(cycle.kinds.some((kind) => /^\d+ batches$/.test(kind) && parseInt(kind, 10) > 4)).toBe(true);
        expectEvenFrames(cycle);
    }, 1200000);
});
