/**
 * Benchmark page (npm run bench; not a test): the WebGPU kernel figures on the browser's own
 * adapter (bench/src/gpuKernels.ts, the same code Dawn runs), and the TerrainErosion component's
 * erosion cost per frame on a 513 x 513 ground at several frame budgets (every operator on, the
 * defaults), with the river operator off and with the maps texture enabled (at 16 ms), and the cost
 * of an `erodeAt` event. Driven by
 * bench/src/chromiumMain.ts; every figure comes back as plain `BenchRecord`s.
 */
import { editLatencyRecords, undoLatencyRecords } from "./editLatency.js";
import { startupRecords } from "./startupFigures.js";
import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import "@babylonjs/core/Materials/standardMaterial.js";
import { TerrainErosion } from "../../plugin/index.js";
import { benchDeviceDescriptor, describeAdapter, runGpuKernelBench } from "../src/gpuKernels.js";
import { runCounts, summarize, type BenchRecord } from "../src/records.js";
import { benchHeights } from "../src/workloads.js";

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
    /** Fewer erodeAt events and fewer sampled frames without rivers and with the maps texture. */
    quick?: boolean;
    /** Only the ground edits' figures (`--edits-only`: a rerun of those alone). */
    editsOnly?: boolean;
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
    /** Landed frames the sampler did not see (two landed between its looks): their GPU time is not in `gpuMs`. */
    unsampled: number;
}

function emptySamples(): FrameSamples {
    return { cpuMs: [], gpuMs: [], gpuMeasuredBy: new Set(), batches: [], erosionFrames: 0, renderedFrames: 0, unsampled: 0 };
}

/**
 * Watches a component's frames: while `samples` is set, each frame's batches and main-thread time
 * (after the component planned the frame) and each frame's measured GPU time (when its batches
 * reach the mesh) go into it.
 */
class FrameSampler {
    public samples: FrameSamples | null = null;
    private _lastPosition: number;
    private _lastLanded = 0;
    private readonly _cleanup: (() => void)[] = [];

    constructor(
        _scene: Scene,
        private readonly _erosion: TerrainErosion
    ) {
        this._lastPosition = this.position();
        // Added after the component's own observer, so it runs after the component planned the frame.
        const before = _scene.onBeforeRenderObservable.add(() => {
            const now = this.position();
            // A frame that planned batches (erosion frames are counted as they land: a range of a
            // river batch's pieces plans none).
            if (this.samples && now !== this._lastPosition) {
                this.samples.batches.push(now - this._lastPosition);
                this.samples.cpuMs.push(_erosion.lastFrame.cpuMs);
            }
            this._lastPosition = now;
        });
        const after = _scene.onAfterRenderObservable.add(() => {
            if (this.samples) this.samples.renderedFrames++;
        });
        // A frame's measured GPU time arrives when it lands (a range of a river batch's pieces
        // included, which reports no batch): each landed frame is sampled once (`lastFrame.landed`).
        const sampleLanded = () => {
            const frame = _erosion.lastFrame;
            if (this.samples) this.samples.erosionFrames += Math.max(0, frame.landed - this._lastLanded);
            if (this.samples && frame.landed !== this._lastLanded && frame.measuredMs !== null) {
                this.samples.gpuMs.push(frame.measuredMs);
                this.samples.gpuMeasuredBy.add(String(frame.measuredBy ?? "unknown"));
                this.samples.unsampled += Math.max(0, frame.landed - this._lastLanded - 1);
            }
            this._lastLanded = frame.landed;
        };
        const eroded = _erosion.onPatchErodedObservable.add(sampleLanded);
        const landedBefore = _scene.onBeforeRenderObservable.add(sampleLanded);
        const landedAfter = _scene.onAfterRenderObservable.add(sampleLanded);
        this._cleanup.push(
            () => _scene.onBeforeRenderObservable.remove(before),
            () => _scene.onAfterRenderObservable.remove(after),
            () => _erosion.onPatchErodedObservable.remove(eroded),
            () => _scene.onBeforeRenderObservable.remove(landedBefore),
            () => _scene.onAfterRenderObservable.remove(landedAfter)
        );
    }

    /** Batches planned since attach (cycles x batches a cycle + the position in the cycle). */
    public position(): number {
        const erosion = this._erosion;
        return erosion.cyclesCompleted * erosion.batchesPerCycle + Math.round(erosion.progress * erosion.batchesPerCycle);
    }

    /** Starts sampling into fresh samples (from the current position: options may just have changed the cycle's length). */
    public begin(): FrameSamples {
        this._lastPosition = this.position();
        this.samples = emptySamples();
        return this.samples;
    }

    public end(): void {
        this.samples = null;
    }

    public dispose(): void {
        this.samples = null;
        this._cleanup.forEach((remove) => remove());
    }
}

