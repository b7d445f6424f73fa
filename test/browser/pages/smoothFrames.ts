/**
 * Smooth frames (test/soak/smoothFrames.test.ts): a 513² ground eroded live at a small frame
 * budget, on WebGPU (`?engine=webgpu`) or on the CPU backend under WebGL2, sampled frame by frame
 * over one full cycle after warm-up cycles (one unless asked for more): each landed frame's erosion time (`lastFrame.measuredMs`,
 * once per landed frame: `lastFrame.landed`) and each rendered frame's main-thread time for erosion
 * (`lastFrame.cpuMs + applyMs`, once per change).
 */
import "@babylonjs/core/Engines/WebGPU/Extensions/engine.computeShader.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { TerrainErosion, type ErosionOptionsInput } from "../../../plugin/index.js";
import { createPageEngine } from "../../helpers/pageEngine.js";

/** What one measured cycle gave. */
export interface SmoothCycle {
    readonly backend: string;
    /** How the frames were timed (`lastFrame.measuredBy`). */
    readonly measuredBy: string;
    /** Erosion time of each landed frame, ms. */
    readonly erosionMs: number[];
    /** What each landed frame ran: its batches ("3 batches") or its range of pieces ("pieces 4-5 of 71"). */
    readonly kinds: string[];
    /** Main-thread time of each rendered frame that did erosion work, ms. */
    readonly mainThreadMs: number[];
    /** How each of them divides: planning and issuing, rows applied. */
    readonly mainThreadKinds: string[];
    /** Main-thread time of handing each landed frame to the CPU backend's worker, after the frame that planned it (`lastFrame.postMs`), ms. */
    readonly postMs: number[];
    /** The render loop's intervals while the cycle ran, ms. */
    readonly intervals: number[];
    /** Landed frames the sampler missed (two landed between its looks). */
    readonly unsampled: number;
    /** Frames that ran a range of a whole-field batch's pieces. */
    readonly piecedFrames: number;
    readonly renderedFrames: number;
    readonly seconds: number;
}

