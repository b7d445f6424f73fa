/**
 * Ground edits on a real engine (headless Chromium, WebGPU on SwiftShader, the CPU backend in its Web
 * Worker): frames from `dig` to the changed vertices, paused and running, at a budget of one batch a
 * frame and at a large one (figures printed); frames from `undo()` to its answer, with nothing to
 * undo and with a dig; erosion's pace on the CPU backend during a stroke of edits; and edits of every kind made while erosion runs give
 * the CPU reference's terrain at the stamps their handles report, and again after a snapshot taken
 * with edits pending is restored (at a large budget and on the CPU backend too: test/soak/).
 */
import { openTestPage, type OpenPage } from "../helpers/browser.js";
import { checkStampedRun } from "../helpers/groundEditRuns.js";
import type { LatencyRequest, LatencyResult, StrokeRequest, StrokeResult, UndoLatencyRequest, UndoLatencyResult } from "./pages/groundEdits.js";

describe("ground edits reach the mesh", () => {
    let browser: OpenPage;
    beforeAll(async () => {
        browser = await openTestPage("groundEdits", [], "?engine=webgpu");
    }, 120000);
    afterAll(() => browser?.close());

    const run = (request: LatencyRequest) => browser.page.evaluate((r) => (window as unknown as { editLatency(r: LatencyRequest): Promise<LatencyResult> }).editLatency(r), request);

    it("within 2 frames on WebGPU and 3 on the CPU backend, paused or running, at any budget", async () => {
        const cases: LatencyRequest[] = [
            { backend: "webgpu", autoStart: false, frameBudgetMs: 8 },
            { backend: "webgpu", autoStart: true, frameBudgetMs: 0.05 },
            { backend: "cpu", autoStart: true, frameBudgetMs: 50 },
        ];
        for (const request of cases) {
            const result = await run(request);
            console.log(`${result.backend}, ${request.autoStart ? `running at ${request.frameBudgetMs} ms` : "paused"}: the CPU data after ${result.framesToCpuData} frame(s), the vertex buffer after ${result.framesToVertexBuffer ?? "-"}; height at the centre ${result.heightBefore.toFixed(2)} -> ${result.heightAfter.toFixed(2)}`);
            expect(result.backend).toBe(request.backend);
            expect(result.framesToCpuData).toBeGreaterThan(0);
            expect(result.framesToCpuData).toBeLessThanOrEqual(request.backend === "webgpu" ? 2 : 3);
            if (request.backend === "webgpu") expect(result.framesToVertexBuffer).toBeLessThanOrEqual(2);
            expect(result.heightBefore - result.heightAfter).toBeGreaterThan(2.5);
        }
        expect(browser.errors).toEqual([]);
    }, 240000);

    it("undo answers within a frame with nothing to undo and within a few frames with a dig, on both backends (129², the defaults, running)", async () => {
        for (const backend of ["webgpu", "cpu"] as const) {
            const request: UndoLatencyRequest = { backend, size: 129 };
            const result = await browser.page.evaluate((r) => (window as unknown as { undoLatency(r: UndoLatencyRequest): Promise<UndoLatencyResult> }).undoLatency(r), request);
            const { empty, real } = result;
            console.log(`${result.backend}: an empty undo ${empty.ms.toFixed(1)} ms (${empty.frames} frames), a dig's undo ${real.ms.toFixed(0)} ms (${real.frames} frames)`);
            expect(result.backend).toBe(backend);
            expect(empty.frames).toBe(0);
            expect(real.taken).toBe(1);
            // WebGPU rewinds to the cycle's start and replays the batches since on SwiftShader while the
            // page renders (a frame every 0.4-0.8 s on 2 loaded cores): 3-8 frames measured (bench
            // undo-frames), 7 in a CI run; the CPU backend's replay is in its worker, 2-5 frames.
            expect(real.frames).toBeLessThanOrEqual(backend === "webgpu" ? 10 : 6);
            expect(real.heightBefore - real.heightDug).toBeGreaterThan(2.5);
            expect(Math.abs(real.heightAfter - real.heightBefore)).toBeLessThan(0.5);
        }
        expect(browser.errors).toEqual([]);
    }, 240000);

    it("a stroke of 15 edits leaves the CPU backend's erosion batches a second within 2x of the undisturbed rate (129², water on, a few frames a second)", async () => {
        // A heavy scene on a software renderer: 150 ms of main thread a frame, digs every 100 ms (one due at nearly every frame).
        const request: StrokeRequest = { backend: "cpu", size: 129, edits: 15, intervalMs: 100, windowS: 6, water: true, renderCostMs: 150 };
        const result = await browser.page.evaluate((r) => (window as unknown as { strokeRate(r: StrokeRequest): Promise<StrokeResult> }).strokeRate(r), request);
        const { undisturbed, stroke } = result;
        const rate = (part: { batches: number; seconds: number }) => part.batches / part.seconds;
        console.log(`cpu: ${rate(undisturbed).toFixed(2)} batches/s undisturbed (${undisturbed.batches} in ${undisturbed.seconds.toFixed(1)} s, ${undisturbed.fps.toFixed(1)} fps), ${rate(stroke).toFixed(2)} during a stroke of 15 edits (${stroke.batches} in ${stroke.seconds.toFixed(1)} s, ${stroke.fps.toFixed(1)} fps)`);
        expect(result.backend).toBe("cpu");
        expect(undisturbed.batches).toBeGreaterThan(5);
        expect(rate(stroke)).toBeGreaterThanOrEqual(rate(undisturbed) / 2);
        expect(browser.errors).toEqual([]);
    }, 240000);

    it("edits made while erosion runs on WebGPU at one batch a frame give the CPU reference's terrain at their stamps, and again after a snapshot round trip", async () => {
        await checkStampedRun(browser, { backend: "webgpu", frameBudgetMs: 0.05, cycles: 3 });
        expect(browser.errors).toEqual([]);
    }, 300000);
});