/** The component figures of one run (a cycle, or a window of frames): frame-gpu, frame-cpu, batches-per-frame (kernel names + `suffix`). */
function frameRecords(current: FrameSamples, common: Omit<BenchRecord, "kernel" | "unit" | "median" | "min" | "max" | "runs" | "detail">, detail: string, suffix: string): BenchRecord[] {
    return [
        { ...common, kernel: `frame-gpu${suffix}`, unit: "ms", ...summarize(current.gpuMs), runs: current.gpuMs.length, detail: `${detail}; GPU time of a frame's erosion as the component measures it (lastFrame.measuredMs, by ${[...current.gpuMeasuredBy].join(", ")}: "timestamp" = timestamp queries around the frame's passes, "submitted" = submit to onSubmittedWorkDone)` },
        { ...common, kernel: `frame-cpu${suffix}`, unit: "ms", ...summarize(current.cpuMs), runs: current.cpuMs.length, detail: `${detail}; main-thread time the component spent planning and recording a frame (lastFrame.cpuMs)` },
        { ...common, kernel: `batches-per-frame${suffix}`, unit: "batches", ...summarize(current.batches), runs: current.batches.length, detail },
        ...spreadRecords(current.gpuMs, common, detail, suffix),
    ];
}

/** The 95th percentile of the frames' GPU time and the longest frame over the median: the hitch the smooth-frames issue bounds (3x). */
function spreadRecords(gpuMs: readonly number[], common: Omit<BenchRecord, "kernel" | "unit" | "median" | "min" | "max" | "runs" | "detail">, detail: string, suffix: string): BenchRecord[] {
    if (gpuMs.length === 0) return [];
    const sorted = [...gpuMs].sort((a, b) => a - b);
    const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)];
    const median = sorted[Math.floor((sorted.length - 1) / 2)];
    const ratio = median > 0 ? sorted[sorted.length - 1] / median : 0;
    return [
        { ...common, kernel: `frame-gpu-p95${suffix}`, unit: "ms", median: p95, min: p95, max: p95, runs: gpuMs.length, detail: `${detail}; the 95th percentile of the frames' GPU time` },
        { ...common, kernel: `frame-max-over-median${suffix}`, unit: "x", median: ratio, min: ratio, max: ratio, runs: gpuMs.length, detail: `${detail}; the longest frame's GPU time over the median frame's (a whole-field batch's hitch)` },
    ];
}

/** Budget of the no-rivers, maps and erodeAt figures, milliseconds (a 60 Hz frame). */
const VARIANT_BUDGET_MS = 16;

/** Erosion frames the no-rivers and maps figures sample (after `VARIANT_WARMUP_FRAMES`): full and `quick`. */
const VARIANT_FRAMES = { full: 64, quick: 24 };

/** Erosion frames a fresh component runs unsampled first, so its frame budget learns what a batch costs. */
const VARIANT_WARMUP_FRAMES = 8;

/** Radius of the erodeAt figure's events, world units (metres: one cell a metre here). */
const EVENT_RADIUS = 30;

