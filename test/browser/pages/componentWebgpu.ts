/**
 * Test page: the TerrainErosion component on a real WebGPUEngine (SwiftShader in headless
 * Chromium). Each scenario returns plain data; the Node test compares it with the CPU reference.
 */
import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import "@babylonjs/core/Engines/WebGPU/Extensions/engine.computeShader.js";
import "@babylonjs/core/Materials/standardMaterial.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { TerrainErosion, type ErosionOptionsInput } from "../../../plugin/index.js";
import { fingerprintOf } from "../../../plugin/advanced.js";
import { decodeInt32 } from "../../helpers/base64.js";
import { readVertexBuffer } from "../../helpers/gpuReadback.js";
import { instrumentBuffers, liveBufferCount } from "../../helpers/gpuBufferCensus.js";

let engine: WebGPUEngine;
let scene: Scene;
async function setup(): Promise<void> {
    const canvas = document.createElement("canvas");
    canvas.width = 320;
    canvas.height = 240;
    document.body.appendChild(canvas);
    engine = new WebGPUEngine(canvas, { antialias: false });
    await engine.initAsync();
    instrumentBuffers(engine);
    scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 60, -90), scene).setTarget(Vector3.Zero());
    new HemisphericLight("light", new Vector3(0.3, 1, 0.2), scene);
    engine.runRenderLoop(() => {
        // Babylon 9.28 throws from its draw call on the first frames after restoring a lost device
        // (test/browser/pages/deviceLossBare.ts shows it without erosion); an uncaught throw would
        // end the render loop, so count it and go on.
        try {
            scene.render();
        } catch (error) {
            renderErrors.push(String(error));
        }
    });
}

const renderErrors: string[] = [];

function makeGround(name: string, width: number, depth: number, heights: Int32Array): GroundMesh {
    const ground = CreateGround(name, { width: width - 1, height: depth - 1, subdivisionsX: width - 1, subdivisionsY: depth - 1, updatable: true }, scene);
    const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
    for (let i = 0; i < width * depth; i++) positions[i * 3 + 1] = heights[i] / 65536;
    ground.updateVerticesData(VertexBuffer.PositionKind, positions);
    return ground;
}

async function until(condition: () => boolean, what: string, timeoutMs = 120000): Promise<void> {
    const started = performance.now();
    while (!condition()) {
        if (performance.now() - started > timeoutMs) throw new Error(`Timed out waiting for ${what}.`);
        await new Promise((resolve) => setTimeout(resolve, 10));
    }
}

interface ScenarioRequest {
    width: number;
    depth: number;
    heights: string;
    options: ErosionOptionsInput;
    cycles: number;
    /** A water source added before the run (world x and z, radius, rate). */
    spring?: { x: number; z: number; radius: number; rate: number };
}

