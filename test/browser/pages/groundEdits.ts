/**
 * Test page: ground edits on a real engine. How many rendered frames pass between a call (`dig`)
 * and the changed vertices on the mesh: its CPU data (what picking and `getHeightAtCoordinates`
 * read) and, on WebGPU, its vertex buffer.
 */
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import "@babylonjs/core/Engines/WebGPU/Extensions/engine.computeShader.js";
import "@babylonjs/core/Materials/standardMaterial.js";
import { ErosionSnapshot, TerrainErosion, type ErosionBackendName, type InputStamp } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { parseInputLog, serializeInputLog } from "../../../plugin/lockstep.js";
import { decodeInt32, encodeInt32 } from "../../helpers/base64.js";
import { createPageEngine } from "../../helpers/pageEngine.js";
import { readVertexBuffer } from "../../helpers/gpuReadback.js";

export interface LatencyRequest {
    backend: ErosionBackendName;
    autoStart: boolean;
    frameBudgetMs: number;
}

export interface LatencyResult {
    backend: string;
    /** Frames rendered after the call until the mesh's CPU data showed the dig at its centre. */
    framesToCpuData: number;
    /** Frames rendered after the call until the vertex buffer showed it (WebGPU only; null on the CPU backend, whose rows are uploaded with the CPU data). */
    framesToVertexBuffer: number | null;
    /** The height under the centre before and after, from `getHeightAtCoordinates` (the ground's height quads). */
    heightBefore: number;
    heightAfter: number;
}

const SIZE = 65;
let scene: Scene;
let frames = 0;

async function setup(): Promise<void> {
    const engine = await createPageEngine(256);
    scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 60, -70), scene).setTarget(Vector3.Zero());
    new HemisphericLight("light", new Vector3(0.3, 1, 0.2), scene);
    scene.onAfterRenderObservable.add(() => frames++);
    engine.runRenderLoop(() => scene.render());
}

async function afterFrames(count: number): Promise<void> {
    const target = frames + count;
    while (frames < target) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function editLatency(request: LatencyRequest): Promise<LatencyResult> {
    const heights = generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 9, relief: 10 });
    const ground = CreateGround(`ground-${request.backend}-${request.autoStart}`, { width: SIZE - 1, height: SIZE - 1, subdivisions: SIZE - 1, updatable: true }, scene);
    const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
    heights.forEach((height, i) => (positions[i * 3 + 1] = height));
    ground.updateVerticesData(VertexBuffer.PositionKind, positions);
    const erosion = new TerrainErosion({ backend: request.backend, autoStart: request.autoStart, frameBudgetMs: request.frameBudgetMs, patchSize: 32, hydraulic: { dropletsPerBatch: 256 } });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    await afterFrames(3);
    const centre = ((SIZE - 1) / 2) * SIZE + (SIZE - 1) / 2;
    const cpuHeight = () => ground.getVerticesData(VertexBuffer.PositionKind)![centre * 3 + 1];
    const before = cpuHeight();
    const heightBefore = ground.getHeightAtCoordinates(0, 0);
    const webgpu = erosion.backend === "webgpu";
    const called = frames;
    let framesToCpuData = -1;
    // The CPU data is checked after every frame; the vertex buffer by a copy issued right after a
    // frame (queued behind that frame's commands, so it shows what the frame left).
    const watcher = scene.onAfterRenderObservable.add(() => {
        if (framesToCpuData < 0 && before - cpuHeight() > 2.5) framesToCpuData = frames - called;
    });
    erosion.edits.dig(new Vector3(0, 0, 0), 5, 3);
    let framesToVertexBuffer: number | null = null;
    for (let waited = 0; waited < 30 && (framesToCpuData < 0 || (webgpu && framesToVertexBuffer === null)); waited++) {
        await afterFrames(1);
        if (webgpu && framesToVertexBuffer === null) {
            const issuedAfter = frames - called;
            const gpu = await readVertexBuffer(scene.getEngine() as WebGPUEngine, ground, VertexBuffer.PositionKind);
            if (before - gpu[centre * 3 + 1] > 2.5) framesToVertexBuffer = issuedAfter;
        }
    }
    scene.onAfterRenderObservable.remove(watcher);
    const result = { backend: erosion.backend ?? "none", framesToCpuData, framesToVertexBuffer, heightBefore, heightAfter: ground.getHeightAtCoordinates(0, 0) };
    ground.dispose();
    await erosion.whenIdle();
    return result;
}

