/**
 * Benchmark page (npm run bench; not a test): the main thread's share of erosion on WebGL2, where
 * the CPU backend erodes in a Web Worker and the main thread plans each frame and brings the
 * ground up to date with the rows that changed (positions, normals, height quads, bounds, the
 * vertex buffers' upload, and the maps texture's rows, as the sample's material plugin asks for
 * them). A 513 x 513 ground, default options, one full cycle at a 16 ms budget, and one at 4 ms
 * after `warmUpCycles` cycles. Driven by bench/src/chromiumMain.ts.
 */
import { editLatencyRecords, undoLatencyRecords } from "./editLatency.js";
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { createGroundFromHeights } from "../../plugin/terrain.js";
import { fixedToHeights, TerrainErosion } from "../../plugin/index.js";
import { summarize, type BenchRecord } from "../src/records.js";
import { benchHeights } from "../src/workloads.js";
import type { BenchPageResult } from "./benchGpu.js";

/** What the driver asks for. */
export interface WebglBenchRequest {
    /** Vertices a side. */
    size: number;
    /** Frame budget, milliseconds. */
    budgetMs: number;
    /** Leave out the ground-edit figures (a second budget's run). */
    skipEdits?: boolean;
    /**
     * Cycles run before the measured one (0 by default): V8 still compiled the main thread's and
     * the worker's code on its background threads through the second cycle (TurboFan and Maglev,
     * a sixth of a core, on two cores shared with the worker and the GPU process).
     */
    warmUpCycles?: number;
}

async function runWebglBench(request: WebglBenchRequest): Promise<BenchPageResult> {
    const canvas = document.createElement("canvas");
    canvas.width = 320;
    canvas.height = 240;
    document.body.appendChild(canvas);
    const engine = new Engine(canvas, false);
    const scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 300, -400), scene).setTarget(Vector3.Zero());
    const { size, budgetMs } = request;
    const ground = createGroundFromHeights("ground", fixedToHeights(benchHeights(size)), { columns: size, rows: size, extent: { width: size - 1, height: size - 1 } }, scene);
    ground.isVisible = false;
    const warmUp = request.warmUpCycles ?? 0;
    const erosion = new TerrainErosion({ backend: "cpu", autoStart: false, frameBudgetMs: budgetMs, maxCycles: warmUp + 1 });
    ground.addBehavior(erosion, true);
    await erosion.whenReady();
    await erosion.maps.getMapsTexture(); // as the sample's material plugin does: the worker sends the maps' changed rows too
    const plan: number[] = [];
    const apply: number[] = [];
    const main: number[] = [];
    const post: number[] = [];
    const intervals: number[] = [];
    let last = erosion.lastFrame;
    let lastRendered = 0;
    scene.onAfterRenderObservable.add(() => {
        const frame = erosion.lastFrame;
        const now = performance.now();
        if (erosion.cyclesCompleted < warmUp) {
            last = frame;
            lastRendered = now;
            return;
        }
        if (lastRendered > 0 && erosion.isRunning) intervals.push(now - lastRendered);
        lastRendered = now;
        if (frame.landed !== last.landed && frame.batches > 0) post.push(frame.postMs);
        // A rendered frame that planned a frame or applied rows (the rows of a batch come back a band a frame).
        if (frame !== last && frame.cpuMs + frame.applyMs > 0) {
            plan.push(frame.cpuMs);
            apply.push(frame.applyMs);
            main.push(frame.cpuMs + frame.applyMs);
        }
        last = frame;
    });
    engine.runRenderLoop(() => scene.render());
    erosion.start();
    while (erosion.cyclesCompleted < warmUp) {
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const started = performance.now();
    while (erosion.isRunning || erosion.cyclesCompleted < warmUp + 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await erosion.whenIdle();
    const seconds = (performance.now() - started) / 1000;
    // Ground edits on the running component, the render loop still going (editLatency.ts).
    const edits = request.skipEdits ? [] : (await editLatencyRecords(scene, erosion, size, 5, { backend: "component-chromium", size, brushRadius: 3, threads: null, budgetMs }, `TerrainErosion (CPU backend in a Web Worker) on WebGL2, a ${size} x ${size} ground, default options`)).map((record) => ({ ...record, kernel: `webgl2-${record.kernel}` }));
    const undoWhat = "TerrainErosion (CPU backend in a Web Worker) on WebGL2";
    const undos = request.skipEdits ? [] : (await undoLatencyRecords(scene, "cpu", 5, { backend: "component-chromium" }, undoWhat)).map((record) => ({ ...record, kernel: `webgl2-${record.kernel}` }));
    engine.stopRenderLoop();
    const info = engine.getInfo();
    const detail = `TerrainErosion (CPU backend in a Web Worker, ${erosion.backendInWorker ? "worker" : "calling thread"}) on WebGL2 (${info.renderer}), a ${size} x ${size} ground, default options, the maps texture on, one cycle of ${erosion.batchesPerCycle} batches at a ${budgetMs} ms budget in ${seconds.toFixed(1)} s${warmUp > 0 ? ` after ${warmUp} warm-up cycles` : ""}, ${main.length} frames that brought rows back`;
    const record = (kernel: string, values: number[], what: string): BenchRecord => ({ backend: "component-chromium", kernel, size, brushRadius: 3, threads: null, unit: "ms", ...summarize(values), runs: values.length, budgetMs, detail: `${detail}: ${what}` });
    const records: BenchRecord[] = [
        ...edits,
        ...undos,
        record("webgl2-frame-main", main, "main-thread ms a frame, planning plus applying the rows (lastFrame.cpuMs + lastFrame.applyMs; the rows applied a band at a time within what the budget leaves)"),
        record("webgl2-frame-main-p95", [percentile95(main)], "the 95th percentile of the main-thread ms a frame"),
        record("webgl2-frame-plan", plan, "planning the batches (lastFrame.cpuMs)"),
        record("webgl2-frame-post", post, "handing each landed frame's batches to the worker, posted in a task of its own after the rendered frame that planned them (lastFrame.postMs; not in a frame's main-thread time)"),
        record("webgl2-frame-interval", intervals, "the render loop's interval from one rendered frame to the next while the cycle ran (the ground not drawn)"),
        record("webgl2-frame-apply", apply, "applying the changed rows: CPU data, vertex buffer and maps texture uploads (lastFrame.applyMs)"),
    ];
    erosion.dispose();
    engine.dispose();
    return { adapter: `${info.vendor} ${info.renderer} ${info.version}`.trim(), records };
}

function percentile95(values: readonly number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? 0;
}

Object.assign(window, { runWebglBench, pageReady: true });