async function until(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
    const started = performance.now();
    while (!condition()) {
        if (performance.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}.`);
        await new Promise((resolve) => setTimeout(resolve, 10));
    }
}

/** The page's engine (WebGPU with `?engine=webgpu`, else WebGL2), a scene and a `size`² ground of generated terrain. */
async function terrainScene(size: number) {
    const engine = await createPageEngine(256);
    const gpu = new URLSearchParams(location.search).get("engine") === "webgpu";
    const scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 300, -400), scene).setTarget(Vector3.Zero());
    new HemisphericLight("light", new Vector3(0.3, 1, 0.2), scene);
    const ground = CreateGround("ground", { width: size - 1, height: size - 1, subdivisions: size - 1, updatable: true }, scene);
    const heights = generateNoiseTerrain({ width: size, depth: size, relief: 60, seed: 7 });
    const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
    for (let i = 0; i < size * size; i++) positions[i * 3 + 1] = heights[i];
    ground.updateVerticesData(VertexBuffer.PositionKind, positions);
    return { engine, gpu, scene, ground };
}

/** One measured cycle after `warmUpCycles` (1 by default) at `budgetMs`, with the maps texture kept when `mapsTexture`. */
async function smoothCycle(request: { size: number; budgetMs: number; options: ErosionOptionsInput; timeoutMs: number; warmUpCycles?: number; mapsTexture?: boolean }): Promise<SmoothCycle> {
    const { size } = request;
    const warmUp = request.warmUpCycles ?? 1;
    const { engine, gpu, scene, ground } = await terrainScene(size);
    // Not drawn, as in the bench: a frame's measured GPU time (submit to done) is then erosion's
    // alone, not half a million triangles rasterised on SwiftShader queued beside it.
    ground.isVisible = false;
    engine.runRenderLoop(() => scene.render());
    const erosion = new TerrainErosion({ ...request.options, backend: gpu ? "webgpu" : "cpu", frameBudgetMs: request.budgetMs, maxCycles: warmUp + 1 });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    if (request.mapsTexture) await erosion.maps.getMapsTexture(); // as the bench's WebGL2 page and the sample's material plugin do
    // The warm-up cycle: kernels' first use, and the budget learning what each batch costs.
    await until(() => erosion.cyclesCompleted >= warmUp, "the warm-up cycles", request.timeoutMs);
    const erosionMs: number[] = [];
    const kinds: string[] = [];
    const mainThreadMs: number[] = [];
    const mainThreadKinds: string[] = [];
    const postMs: number[] = [];
    const intervals: number[] = [];
    let lastRendered = 0;
    let unsampled = 0;
    let piecedFrames = 0;
    let renderedFrames = 0;
    let lastLanded = erosion.lastFrame.landed;
    let lastSeen = erosion.lastFrame;
    const look = () => {
        const frame = erosion.lastFrame;
        if (frame.landed !== lastLanded && frame.measuredMs !== null) {
            erosionMs.push(frame.measuredMs);
            kinds.push(frame.pieces ? `pieces ${frame.pieces.from}-${frame.pieces.to} of ${frame.pieces.total}` : `${frame.batches} batches`);
            unsampled += Math.max(0, frame.landed - lastLanded - 1);
            if (frame.pieces) piecedFrames++;
            postMs.push(frame.postMs);
        }
        lastLanded = frame.landed;
    };
    const before = scene.onBeforeRenderObservable.add(look);
    const after = scene.onAfterRenderObservable.add(() => {
        look();
        renderedFrames++;
        const now = performance.now();
        if (lastRendered > 0) intervals.push(now - lastRendered);
        lastRendered = now;
        const frame = erosion.lastFrame;
        if (frame !== lastSeen && frame.cpuMs + frame.applyMs > 0) {
            mainThreadMs.push(frame.cpuMs + frame.applyMs);
            mainThreadKinds.push(`plan ${frame.cpuMs.toFixed(2)} + rows ${frame.applyMs.toFixed(2)}`);
        }
        lastSeen = frame;
    });
    const started = performance.now();
    await until(() => erosion.cyclesCompleted >= warmUp + 1, "the measured cycle", request.timeoutMs);
    await erosion.whenIdle();
    scene.onBeforeRenderObservable.remove(before);
    scene.onAfterRenderObservable.remove(after);
    const result = { backend: erosion.backend ?? "none", measuredBy: String(erosion.lastFrame.measuredBy), erosionMs, kinds, mainThreadKinds, mainThreadMs, postMs, intervals, unsampled, piecedFrames, renderedFrames, seconds: (performance.now() - started) / 1000 };
    engine.stopRenderLoop();
    erosion.dispose();
    scene.dispose();
    engine.dispose();
    return result;
}

/** A start from attach to the first batches on the mesh, the render loop running: each render interval with the start-up phase it ended in. */
export interface StartupFrames {
    readonly backend: string;
    readonly phases: string;
    readonly intervals: { readonly ms: number; readonly phase: string }[];
    /** The render intervals after the start, erosion running, ms. */
    readonly running: number[];
}

/** Frames measured after a start, the component running. */
const RUNNING_FRAMES = 40;

async function startupFrames(request: { size: number; budgetMs: number }): Promise<StartupFrames> {
    const { size } = request;
    const { engine, gpu, scene, ground } = await terrainScene(size);
    engine.runRenderLoop(() => scene.render());
    await new Promise((resolve) => setTimeout(resolve, 500));
    const erosion = new TerrainErosion({ backend: gpu ? "webgpu" : "cpu", frameBudgetMs: request.budgetMs });
    const intervals: { ms: number; phase: string }[] = [];
    let last = performance.now();
    const observer = scene.onBeforeRenderObservable.add(() => {
        const now = performance.now();
        const startup = erosion.startup;
        intervals.push({ ms: now - last, phase: startup ? `${startup.phase}${startup.phase === "compiling-kernels" ? ` ${startup.kernelsCompiled}/${startup.kernels}` : ""}` : "attaching" });
        last = now;
    });
    ground.addBehavior(erosion);
    await until(() => erosion.startup?.phase === "running" || erosion.startup?.phase === "failed", "the start", 120000);
    // The interval that ends with the next render is the last of the start's; the frames after it run erosion as it goes on.
    const frames = intervals.length;
    await until(() => intervals.length > frames + RUNNING_FRAMES, "frames after the start", 300000);
    scene.onBeforeRenderObservable.remove(observer);
    const running = intervals.splice(frames + 1).map(({ ms }) => ms);
    const phases = erosion.startup!.phases.map(({ phase, ms }) => `${phase} at ${ms.toFixed(0)} ms`).join(", ");
    const result = { backend: erosion.backend ?? "none", phases, intervals, running };
    engine.stopRenderLoop();
    erosion.dispose();
    scene.dispose();
    engine.dispose();
    return result;
}

Object.assign(window, { smoothCycle, startupFrames, pageReady: true });