async function framesVersusRunCycles(request: ScenarioRequest) {
    const heights = decodeInt32(request.heights);
    const baseline = liveBufferCount(engine, "TerrainErosion");

    // 1. WebGPU at a budget no frame meets, stopped by maxCycles.
    const framed = makeGround("framed", request.width, request.depth, heights);
    const erosionFramed = new TerrainErosion({ ...request.options, frameBudgetMs: 0.05, maxCycles: request.cycles });
    let maxBatchesInFrame = 0;
    framed.addBehavior(erosionFramed);
    await erosionFramed.whenReady();
    const heldWhileAttached = liveBufferCount(engine, "TerrainErosion");
    await until(() => {
        maxBatchesInFrame = Math.max(maxBatchesInFrame, erosionFramed.lastFrame.batches);
        return erosionFramed.cyclesCompleted >= request.cycles && !erosionFramed.isRunning;
    }, "framed cycles");
    await erosionFramed.whenIdle();
    const batchesPerCycle = erosionFramed.batchesPerCycle;
    const framedFingerprint = await erosionFramed.fingerprint();
    const framedStartup = erosionFramed.startup;

    // 2. WebGPU, runCycles.
    const baked = makeGround("baked", request.width, request.depth, heights);
    const erosionBaked = new TerrainErosion({ ...request.options, autoStart: false });
    baked.addBehavior(erosionBaked);
    await erosionBaked.whenReady();
    await erosionBaked.runCycles(request.cycles);
    const bakedFingerprint = await erosionBaked.fingerprint();
    const eroded = await erosionBaked.maps.readHeights();
    const gpuPositions = await readVertexBuffer(engine, baked, VertexBuffer.PositionKind);
    const gpuNormals = await readVertexBuffer(engine, baked, VertexBuffer.NormalKind);
    const cpuPositions = Array.from(baked.getVerticesData(VertexBuffer.PositionKind)!);
    const probes: { x: number; z: number; height: number; expected: number }[] = [];
    for (const [col, row] of [[3, 4], [request.width - 5, 7], [request.width >> 1, request.depth >> 1], [9, request.depth - 3]]) {
        const x = -(request.width - 1) / 2 + col + 0.25;
        const z = (request.depth - 1) / 2 - row - 0.25;
        probes.push({ x, z, height: baked.getHeightAtCoordinates(x, z), expected: eroded[row * request.width + col] });
    }

    // 3. CPU backend (a Web Worker in the browser).
    const cpuGround = makeGround("cpu", request.width, request.depth, heights);
    const erosionCpu = new TerrainErosion({ ...request.options, backend: "cpu", autoStart: false });
    cpuGround.addBehavior(erosionCpu);
    await erosionCpu.whenReady();
    await erosionCpu.runCycles(request.cycles);
    const cpuFingerprint = await erosionCpu.fingerprint();

    const backends = [erosionFramed.backend, erosionBaked.backend, erosionCpu.backend, String(erosionCpu.backendInWorker)];
    for (const [ground, erosion] of [[framed, erosionFramed], [baked, erosionBaked], [cpuGround, erosionCpu]] as const) {
        ground.removeBehavior(erosion);
        await erosion.whenIdle();
    }
    const bakedAfterDetach = Array.from(baked.getVerticesData(VertexBuffer.PositionKind)!).filter((_, i) => i % 3 === 1);
    // Babylon destroys released buffers at the end of a frame, and a loaded machine renders a frame
    // a second or slower: wait for some frames' ends (up to 10 s; a buffer still held is then a leak).
    const released = performance.now();
    while (liveBufferCount(engine, "TerrainErosion") !== baseline && performance.now() - released < 10000) await new Promise((resolve) => setTimeout(resolve, 50));
    const afterDetach = liveBufferCount(engine, "TerrainErosion");
    return {
        framedStartup,
        framedFingerprint,
        bakedFingerprint,
        cpuFingerprint,
        backends,
        maxBatchesInFrame,
        batchesPerCycle,
        eroded: Array.from(eroded),
        gpuPositions: Array.from(gpuPositions),
        gpuNormals: Array.from(gpuNormals),
        cpuPositions,
        probes,
        bakedAfterDetach,
        buffers: { baseline, heldWhileAttached, afterDetach },
    };
}

/** Runs the request's cycles with each frame budget on `backend`: the fingerprint per budget. */
async function budgets(request: ScenarioRequest & { budgets: number[]; backend: "webgpu" | "cpu" }) {
    const heights = decodeInt32(request.heights);
    const results: { budget: number; fingerprint: string; backend: string; piecedFrames: number }[] = [];
    for (const budget of request.budgets) {
        const ground = makeGround(`budget${budget}`, request.width, request.depth, heights);
        const erosion = new TerrainErosion({ ...request.options, backend: request.backend, frameBudgetMs: budget, maxCycles: request.cycles });
        ground.addBehavior(erosion);
        // Frames that ran a range of a whole-field batch's pieces (the budget could not hold it).
        let piecedFrames = 0;
        const counting = ground.getScene().onAfterRenderObservable.add(() => (piecedFrames += erosion.lastFrame.pieces ? 1 : 0));
        await erosion.whenReady();
        await until(() => erosion.cyclesCompleted >= request.cycles && !erosion.isRunning, `budget ${budget} ms`);
        await erosion.whenIdle();
        counting.remove();
        results.push({ budget, fingerprint: await erosion.fingerprint(), backend: erosion.backend ?? "none", piecedFrames });
        erosion.dispose();
        ground.dispose();
    }
    return results;
}

Object.assign(window, { framesVersusRunCycles, budgets });
setup().then(() => Object.assign(window, { pageReady: true }));

