/**
 * Test page: a TerrainErosionWorld of 3 x 2 non-square grounds on a real WebGPUEngine (SwiftShader
 * in headless Chromium), the seams read back from the GPU vertex buffers during the run.
 */
import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import "@babylonjs/core/Engines/WebGPU/Extensions/engine.computeShader.js";
import "@babylonjs/core/Materials/standardMaterial.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { createGroundTilesFromHeights, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { TerrainErosionWorld, type ErosionOptionsInput } from "../../../plugin/index.js";
import { readVertexBuffer } from "../../helpers/gpuReadback.js";
import { seamMismatches as sharedSeamMismatches } from "../../../scripts/lib/seams.js";

let engine: WebGPUEngine;
let scene: Scene;

async function setup(): Promise<void> {
    const canvas = document.createElement("canvas");
    canvas.width = 320;
    canvas.height = 240;
    document.body.appendChild(canvas);
    engine = new WebGPUEngine(canvas, { antialias: false });
    await engine.initAsync();
    scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 60, -90), scene).setTarget(Vector3.Zero());
    new HemisphericLight("light", new Vector3(0.3, 1, 0.2), scene);
    engine.runRenderLoop(() => scene.render());
}

interface WorldRequest {
    width: number;
    depth: number;
    terrainSeed: number;
    tiles: { columns: number[]; rows: number[] };
    options: ErosionOptionsInput;
    cycles: number;
    /** Read the GPU vertex buffers back every this many frames. */
    readEvery: number;
}

/** Shared edge vertices that differ between two grounds in `data` (per ground, xyz per vertex). */
function seamMismatches(grounds: GroundMesh[][], data: Map<GroundMesh, { positions: Float32Array; normals: Float32Array }>): number {
    return sharedSeamMismatches(grounds, (ground) => data.get(ground)!).length;
}

async function gpuData(grounds: GroundMesh[][]) {
    const data = new Map<GroundMesh, { positions: Float32Array; normals: Float32Array }>();
    for (const ground of grounds.flat()) {
        data.set(ground, { positions: await readVertexBuffer(engine, ground, VertexBuffer.PositionKind), normals: await readVertexBuffer(engine, ground, VertexBuffer.NormalKind) });
    }
    return data;
}

function cpuData(grounds: GroundMesh[][]) {
    return new Map(grounds.flat().map((ground) => [ground, { positions: ground.getVerticesData(VertexBuffer.PositionKind) as Float32Array, normals: ground.getVerticesData(VertexBuffer.NormalKind) as Float32Array }]));
}

/** Erodes the world frame by frame on WebGPU, checking its seams; then the same on the CPU backend (a Web Worker). */
async function worldRun(request: WorldRequest) {
    const heights = generateNoiseTerrain({ width: request.width, depth: request.depth, relief: 20, seed: request.terrainSeed });
    const extent = { width: request.width - 1, height: request.depth - 1 };
    const grounds = createGroundTilesFromHeights("tile", heights, { columns: request.width, rows: request.depth, extent, tiles: request.tiles }, scene);
    const world = new TerrainErosionWorld(grounds, { ...request.options, backend: "webgpu", frameBudgetMs: 0.05, maxCycles: request.cycles });
    await world.whenReady();
    let frames = 0;
    let gpuChecks = 0;
    let cpuSeamMismatches = 0;
    let gpuSeamMismatches = 0;
    const updatedGrounds = new Set<string>();
    world.onCpuDataUpdatedObservable.add(({ ground }) => updatedGrounds.add(ground.name));
    while (world.isRunning || world.cyclesCompleted < request.cycles) {
        const frame = frames++;
        await new Promise<void>((resolve) => scene.onAfterRenderObservable.addOnce(() => resolve()));
        cpuSeamMismatches += seamMismatches(grounds, cpuData(grounds));
        if (frame % request.readEvery === 0 && world.isRunning) {
            // Between two frames: no erosion frame may land while the grounds are read one by one.
            world.pause();
            await world.whenIdle();
            gpuSeamMismatches += seamMismatches(grounds, await gpuData(grounds));
            gpuChecks++;
            world.start();
        }
        if (frames > 5000) throw new Error("The world did not finish its cycles.");
    }
    await world.whenIdle();
    const fingerprint = await world.fingerprint();
    const field = Array.from(await world.maps.readHeights());
    const finalGpu = await gpuData(grounds);
    gpuSeamMismatches += seamMismatches(grounds, finalGpu);
    // Each ground's GPU positions are its window of the field's heights.
    let windowMismatches = 0;
    for (const ground of grounds.flat()) {
        const { x0, y0, width, depth } = world.windowOf(ground);
        const positions = finalGpu.get(ground)!.positions;
        for (let y = 0; y < depth; y++) for (let x = 0; x < width; x++) if (positions[(y * width + x) * 3 + 1] !== field[(y0 + y) * request.width + x0 + x]) windowMismatches++;
    }
    const backend = world.backend;
    world.dispose();
    const cpuTiles = createGroundTilesFromHeights("cpu", heights, { columns: request.width, rows: request.depth, extent, tiles: request.tiles }, scene);
    const cpuWorld = new TerrainErosionWorld(cpuTiles, { ...request.options, backend: "cpu", autoStart: false });
    await cpuWorld.runCycles(request.cycles);
    const cpuFingerprint = await cpuWorld.fingerprint();
    const cpuInWorker = cpuWorld.backendInWorker;
    cpuWorld.dispose();
    return { backend, frames, gpuChecks, cpuSeamMismatches, gpuSeamMismatches, windowMismatches, fingerprint, cpuFingerprint, cpuInWorker, updatedGrounds: updatedGrounds.size };
}

setup().then(() => Object.assign(window, { worldRun, pageReady: true }));