export interface UndoLatencyRequest {
    backend: ErosionBackendName;
    /** Vertices a side of the ground (its cells 1 m). */
    size: number;
}

/** What an undo cost on a running component, from the call to its promise's answer. */
export interface UndoLatency {
    ms: number;
    /** Frames rendered meanwhile. */
    frames: number;
}

export interface UndoLatencyResult {
    backend: string;
    /** `undo()` with nothing to undo. */
    empty: UndoLatency;
    /** `undo()` of a dig that has reached the mesh: its answer, and the height under the dig after it. */
    real: UndoLatency & { taken: number; heightBefore: number; heightDug: number; heightAfter: number };
}

/** Times `undo()`: rendered frames and milliseconds from the call until it resolves. */
async function timedUndo(erosion: TerrainErosion): Promise<UndoLatency & { taken: number }> {
    const calledAt = frames;
    const started = performance.now();
    const taken = await erosion.history.undo();
    return { ms: performance.now() - started, frames: frames - calledAt, taken: taken.length };
}

/**
 * The first hour's undo: a `size`² ground at the default options (the frame budget, one batch a
 * frame on a software adapter) running, an undo with nothing to undo, then a dig that has reached
 * the mesh undone.
 */
async function undoLatency(request: UndoLatencyRequest): Promise<UndoLatencyResult> {
    const heights = generateNoiseTerrain({ width: request.size, depth: request.size, seed: 9, relief: 10 });
    const ground = CreateGround(`undo-${request.backend}-${frames}`, { width: request.size - 1, height: request.size - 1, subdivisions: request.size - 1, updatable: true }, scene);
    const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
    heights.forEach((height, i) => (positions[i * 3 + 1] = height));
    ground.updateVerticesData(VertexBuffer.PositionKind, positions);
    const erosion = new TerrainErosion({ backend: request.backend });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    await afterFrames(8);
    const { taken: emptyTaken, ...empty } = await timedUndo(erosion);
    if (emptyTaken !== 0) throw new Error(`An undo with nothing to undo took back ${emptyTaken} input(s).`);
    const centre = ((request.size - 1) / 2) * request.size + (request.size - 1) / 2;
    const cpuHeight = () => ground.getVerticesData(VertexBuffer.PositionKind)![centre * 3 + 1];
    const heightBefore = cpuHeight();
    erosion.edits.dig(new Vector3(0, 0, 0), 5, 3);
    for (let waited = 0; waited < 60 && heightBefore - cpuHeight() < 2.5; waited++) await afterFrames(1);
    const heightDug = cpuHeight();
    const real = await timedUndo(erosion);
    const result = { backend: erosion.backend ?? "none", empty, real: { ...real, heightBefore, heightDug, heightAfter: cpuHeight() } };
    ground.dispose();
    await erosion.whenIdle();
    return result;
}

export interface StrokeRequest {
    backend: ErosionBackendName;
    size: number;
    /** Edits in the stroke, and milliseconds between them (a drag's pointer moves). */
    edits: number;
    intervalMs: number;
    /** Seconds the undisturbed rate is measured over. */
    windowS: number;
    /** The shallow water on, and the maps texture asked for (as the material plugin and the water surface do). */
    water: boolean;
    /** Main-thread milliseconds each rendered frame costs besides erosion (a heavy scene on a software renderer: a few frames a second). */
    renderCostMs: number;
}

/** Erosion batches a second (`onPatchEroded`, the edits' own left out) and rendered frames a second, undisturbed and during the stroke. */
export interface StrokeResult {
    backend: string;
    undisturbed: { batches: number; seconds: number; fps: number };
    stroke: { batches: number; seconds: number; fps: number };
}

