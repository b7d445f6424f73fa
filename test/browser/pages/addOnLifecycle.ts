/**
 * Test page: a game object's life with every add-on on (the material plugin on the ground's
 * material, the water surface, rain): attach, run, detach or dispose, 30 more frames, attach again;
 * and a TerrainErosionWorld disposed the same way. `?engine=webgpu` (WebGPU backend) or WebGL2
 * (CPU backend). The render loop has no try/catch, as in a game: a throw from a material's bind
 * would stop it, and the frame counts below would say so (20 frames a second: the test's own pace).
 */
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import "@babylonjs/core/Engines/WebGPU/Extensions/engine.computeShader.js";
import { createGroundFromHeights, createGroundTilesFromHeights, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { TerrainErosion, TerrainErosionWorld, type ErosionController } from "../../../plugin/index.js";
import { TerrainErosionMaterialPlugin } from "../../../plugin/material/index.js";
import { TerrainWaterSurface } from "../../../plugin/water/index.js";
import { createPageEngine } from "../../helpers/pageEngine.js";
import { runThrottledRenderLoop } from "../../helpers/renderLoop.js";

const SIDE = 33;
const OPTIONS = { patchSize: 16, seed: 3, hydraulic: { dropletsPerBatch: 64 }, water: { enabled: true, rain: 0.02, stepsPerCycle: 1 } };
/** The world's: the water surface draws the (dry) water texture; what is tested is its dispose. */
const WORLD_OPTIONS = { patchSize: 16, seed: 3, hydraulic: { dropletsPerBatch: 64 } };
const heights = generateNoiseTerrain({ width: SIDE, depth: SIDE, relief: 6, seed: 5 });

let engine: AbstractEngine;
let scene: Scene;
let frames = 0;
const errors: string[] = [];

/** What the add-ons and the ground show after a step of the life. */
interface LifeStep {
    /** True when the render loop drew every frame the step waited for (30 after a detach or dispose). */
    framesDrawn: boolean;
    /** Page errors so far. */
    errors: string[];
    /** Largest difference between the mesh's heights after the step and before it (0: kept). */
    heightChange: number;
    backend: string | null;
    waterShown: boolean;
    cycles: number;
}

async function setup(): Promise<{ webgpu: boolean }> {
    window.addEventListener("error", (event) => errors.push(String(event.message)));
    window.addEventListener("unhandledrejection", (event) => errors.push(String(event.reason)));
    engine = await createPageEngine(400);
    scene = new Scene(engine);
    scene.clearColor = new Color4(1, 0, 1, 1); // magenta: nothing of the scene is
    // Straight down on the ground, which fills the middle of the view.
    new ArcRotateCamera("camera", -Math.PI / 2, 0.0001, 40, Vector3.Zero(), scene).fov = 0.9;
    new HemisphericLight("sky", new Vector3(0.2, 1, 0.1), scene);
    runThrottledRenderLoop(engine, () => {
        scene.render();
        frames++;
    });
    return { webgpu: engine.isWebGPU };
}

function material(name: string): StandardMaterial {
    const result = new StandardMaterial(name, scene);
    result.diffuseColor = new Color3(0.5, 0.55, 0.4);
    return result;
}

/** Waits for `count` frames, or gives up after `timeoutMs` (a stopped render loop). */
async function waitFrames(count: number, timeoutMs = 30000): Promise<number> {
    const start = frames;
    const deadline = performance.now() + timeoutMs;
    while (frames - start < count && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return frames - start;
}

function meshHeights(grounds: GroundMesh[]): number[] {
    return grounds.flatMap((ground) => {
        const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
        return Array.from({ length: positions.length / 3 }, (_, i) => positions[i * 3 + 1]);
    });
}

let erosion: TerrainErosion;
let plugin: TerrainErosionMaterialPlugin;
let water: TerrainWaterSurface;
let ground: GroundMesh;

/** `frames` frames, then what the ground and the add-ons show, against the heights `before` the step. */
async function step(controller: ErosionController, grounds: GroundMesh[], before: number[], waterSurface: TerrainWaterSurface, frames = 30): Promise<LifeStep> {
    const counted = await waitFrames(frames);
    const now = meshHeights(grounds);
    return {
        framesDrawn: counted >= frames,
        errors: [...errors],
        heightChange: Math.max(...now.map((h, i) => Math.abs(h - before[i]))),
        backend: controller.backend,
        waterShown: waterSurface.meshes.length > 0 && waterSurface.meshes.every((mesh) => mesh.isEnabled()),
        cycles: controller.cyclesCompleted,
    };
}

/** A ground with the material plugin and the water surface on, eroded one cycle with rain. */
async function attach(): Promise<LifeStep> {
    ground = createGroundFromHeights("ground", heights, { columns: SIDE, rows: SIDE, extent: { width: SIDE - 1, height: SIDE - 1 } }, scene);
    ground.material = material("terrain");
    erosion = new TerrainErosion(OPTIONS);
    ground.addBehavior(erosion);
    plugin = new TerrainErosionMaterialPlugin(ground.material, erosion);
    await erosion.whenReady();
    water = new TerrainWaterSurface(erosion);
    await Promise.all([plugin.whenReady, water.whenReady]);
    await erosion.runCycles(1);
    await erosion.flush();
    return step(erosion, [ground], meshHeights([ground]), water, 5);
}

/** Detaches (or disposes) the running erosion, then 30 frames. */
async function leave(how: "detach" | "dispose"): Promise<LifeStep> {
    erosion.start();
    await waitFrames(3);
    await erosion.flush();
    const eroded = Array.from(await erosion.maps.readHeights());
    if (how === "detach") erosion.detach();
    else erosion.dispose();
    return step(erosion, [ground], eroded, water);
}

/** Attaches the detached erosion again (as a game does with `addBehavior`) and erodes one more cycle. */
async function attachAgain(): Promise<LifeStep> {
    const eroded = meshHeights([ground]);
    ground.addBehavior(erosion);
    await erosion.whenReady();
    await Promise.all([plugin.whenReady, water.whenReady]);
    await erosion.runCycles(1);
    await erosion.flush();
    return step(erosion, [ground], eroded, water, 5);
}

/** A 2 x 2 world with the plugin and the water surface, eroded one cycle, then disposed; 30 frames. */
async function worldLife(): Promise<LifeStep> {
    ground.setEnabled(false);
    const side = 33;
    const tiles = createGroundTilesFromHeights("tile", generateNoiseTerrain({ width: side, depth: side, relief: 6, seed: 7 }), { columns: side, rows: side, extent: { width: side - 1, height: side - 1 }, tiles: { columns: 2, rows: 2 } }, scene);
    const shared = material("world");
    tiles.flat().forEach((tile) => (tile.material = shared));
    const world = new TerrainErosionWorld(tiles, WORLD_OPTIONS);
    const worldPlugin = new TerrainErosionMaterialPlugin(shared, world);
    const worldWater = new TerrainWaterSurface(world);
    await Promise.all([world.whenReady(), worldPlugin.whenReady, worldWater.whenReady]);
    await world.runCycles(1);
    await world.flush();
    const eroded = meshHeights(tiles.flat());
    world.dispose();
    return step(world, tiles.flat(), eroded, worldWater);
}

/** Share of the pixels in the view's middle half (where the ground is) that are not the clear colour. */
async function groundCoverage(png: string): Promise<number> {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext("2d")!;
    context.drawImage(bitmap, 0, 0);
    const { data, width, height } = context.getImageData(0, 0, bitmap.width, bitmap.height);
    let drawn = 0;
    let all = 0;
    for (let y = Math.floor(height / 4); y < (3 * height) / 4; y++) {
        for (let x = Math.floor(width / 4); x < (3 * width) / 4; x++) {
            const i = (y * width + x) * 4;
            all++;
            if (!(data[i] > 240 && data[i + 1] < 15 && data[i + 2] > 240)) drawn++;
        }
    }
    return drawn / all;
}

Object.assign(window, { setup, attach, leave, attachAgain, worldLife, groundCoverage, pageReady: true });