/** Device loss: destroy the GPUDevice mid-run; erosion must stop cleanly, resume after Babylon restores the engine, and end where an uninterrupted run ends. */
async function deviceLoss(request: ScenarioRequest) {
    const heights = decodeInt32(request.heights);
    const ground = makeGround("lost", request.width, request.depth, heights);
    // With a spring, the run starts once it is added, so it is in force from cycle 0.
    const erosion = new TerrainErosion({ ...request.options, frameBudgetMs: 0.05, autoStart: !request.spring });
    const events: string[] = [];
    erosion.onErrorObservable.add((event) => events.push(event.kind));
    ground.addBehavior(erosion);
    Object.assign(window, { __dbg: () => ({ events, cycles: erosion.cyclesCompleted, progress: erosion.progress, running: erosion.isRunning, backend: erosion.backend }) });
    await erosion.whenReady();
    if (request.spring) {
        erosion.edits.addWaterSource({ x: request.spring.x, y: 0, z: request.spring.z }, request.spring.radius, request.spring.rate);
        erosion.start();
    }
    await until(() => erosion.cyclesCompleted >= 1 && erosion.progress > 0.3, "some progress");
    // The checkpoint is read back after the boundary's frame lands (and its rows are on the ground),
    // while the schedule (`cyclesCompleted`, `progress`) runs ahead by the frames in flight.
    await until(() => (erosion.history.checkpoint?.cycle ?? 0) >= 1, "the first cycle's checkpoint");
    // Frames keep running while the checkpoint is read: it must still be the boundary's state.
    const checkpoint = { cycle: erosion.history.checkpoint!.cycle, fingerprint: fingerprintOf(erosion.history.checkpoint!) };
    let restored = false;
    engine.onContextRestoredObservable.addOnce(() => (restored = true));
    (engine as unknown as { _device: GPUDevice })._device.destroy();
    await until(() => restored, "Babylon to restore the engine", 60000);
    await until(() => events.includes("recovered") || events.includes("stopped"), "erosion to resume", 60000);
    erosion.setOptions({ maxCycles: request.cycles });
    await until(() => erosion.cyclesCompleted >= request.cycles && !erosion.isRunning, "the remaining cycles");
    await erosion.whenIdle();
    const fingerprint = await erosion.fingerprint();
    ground.dispose();
    await erosion.whenIdle();
    return { events, fingerprint, checkpoint, backend: erosion.backend, renderErrors: [...new Set(renderErrors)] };
}

/** Disposing the ground, the scene or the engine while frames are in flight lets no exception escape and releases every buffer. */
async function disposeInFlight(request: ScenarioRequest) {
    const heights = decodeInt32(request.heights);
    const results: { what: string; before: number; after: number; uncaught: string[] }[] = [];
    for (const what of ["ground", "scene"] as const) {
        const uncaught: string[] = [];
        const onError = (event: ErrorEvent) => uncaught.push(String(event.message));
        const onRejection = (event: PromiseRejectionEvent) => uncaught.push(String(event.reason));
        window.addEventListener("error", onError);
        window.addEventListener("unhandledrejection", onRejection);
        const before = liveBufferCount(engine, "TerrainErosion");
        const hostScene = what === "scene" ? new Scene(engine) : scene;
        if (what === "scene") new FreeCamera("camera2", new Vector3(0, 60, -90), hostScene);
        const previous = scene;
        scene = hostScene;
        const ground = makeGround(`inflight-${what}`, request.width, request.depth, heights);
        scene = previous;
        const erosion = new TerrainErosion({ ...request.options, frameBudgetMs: 1000 });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        if (what === "scene") hostScene.render();
        else await new Promise((resolve) => requestAnimationFrame(resolve));
        // Frames are in flight now: dispose the host.
        if (what === "scene") hostScene.dispose();
        else ground.dispose();
        await erosion.whenIdle();
        await new Promise((resolve) => setTimeout(resolve, 300));
        results.push({ what, before, after: liveBufferCount(engine, "TerrainErosion"), uncaught });
        window.removeEventListener("error", onError);
        window.removeEventListener("unhandledrejection", onRejection);
    }
    return results;
}

/** A ground larger than the adapter's storage-buffer limit (simulated by lowering the reported limit) gets a clear error before any GPU work. */
async function tooLarge(request: ScenarioRequest) {
    const heights = decodeInt32(request.heights);
    const ground = makeGround("large", request.width, request.depth, heights);
    const limits = engine.currentLimits;
    const before = liveBufferCount(engine, "TerrainErosion");
    Object.defineProperty(engine, "currentLimits", { configurable: true, get: () => ({ ...limits, maxStorageBufferBindingSize: 4096 }) });
    let message = "";
    let fallback = "";
    try {
        try {
            ground.addBehavior(new TerrainErosion({ ...request.options, backend: "webgpu" }));
        } catch (error) {
            message = String((error as Error).message);
        }
        const auto = new TerrainErosion({ ...request.options, autoStart: false });
        auto.onErrorObservable.add((event) => (fallback = `${event.kind}: ${event.message}`));
        ground.addBehavior(auto);
        await auto.whenReady();
        const backend = auto.backend;
        auto.dispose();
        return { message, fallback, backend, before, after: liveBufferCount(engine, "TerrainErosion") };
    } finally {
        delete (engine as unknown as { currentLimits?: unknown }).currentLimits;
        ground.dispose();
    }
}