async function runComponentBench(request: ComponentBenchRequest): Promise<BenchPageResult> {
    const { size, budgets } = request;
    const quick = request.quick ?? false;
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

    // The start first, while the render loop runs and before any kernel compiled (startupFigures.ts).
    engine.runRenderLoop(() => scene.render());
    const started = await startupRecords(scene, ground, { backend: "webgpu", frameBudgetMs: budgets[0] }, { backend: "component-chromium", size, brushRadius: null, threads: null, budgetMs: budgets[0] }, `TerrainErosion (WebGPU) on a ${size} x ${size} ground, default options`);
    let erosion = started.erosion;
    let sampler = new FrameSampler(scene, erosion);

    /** Replaces the component with a fresh one (from cycle 0 on the ground as it is now). */
    const replaceComponent = async (options: ConstructorParameters<typeof TerrainErosion>[0]) => {
        sampler.dispose();
        ground.removeBehavior(erosion);
        await erosion.whenIdle();
        erosion.dispose();
        erosion = new TerrainErosion(options);
        ground.addBehavior(erosion);
        await erosion.whenReady();
        sampler = new FrameSampler(scene, erosion);
    };

    const records: BenchRecord[] = [...started.records];
    // The budgets' cycles start from a fresh component at cycle 0 (the start ran a batch or two).
    await replaceComponent({ backend: "webgpu", autoStart: false, frameBudgetMs: budgets[0] });
    const describe = () => `TerrainErosion (WebGPU) on a ${size} x ${size} ground, default options (patch 64, ${erosion.options.hydraulic.dropletsPerBatch} droplets a batch, brush ${erosion.options.hydraulic.brushRadius})`;
    try {
        const detail = `${describe()}, one full cycle of ${erosion.batchesPerCycle} batches; the ground is not drawn`;
        for (const budgetMs of request.editsOnly ? [] : budgets) {
            const target = erosion.cyclesCompleted + 1;
            erosion.setOptions({ frameBudgetMs: budgetMs, maxCycles: target });
            const current = sampler.begin();
            const started = performance.now();
            erosion.start();
            await until(() => !erosion.isRunning && erosion.cyclesCompleted >= target, `a cycle at a ${budgetMs} ms budget`);
            await erosion.whenIdle();
            sampler.end();
            const seconds = (performance.now() - started) / 1000;
            console.log(`  component ${size}² budget ${budgetMs} ms: ${current.erosionFrames} erosion frames (${current.renderedFrames} rendered) in ${seconds.toFixed(1)} s`);
            const common = { backend: "component-chromium", size, brushRadius: erosion.options.hydraulic.brushRadius, threads: null, budgetMs };
            records.push(...frameRecords(current, common, detail, ""));
            records.push({ ...common, kernel: "frames-per-cycle", unit: "frames", median: current.erosionFrames, min: current.erosionFrames, max: current.erosionFrames, runs: 1, detail: `${detail}; frames that ran erosion (${current.renderedFrames} frames rendered, ${seconds.toFixed(1)} s)` });
        }

        if (!request.editsOnly) records.push(...(await runErodeAtFigures(scene, erosion, size, quick)));
        // Ground edits while erosion runs (editLatency.ts).
        erosion.setOptions({ frameBudgetMs: 16 });
        records.push(...(await editLatencyRecords(scene, erosion, size, quick ? 3 : 8, { backend: "component-chromium", size, brushRadius: erosion.options.hydraulic.brushRadius, threads: null, budgetMs: 16 }, describe())));
        // Undo on a ground of its own, the first hour's size (editLatency.ts).
        records.push(...(await undoLatencyRecords(scene, "webgpu", quick ? 3 : 7, { backend: "component-chromium" }, "TerrainErosion (WebGPU)")));
        if (request.editsOnly) return { adapter: `${adapter} (Babylon WebGPUEngine)`, records };

        // Rivers off, then the maps texture (which stays on once enabled): each a fresh component from cycle 0.
        const variants = [
            { suffix: "-no-rivers", what: "the river operator off (rivers: { enabled: false }: droplet and thermal batches only)", options: { rivers: { enabled: false } }, maps: false },
            { suffix: "-maps", what: "the maps texture enabled (getMapsTexture(): write_maps over the whole ground after every frame, in the frame's timed passes)", options: {}, maps: true },
            { suffix: "-water", what: "the shallow water on as well (water: { enabled: true }, the defaults: 16 steps a cycle, each seven passes over every patch)", options: { water: { enabled: true } }, maps: false },
        ];
        const windowFrames = quick ? VARIANT_FRAMES.quick : VARIANT_FRAMES.full;
        for (const variant of variants) {
            await replaceComponent({ backend: "webgpu", autoStart: false, frameBudgetMs: VARIANT_BUDGET_MS, ...variant.options });
            if (variant.maps) {
                await erosion.maps.getMapsTexture();
            }
            const batchesPerCycle = erosion.batchesPerCycle;
            const warmup = sampler.begin();
            erosion.start();
            await until(() => warmup.erosionFrames >= VARIANT_WARMUP_FRAMES, `warm-up frames with ${variant.suffix.slice(1)}`);
            const current = sampler.begin();
            const started = performance.now();
            await until(() => current.erosionFrames >= windowFrames, `frames with ${variant.suffix.slice(1)}`);
            erosion.pause();
            await erosion.whenIdle();
            sampler.end();
            const seconds = (performance.now() - started) / 1000;
            console.log(`  component ${size}² ${variant.suffix.slice(1)} budget ${VARIANT_BUDGET_MS} ms: ${current.erosionFrames} erosion frames (${current.renderedFrames} rendered) in ${seconds.toFixed(1)} s`);
            const variantDetail = `${describe()} with ${variant.what}; a fresh component (cycles of ${batchesPerCycle} batches): ${VARIANT_WARMUP_FRAMES} erosion frames unsampled (the frame budget learns the batches' cost), then ${current.erosionFrames} erosion frames sampled (${current.renderedFrames} rendered, ${seconds.toFixed(1)} s); the ground is not drawn`;
            const common = { backend: "component-chromium", size, brushRadius: erosion.options.hydraulic.brushRadius, threads: null, budgetMs: VARIANT_BUDGET_MS };
            records.push(...frameRecords(current, common, variantDetail, variant.suffix));
        }
    } finally {
        engine.stopRenderLoop();
        sampler.dispose();
        ground.removeBehavior(erosion);
        await erosion.whenIdle();
        erosion.dispose();
        scene.dispose();
        engine.dispose();
        canvas.remove();
    }
    return { adapter: `${adapter} (Babylon WebGPUEngine)`, records };
}