/**
 * A drag-to-dig stroke on a running component at the defaults: `edits` digs `intervalMs` apart
 * along a line across the ground, after `windowS` seconds undisturbed.
 */
async function strokeRate(request: StrokeRequest): Promise<StrokeResult> {
    const heights = generateNoiseTerrain({ width: request.size, depth: request.size, seed: 9, relief: 10 });
    const ground = CreateGround(`stroke-${request.backend}-${frames}`, { width: request.size - 1, height: request.size - 1, subdivisions: request.size - 1, updatable: true }, scene);
    const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
    heights.forEach((height, i) => (positions[i * 3 + 1] = height));
    ground.updateVerticesData(VertexBuffer.PositionKind, positions);
    const erosion = new TerrainErosion({ backend: request.backend, water: { enabled: request.water } });
    let batches = 0;
    erosion.onPatchErodedObservable.add((event) => {
        if (event.operator !== "edit") batches++;
    });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    if (request.water) await erosion.maps.getMapsTexture();
    const heavy = scene.onBeforeRenderObservable.add(() => {
        const until = performance.now() + request.renderCostMs;
        while (performance.now() < until);
    });
    const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
    const measure = async (work: () => Promise<void>) => {
        const [startBatches, startFrames, started] = [batches, frames, performance.now()];
        await work();
        const seconds = (performance.now() - started) / 1000;
        return { batches: batches - startBatches, seconds, fps: (frames - startFrames) / seconds };
    };
    await afterFrames(10); // the budget learns the operators' costs
    const undisturbed = await measure(() => sleep(request.windowS * 1000));
    const half = (request.size - 1) / 2;
    const stroke = await measure(async () => {
        for (let k = 0; k < request.edits; k++) {
            erosion.edits.dig(new Vector3(-half * 0.6 + (1.2 * half * k) / (request.edits - 1), 0, half * 0.2), 3, 0.5);
            await sleep(request.intervalMs);
        }
    });
    scene.onBeforeRenderObservable.remove(heavy);
    const result = { backend: erosion.backend ?? "none", undisturbed, stroke };
    ground.dispose();
    await erosion.whenIdle();
    return result;
}

export interface StampedRunRequest {
    backend: ErosionBackendName;
    frameBudgetMs: number;
    /** Cycles the run stops at (maxCycles). */
    cycles: number;
}

export interface StampedRunResult {
    backend: string;
    /** Each edit's handle (its stamp) and what it was, in world units. */
    edits: { kind: string; cycle: number; batch: number }[];
    fingerprint: string;
    /** The fingerprint after a snapshot taken with the last edit pending, restored and run to the end again. */
    restoredFingerprint: string;
    snapshotEdits: number;
    /** The live fingerprint where each entry of the log was given, just before it. */
    fingerprints: string[];
    /** The snapshot at attach (base64), the input log (serializeInputLog) and where the run ended. */
    first: string;
    log: string;
    end: InputStamp;
}

export interface ReplayRequest {
    backend: ErosionBackendName;
    /** A snapshot (base64 bytes) and the log since it (serializeInputLog). */
    first: string;
    log: string;
    until: InputStamp;
}

/**
 * Edits of each kind and every other input (an option, `erodeAt`, a mask, a spring) while erosion
 * runs at `frameBudgetMs`, at whatever point of the schedule the frames have reached (the handles
 * and the log say where), then to `cycles`; and a snapshot taken with an edit pending, restored and
 * run again to the same end.
 */
