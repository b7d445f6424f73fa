/**
 * Benchmark page (npm run bench; not a test): the WebGPU kernel figures on the browser's own
 * adapter (bench/src/gpuKernels.ts, the same code Dawn runs), and the TerrainErosion component's
 * erosion cost per frame on a 513 x 513 ground at several frame budgets. Driven by
 * bench/src/chromiumMain.ts; every figure comes back as plain `BenchRecord`s.
 */
import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import "@babylonjs/core/Materials/standardMaterial.js";
import { TerrainErosion } from "../../../plugin/component/terrainErosion.js";
import type { ErosionFrameStats } from "../../../plugin/component/terrainErosion.js";
import { benchDeviceDescriptor, describeAdapter, runGpuKernelBench } from "../../../bench/src/gpuKernels.js";
import { summarize, type BenchRecord } from "../../../bench/src/records.js";
import { benchHeights } from "../../../bench/src/workloads.js";

/** What the driver asks for. */
export interface KernelBenchRequest {
    quick: boolean;
    sizes?: number[];
}

/** The component figures' setup. */
export interface ComponentBenchRequest {
    /** Vertices per side of the ground. */
    size: number;
    /** Frame budgets to measure, milliseconds: one full cycle each. */
    budgets: number[];
}

/** Records and the adapter they were measured on. */
export interface BenchPageResult {
    adapter: string;
    records: BenchRecord[];
}

async function runKernelBench(request: KernelBenchRequest): Promise<BenchPageResult> {
    const adapter = await navigator.gpu?.requestAdapter({ powerPreference: "high-performance" });
    if (!adapter) {
        throw new Error("This browser offers no WebGPU adapter.");
    }
    const description = `${describeAdapter(adapter.info)} (Chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? "?"})`;
    console.log(`Chromium adapter: ${description}; timestamp queries: ${adapter.features.has("timestamp-query") ? "yes" : "no"}`);
    const device = await adapter.requestDevice(benchDeviceDescriptor(adapter));
    try {
        const records = await runGpuKernelBench(device, description, { backend: "webgpu-chromium", quick: request.quick, sizes: request.sizes, log: (line) => console.log(line) });
        return { adapter: description, records };
    } finally {
        device.destroy();
    }
}