/**
 * The erodeAt figures: local erosion events of `EVENT_RADIUS` m, each called at a cycle boundary
 * with the droplet and thermal operators disabled, so the event's batch is its cycle's only batch
 * and its frame's GPU time is the event's alone. A warm-up event, then 3 (quick) or 7 measured.
 */
async function runErodeAtFigures(scene: Scene, erosion: TerrainErosion, size: number, quick: boolean): Promise<BenchRecord[]> {
    const counts = runCounts(quick);
    const brushRadius = erosion.options.hydraulic.brushRadius;
    erosion.setOptions({ frameBudgetMs: VARIANT_BUDGET_MS, hydraulic: { enabled: false }, thermal: { enabled: false } });
    let rendered = 0;
    let landed: { frames: number; gpuMs: number | null; by: string | null; batches: number } | null = null;
    const after = scene.onAfterRenderObservable.add(() => rendered++);
    const eroded = erosion.onPatchErodedObservable.add((event) => {
        if (event.operator === "local" && !landed) {
            const frame = erosion.lastFrame;
            landed = { frames: rendered, gpuMs: frame.measuredMs, by: frame.measuredBy, batches: frame.batches };
        }
    });
    const frames: number[] = [];
    const gpuMs: number[] = [];
    const measuredBy = new Set<string>();
    let droplets = 0;
    try {
        const events = Math.max(1, counts.warmup) + counts.runs;
        for (let event = 0; event < events; event++) {
            // Centres on a 3 x 3 grid 120 m apart (fresh ground for each of the first nine).
            const centre = { x: ((event % 3) - 1) * 120, y: 0, z: ((Math.floor(event / 3) % 3) - 1) * 120 };
            const target = erosion.cyclesCompleted + 1;
            landed = null;
            rendered = 0;
            erosion.edits.erodeAt(centre, EVENT_RADIUS);
            erosion.setOptions({ maxCycles: target });
            erosion.start();
            await until(() => landed !== null, "an erodeAt event to land");
            await until(() => !erosion.isRunning && erosion.cyclesCompleted >= target, "an erodeAt cycle to end");
            await erosion.whenIdle();
            const result = landed as unknown as { frames: number; gpuMs: number | null; by: string | null; batches: number };
            if (result.batches !== 1) {
                throw new Error(`Internal error: the erodeAt event's frame ran ${result.batches} batches.`);
            }
            if (event >= events - counts.runs) {
                frames.push(result.frames);
                if (result.gpuMs !== null) gpuMs.push(result.gpuMs);
                measuredBy.add(String(result.by ?? "unknown"));
            }
        }
        droplets = Math.round(2 * Math.PI * EVENT_RADIUS * EVENT_RADIUS); // createLocalEvent's default
    } finally {
        scene.onAfterRenderObservable.remove(after);
        erosion.onPatchErodedObservable.remove(eroded);
        erosion.setOptions({ hydraulic: { enabled: true }, thermal: { enabled: true } });
    }
    console.log(`  component ${size}² erodeAt r${EVENT_RADIUS} m: median ${summarize(frames).median} frames, ${summarize(gpuMs).median.toFixed(1)} ms GPU`);
    const detail = `TerrainErosion (WebGPU) on a ${size} x ${size} ground: erodeAt(centre, ${EVENT_RADIUS}) (default event: 2 droplets a cell of the disc, about ${droplets}, brush ${brushRadius}), called at a cycle boundary with hydraulic and thermal disabled so the event is its cycle's only batch; centres on a 3 x 3 grid 120 m apart; ${Math.max(1, counts.warmup)} warm-up event${counts.warmup > 1 ? "s" : ""}, ${counts.runs} measured; the ground is not drawn`;
    const common = { backend: "component-chromium", size, brushRadius, threads: null, budgetMs: VARIANT_BUDGET_MS };
    return [
        { ...common, kernel: "erodeAt-frames", unit: "frames", ...summarize(frames), runs: frames.length, detail: `${detail}; frames rendered from the call (start() right after it) until the event's changes reached the mesh (onPatchErodedObservable, operator "local"), the frame that ran it included` },
        { ...common, kernel: "erodeAt-gpu-ms", unit: "ms", ...summarize(gpuMs), runs: gpuMs.length, detail: `${detail}; GPU time of the frame that ran the event's batch, vertex regeneration included (lastFrame.measuredMs, by ${[...measuredBy].join(", ")})` },
    ];
}

Object.assign(window, { runKernelBench, runComponentBench, pageReady: true });