async function stampedRun(request: StampedRunRequest): Promise<StampedRunResult> {
    const { ground, erosion } = await stampedErosion(request.backend, request.frameBudgetMs, request.cycles);
    const first = await erosion.history.snapshot();
    const edits: StampedRunResult["edits"] = [];
    const fingerprints: string[] = [];
    const keep = (handle: { kind: string; cycle: number; batch: number }) => edits.push({ kind: handle.kind, cycle: handle.cycle, batch: handle.batch });
    // Each input where the run stands, its fingerprint first (paused a frame: the edits stamped there applied).
    const given = async (input: () => unknown) => {
        erosion.pause();
        await afterFrames(1);
        await erosion.whenIdle();
        fingerprints.push(await erosion.fingerprint());
        await input();
        erosion.start();
    };
    await afterFrames(4);
    await given(() => keep(erosion.edits.crater(new Vector3(-10, 0, 8), 6, 2)));
    await given(() => erosion.setOption("thermal.talus", 0.4));
    await afterFrames(3);
    await given(() => keep(erosion.edits.dig(new Vector3(12, 0, -4), 4, 1.5)));
    await given(() => erosion.edits.erodeAt(new Vector3(-5, 0, -5), 6, { droplets: 200 }));
    await given(() => keep(erosion.edits.along([new Vector3(-20, 0, -20), new Vector3(0, 0, -12), new Vector3(20, 0, -22)], 3, { dig: 1 })));
    await afterFrames(5);
    await given(() => erosion.edits.setMask("thermal", new Float32Array(SIZE * SIZE).fill(0.5)));
    await given(() => erosion.edits.addWaterSource(new Vector3(0, 0, 0), 2, 0.5));
    await given(() => keep(erosion.edits.pile(new Vector3(5, 0, 18), 5, 2)));
    await given(() => keep(erosion.edits.flatten(new Vector3(-18, 0, 16), 7, { to: 3, edge: 0.4 })));
    erosion.pause();
    const snapshot = await erosion.history.snapshot();
    erosion.start();
    while (erosion.isRunning) await afterFrames(5);
    await erosion.whenIdle();
    const fingerprint = await erosion.fingerprint();
    fingerprints.push(fingerprint);
    await erosion.history.restore(snapshot);
    await erosion.runCycles(request.cycles - snapshot.state.cycle);
    const restoredFingerprint = await erosion.fingerprint();
    const log = serializeInputLog(erosion.history.inputLog);
    const result = { backend: erosion.backend ?? "none", edits, fingerprint, restoredFingerprint, snapshotEdits: snapshot.state.edits?.length ?? 0, first: encodeInt32(new Int32Array(first.toArrayBuffer())), log, end: erosion.lockstep.stamp, fingerprints };
    ground.dispose();
    await erosion.whenIdle();
    return result;
}

/** The stamped run's ground (the bench of edits above) with erosion attached and ready. */
async function stampedErosion(backend: ErosionBackendName, frameBudgetMs: number, cycles: number) {
    const heights = generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 9, relief: 10 });
    const ground = CreateGround(`stamped-${backend}-${frameBudgetMs}-${frames}`, { width: SIZE - 1, height: SIZE - 1, subdivisions: SIZE - 1, updatable: true }, scene);
    const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
    heights.forEach((height, i) => (positions[i * 3 + 1] = height));
    ground.updateVerticesData(VertexBuffer.PositionKind, positions);
    const erosion = new TerrainErosion({ backend, frameBudgetMs, maxCycles: cycles, patchSize: 32, hydraulic: { dropletsPerBatch: 256 }, rivers: { erosion: 0.1 } });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    return { ground, erosion };
}

/** A log (from another run, another backend) replayed on this page's backend from its snapshot; the fingerprint where it ends. */
async function replayRun(request: ReplayRequest): Promise<{ backend: string; fingerprint: string }> {
    const { ground, erosion } = await stampedErosion(request.backend, 8, 0);
    erosion.pause();
    const snapshot = ErosionSnapshot.fromArrayBuffer(decodeInt32(request.first).buffer as ArrayBuffer);
    await erosion.history.replay(snapshot, parseInputLog(request.log), request.until);
    const result = { backend: erosion.backend ?? "none", fingerprint: await erosion.fingerprint() };
    ground.dispose();
    await erosion.whenIdle();
    return result;
}

Object.assign(window, { editLatency, stampedRun, replayRun, undoLatency, strokeRate });
setup().then(() => Object.assign(window, { pageReady: true }));