async function until(condition: () => boolean, what: string, timeoutMs = 600000): Promise<void> {
    const started = performance.now();
    while (!condition()) {
        if (performance.now() - started > timeoutMs) {
            throw new Error(`Timed out waiting for ${what}.`);
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
}

interface FrameSamples {
    cpuMs: number[];
    gpuMs: number[];
    /** How the component measured the GPU times (`lastFrame.measuredBy`: timestamp queries or submit to done). */
    gpuMeasuredBy: Set<string>;
    batches: number[];
    erosionFrames: number;
    renderedFrames: number;
}

async function runComponentBench(request: ComponentBenchRequest): Promise<BenchPageResult> {
    const { size, budgets } = request;
    const canvas = document.createElement("canvas");
    canvas.width = 320;
    canvas.height = 240;
    document.body.appendChild(canvas);
    const engine = new WebGPUEngine(canvas, { antialias: false });
    await engine.initAsync();
    const info = engine.getInfo();
    const adapter = `${info.vendor} ${info.renderer} ${info.version}`.trim();
    const scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 300, -400), scene).setTarget(Vector3.Zero());
    new HemisphericLight("light", new Vector3(0.3, 1, 0.2), scene);
    const ground = CreateGround("ground", { width: size - 1, height: size - 1, subdivisions: size - 1, updatable: true }, scene);
    const heights = benchHeights(size);
    const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
    for (let i = 0; i < size * size; i++) {
        positions[i * 3 + 1] = heights[i] / 65536;
    }
    ground.updateVerticesData(VertexBuffer.PositionKind, positions);
    // Not drawn: a frame's GPU time is then erosion's alone (the measured submission waits for
    // everything queued before it, and drawing half a million triangles on a software adapter
    // would dominate it). Erosion still writes the ground's vertex buffers every frame.
    ground.isVisible = false;

    const erosion = new TerrainErosion({ backend: "webgpu", autoStart: false, frameBudgetMs: budgets[0] });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    const position = () => erosion.cyclesCompleted * erosion.batchesPerCycle + Math.round(erosion.progress * erosion.batchesPerCycle);

    let samples: FrameSamples | null = null;
    let lastPosition = position();
    let lastMeasured: ErosionFrameStats | null = null;
    // Added after the component's own observer, so it runs after the component planned the frame.
    scene.onBeforeRenderObservable.add(() => {
        const now = position();
        if (samples && now !== lastPosition) {
            samples.erosionFrames++;
            samples.batches.push(now - lastPosition);
            samples.cpuMs.push(erosion.lastFrame.cpuMs);
        }
        lastPosition = now;
    });
    scene.onAfterRenderObservable.add(() => {
        if (samples) samples.renderedFrames++;
    });
    // A frame's measured GPU time arrives with its batches, when they reach the mesh.
    erosion.onPatchErodedObservable.add(() => {
        const frame = erosion.lastFrame;
        if (samples && frame !== lastMeasured && frame.measuredMs !== null) {
            samples.gpuMs.push(frame.measuredMs);
            samples.gpuMeasuredBy.add(String((frame as { measuredBy?: string | null }).measuredBy ?? "unknown"));
        }
        lastMeasured = frame;
    });
    engine.runRenderLoop(() => scene.render());

    const records: BenchRecord[] = [];
    const detail = `TerrainErosion (WebGPU) on a ${size} x ${size} ground, default options (patch 64, ${erosion.options.hydraulic.dropletsPerBatch} droplets a batch, brush ${erosion.options.hydraulic.brushRadius}), one full cycle of ${erosion.batchesPerCycle} batches; the ground is not drawn`;
    try {
        for (const budgetMs of budgets) {
            const target = erosion.cyclesCompleted + 1;
            erosion.setOptions({ frameBudgetMs: budgetMs, maxCycles: target });
            const current: FrameSamples = { cpuMs: [], gpuMs: [], gpuMeasuredBy: new Set(), batches: [], erosionFrames: 0, renderedFrames: 0 };
            samples = current;
            const started = performance.now();
            erosion.start();
            await until(() => !erosion.isRunning && erosion.cyclesCompleted >= target, `a cycle at a ${budgetMs} ms budget`);
            await erosion.whenIdle();
            samples = null;
            const seconds = (performance.now() - started) / 1000;
            console.log(`  component ${size}² budget ${budgetMs} ms: ${current.erosionFrames} erosion frames (${current.renderedFrames} rendered) in ${seconds.toFixed(1)} s`);
            const common = { backend: "component-chromium", size, brushRadius: erosion.options.hydraulic.brushRadius, threads: null, budgetMs };
            records.push({ ...common, kernel: "frame-gpu", unit: "ms", ...summarize(current.gpuMs), runs: current.gpuMs.length, detail: `${detail}; GPU time of a frame's erosion as the component measures it (lastFrame.measuredMs, by ${[...current.gpuMeasuredBy].join(", ")}: "timestamp" = timestamp queries around the frame's passes, "submitted" = submit to onSubmittedWorkDone)` });
            records.push({ ...common, kernel: "frame-cpu", unit: "ms", ...summarize(current.cpuMs), runs: current.cpuMs.length, detail: `${detail}; main-thread time the component spent planning and recording a frame (lastFrame.cpuMs)` });
            records.push({ ...common, kernel: "batches-per-frame", unit: "batches", ...summarize(current.batches), runs: current.batches.length, detail });
            records.push({ ...common, kernel: "frames-per-cycle", unit: "frames", median: current.erosionFrames, min: current.erosionFrames, max: current.erosionFrames, runs: 1, detail: `${detail}; frames that ran erosion (${current.renderedFrames} frames rendered, ${seconds.toFixed(1)} s)` });
        }
    } finally {
        engine.stopRenderLoop();
        ground.removeBehavior(erosion);
        await erosion.whenIdle();
        erosion.dispose();
        scene.dispose();
        engine.dispose();
        canvas.remove();
    }
    return { adapter: `${adapter} (Babylon WebGPUEngine)`, records };
}

Object.assign(window, { runKernelBench, runComponentBench, pageReady: true });