Object.assign(window, { deviceLoss, disposeInFlight, tooLarge });

function observerCounts(ground: GroundMesh): number[] {
    return [scene.onBeforeRenderObservable.observers.length, engine.onContextLostObservable.observers.length, engine.onContextRestoredObservable.observers.length, ground.onDisposeObservable.observers.length, ground.inspectableCustomProperties?.length ?? 0];
}

/** Attach and detach a hundred times: live GPU buffers and observers return to where they started. */
async function attachDetachMany(request: ScenarioRequest & { times: number }) {
    const ground = makeGround("cycled", request.width, request.depth, decodeInt32(request.heights));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = { buffers: liveBufferCount(engine, "TerrainErosion"), observers: observerCounts(ground) };
    let maxHeld = 0;
    for (let i = 0; i < request.times; i++) {
        const erosion = new TerrainErosion({ ...request.options, seed: i });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        await new Promise((resolve) => requestAnimationFrame(resolve));
        maxHeld = Math.max(maxHeld, liveBufferCount(engine, "TerrainErosion"));
        ground.removeBehavior(erosion);
        await erosion.whenIdle();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = { buffers: liveBufferCount(engine, "TerrainErosion"), observers: observerCounts(ground) };
    ground.dispose();
    return { before, after, maxHeld };
}

/** Several components on several grounds in one scene, each with its own options, at once. */
async function severalGrounds(request: ScenarioRequest & { seeds: number[] }) {
    const heights = decodeInt32(request.heights);
    const runs = request.seeds.map(async (seed, index) => {
        const ground = makeGround(`many${index}`, request.width, request.depth, heights);
        ground.position.x = index * request.width;
        const erosion = new TerrainErosion({ ...request.options, seed, frameBudgetMs: 0.5, maxCycles: request.cycles });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        await until(() => erosion.cyclesCompleted >= request.cycles && !erosion.isRunning, `ground ${index}`);
        await erosion.whenIdle();
        const fingerprint = await erosion.fingerprint();
        ground.dispose();
        return fingerprint;
    });
    return Promise.all(runs);
}

/** A long run on WebGPU: the whole state after it, for the invariants. */
async function longRun(request: ScenarioRequest) {
    const ground = makeGround("long", request.width, request.depth, decodeInt32(request.heights));
    const erosion = new TerrainErosion({ ...request.options, autoStart: false });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    await erosion.runCycles(request.cycles);
    const snapshot = await erosion.history.snapshot();
    ground.dispose();
    const state = snapshot.state;
    return { fingerprint: snapshot.fingerprint, heights: Array.from(state.heights), suspended: Array.from(state.suspended), counters: Array.from(state.counters) };
}

Object.assign(window, { attachDetachMany, severalGrounds, longRun });

/** How frame costs are measured: timestamp queries on a device that has them, submit-to-done otherwise. */
async function frameTiming(request: ScenarioRequest) {
    const heights = decodeInt32(request.heights);
    const measure = async (hostEngine: WebGPUEngine, hostScene: Scene, name: string, timestamps = false) => {
        const ground = CreateGround(name, { width: request.width - 1, height: request.depth - 1, subdivisionsX: request.width - 1, subdivisionsY: request.depth - 1, updatable: true }, hostScene);
        const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
        for (let i = 0; i < heights.length; i++) positions[i * 3 + 1] = heights[i] / 65536;
        ground.updateVerticesData(VertexBuffer.PositionKind, positions);
        const erosion = new TerrainErosion({ ...request.options, frameBudgetMs: 2 });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        await until(() => erosion.lastFrame.measuredMs !== null && erosion.lastFrame.batches > 0, `${name} measured frames`);
        // On a device with timestamps a frame may still fall back to submit-to-done (GpuTimer.begin:
        // the last span still being read back, or no render encoder open yet); on a loaded host the
        // first frame looked at was such a one (CI, 2026-12-01). Wait a while for one the timer measured;
        // if none comes, the test sees the fallback's frame and fails.
        if (timestamps) await until(() => erosion.lastFrame.measuredBy === "timestamp", `${name} a frame measured by timestamps`, 30000).catch(() => undefined);
        const frame = erosion.lastFrame;
        ground.dispose();
        await erosion.whenIdle();
        return { measuredBy: frame.measuredBy, measuredMs: frame.measuredMs, batches: frame.batches, features: Array.from(((hostEngine as unknown as { _device: GPUDevice })._device.features) as Iterable<string>).includes("timestamp-query") };
    };
    const plain = await measure(engine, scene, "plainTiming");
    const canvas = document.createElement("canvas");
    document.body.appendChild(canvas);
    const timedEngine = new WebGPUEngine(canvas, { enableAllFeatures: true });
    await timedEngine.initAsync();
    const timedScene = new Scene(timedEngine);
    new FreeCamera("camera", new Vector3(0, 30, -40), timedScene);
    timedEngine.runRenderLoop(() => timedScene.render());
    const timed = await measure(timedEngine, timedScene, "timedTiming", true);
    timedEngine.dispose();
    return { plain, timed };
}

Object.assign(window, { frameTiming });

/** The maps texture, written on the GPU, against the maps read back as arrays. */
async function mapsTexture(request: ScenarioRequest) {
    const ground = makeGround("maps", request.width, request.depth, decodeInt32(request.heights));
    const erosion = new TerrainErosion({ ...request.options, autoStart: false });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    const texture = await erosion.maps.getMapsTexture();
    const areaTexture = await erosion.maps.getMapTexture("drainageArea");
    // Live frames of one batch (or one piece) each: a frame writes the textures over its changed
    // rows only, so the last frames of a cycle (thermal patches) leave the other rows as they were.
    erosion.setOptions({ frameBudgetMs: 0.05, maxCycles: request.cycles });
    erosion.start();
    await until(() => erosion.cyclesCompleted >= request.cycles && !erosion.isRunning, "the maps texture's cycles");
    await erosion.whenIdle();
    const maps = await erosion.maps.readMaps();
    const pixels = new Float32Array(((await texture!.readPixels()) as Float32Array).buffer.slice(0));
    const areaPixels = new Float32Array(((await areaTexture!.readPixels()) as Float32Array).buffer.slice(0));
    // reset() while paused: the texture's drainage directions follow the restored heights at once.
    await erosion.history.reset();
    const directionAfterReset = Array.from((await erosion.maps.readMaps()).direction);
    const pixelsAfterReset = new Float32Array(((await texture!.readPixels()) as Float32Array).buffer.slice(0));
    const result = { size: texture!.getSize(), water: Array.from(maps.water), wear: Array.from(maps.wear), deposition: Array.from(maps.deposition), direction: Array.from(maps.direction), pixels: Array.from(pixels), drainageArea: Array.from(maps.drainageArea), areaSize: areaTexture!.getSize(), areaPixels: Array.from(areaPixels), directionAfterReset, pixelsAfterReset: Array.from(pixelsAfterReset) };
    ground.dispose();
    await erosion.whenIdle();
    return result;
}

/**
 * The shallow water on WebGPU: the texture requested before water runs (dry ground: the surface is
 * the ground), then a cycle of rain and a spring; the texture against readMaps, and the fingerprint;
 * then the same again inside a step of the next cycle (`midStep`: after its pipes were raw or
 * limited, before its depth pass).
 */
async function shallowWaterTexture(request: ScenarioRequest & { midStep: { cycle: number; batch: number } }) {
    const ground = makeGround("water", request.width, request.depth, decodeInt32(request.heights));
    const erosion = new TerrainErosion({ ...request.options, autoStart: false });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    const texture = await erosion.maps.getMapTexture("shallowWater");
    const dry = new Float32Array(((await texture.readPixels()) as Float32Array).buffer.slice(0));
    const heightsBefore = Array.from(await erosion.maps.readHeights());
    erosion.edits.addWaterSource({ x: 2, y: 0, z: -3 }, 2, 4);
    await erosion.runCycles(request.cycles);
    const maps = await erosion.maps.readMaps();
    const heights = Array.from(await erosion.maps.readHeights());
    const pixels = new Float32Array(((await texture.readPixels()) as Float32Array).buffer.slice(0));
    const fingerprint = await erosion.fingerprint();
    await erosion.lockstep.runUntil(request.midStep);
    const midMaps = await erosion.maps.readMaps();
    const midPixels = new Float32Array(((await texture.readPixels()) as Float32Array).buffer.slice(0));
    const mid = { pixels: Array.from(midPixels), depth: Array.from(midMaps.waterDepth), velocity: Array.from(midMaps.waterVelocity), heights: Array.from(await erosion.maps.readHeights()), fingerprint: await erosion.fingerprint() };
    const result = { dry: Array.from(dry), heightsBefore, pixels: Array.from(pixels), depth: Array.from(maps.waterDepth), velocity: Array.from(maps.waterVelocity), heights, fingerprint, mid };
    ground.dispose();
    await erosion.whenIdle();
    return result;
}

Object.assign(window, { mapsTexture, shallowWaterTexture });
