/**
 * Benchmark page (npm run bench; not a test): a TerrainErosionWorld of 8 x 8 grounds of 513 x 513
 * (a 4097 x 4097 field) on WebGPU with the adapter's default limits, which one 4097 x 4097 ground
 * exceeds (its 201 MB of positions are over the default 128 MiB binding). It records how long the
 * world takes to build and start, the GPU time of its first frames, and whether every seam's
 * shared vertices agree after them. Driven by bench/src/chromiumMain.ts.
 */
import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import "@babylonjs/core/Materials/standardMaterial.js";
import { createGroundTilesFromHeights, generateNoiseTerrain } from "../../plugin/terrain.js";
import { TerrainErosionWorld } from "../../plugin/index.js";
import { summarize, type BenchRecord } from "../src/records.js";
import { seamMismatches } from "../../scripts/lib/seams.js";
import type { BenchPageResult } from "./benchGpu.js";

/** What the driver asks for. */
export interface WorldBenchRequest {
    /** Grounds a side. */
    tiles: number;
    /** Vertices a side of each ground. */
    tileSide: number;
    /** Erosion frames to sample. */
    frames: number;
}

async function runWorldBench(request: WorldBenchRequest): Promise<BenchPageResult> {
    const canvas = document.createElement("canvas");
    canvas.width = 320;
    canvas.height = 240;
    document.body.appendChild(canvas);
    // Default limits: no requiredLimits.
    const engine = new WebGPUEngine(canvas, { antialias: false });
    await engine.initAsync();
    const info = engine.getInfo();
    const adapter = `${info.vendor} ${info.renderer} ${info.version}`.trim();
    const limit = engine.currentLimits.maxStorageBufferBindingSize;
    const scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 3000, -4000), scene).setTarget(Vector3.Zero());
    const side = request.tiles * (request.tileSide - 1) + 1;
    const started = performance.now();
    const heights = generateNoiseTerrain({ width: side, depth: side, relief: 400, seed: 1 });
    const grounds = createGroundTilesFromHeights("tile", heights, { columns: side, rows: side, extent: { width: side - 1, height: side - 1 }, tiles: { columns: request.tiles, rows: request.tiles } }, scene);
    // Not drawn (as the component figures): a frame's GPU time is erosion's alone.
    grounds.flat().forEach((ground) => (ground.isVisible = false));
    const world = new TerrainErosionWorld(grounds, { backend: "webgpu", frameBudgetMs: 4 });
    await world.whenReady();
    const setupMs = performance.now() - started;
    const gpuMs: number[] = [];
    let last = world.lastFrame;
    world.onPatchErodedObservable.add(() => {
        if (world.lastFrame !== last && world.lastFrame.measuredMs !== null) gpuMs.push(world.lastFrame.measuredMs);
        last = world.lastFrame;
    });
    engine.runRenderLoop(() => scene.render());
    while (gpuMs.length < request.frames) {
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
    world.pause();
    await world.whenIdle();
    const mismatches = seamMismatches(grounds, (ground) => ({ positions: ground.getVerticesData(VertexBuffer.PositionKind)!, normals: ground.getVerticesData(VertexBuffer.NormalKind)! })).length;
    engine.stopRenderLoop();
    const grid = `${request.tiles} x ${request.tiles} grounds of ${request.tileSide} x ${request.tileSide} (a ${side} x ${side} field), WebGPU with the default maxStorageBufferBindingSize (${limit} bytes), backend ${world.backend}`;
    const records: BenchRecord[] = [
        { backend: "component-chromium", kernel: "world-setup", size: side, brushRadius: null, threads: null, unit: "ms", median: setupMs, min: setupMs, max: setupMs, runs: 1, detail: `${grid}: terrain generated, grounds built, world bound and its backend started` },
        { backend: "component-chromium", kernel: "world-frame-gpu", size: side, brushRadius: null, threads: null, unit: "ms", ...summarize(gpuMs), runs: gpuMs.length, detail: `${grid}: GPU time of its first ${gpuMs.length} erosion frames at a 4 ms budget; shared edge vertices differing afterwards: ${mismatches}` },
    ];
    world.dispose();
    return { adapter, records };
}

Object.assign(window, { runWorldBench, pageReady: true });
