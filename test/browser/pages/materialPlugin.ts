/**
 * Test page: `TerrainErosionMaterialPlugin` on a PBRMaterial, on WebGPU (`?engine=webgpu`, the
 * WebGPU backend) or WebGL2 (the CPU backend in a worker, its maps texture kept current from the
 * changed rows), with rock and soil on. The Node test takes screenshots and hands them back here to measure.
 */
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { PBRMaterial } from "@babylonjs/core/Materials/PBR/pbrMaterial.js";
import "@babylonjs/core/Engines/WebGPU/Extensions/engine.computeShader.js";
import { createGroundFromHeights, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { TerrainErosion } from "../../../plugin/index.js";
import { TerrainErosionMaterialPlugin } from "../../../plugin/material/index.js";
import { createPageEngine } from "../../helpers/pageEngine.js";
import { runThrottledRenderLoop } from "../../helpers/renderLoop.js";

const SIDE = 65;
let scene: Scene;
let engine: AbstractEngine;
let plugin: TerrainErosionMaterialPlugin;
let withPlugin: PBRMaterial;
let plain: PBRMaterial;
let erosion: TerrainErosion;

function pbr(name: string): PBRMaterial {
    const material = new PBRMaterial(name, scene);
    material.albedoColor = new Color3(0.55, 0.5, 0.45);
    material.metallic = 0;
    material.roughness = 1;
    return material;
}

/** Builds the scene, erodes a few cycles and binds the plugin; resolves with the backend. */
async function setup(): Promise<{ backend: string | null; webgpu: boolean }> {
    engine = await createPageEngine(600);
    scene = new Scene(engine);
    scene.clearColor = new Color4(0, 0, 0, 1);
    const camera = new ArcRotateCamera("camera", -Math.PI / 2, 0.0001, 95, new Vector3(0, 0, 0), scene);
    camera.fov = 0.7;
    new HemisphericLight("sky", new Vector3(0, 1, 0), scene).intensity = 0.6;
    new DirectionalLight("sun", new Vector3(-0.3, -1, 0.2), scene).intensity = 1.5;
    const heights = generateNoiseTerrain({ width: SIDE, depth: SIDE, relief: 14, seed: 6 });
    const ground = createGroundFromHeights("ground", heights, { columns: SIDE, rows: SIDE, extent: { width: SIDE - 1, height: SIDE - 1 } }, scene);
    withPlugin = pbr("withPlugin");
    plain = pbr("plain");
    ground.material = withPlugin;
    // Rock and soil on, with hard beds: the plugin colours rock by layer and soil by thickness too.
    erosion = new TerrainErosion({ patchSize: 32, seed: 4, autoStart: false, hydraulic: { dropletsPerBatch: 600 }, materials: { enabled: true, initialSoil: 0.05, hardness: 2, strataThickness: 1.5, strataHardness: 8, strataShare: 0.5 } });
    // At once: while the scene loads (the PBR material's BRDF texture), Babylon defers a behavior's attach.
    ground.addBehavior(erosion, true);
    await erosion.whenReady();
    await erosion.runCycles(4);
    plugin = new TerrainErosionMaterialPlugin(withPlugin, erosion);
    await plugin.whenReady;
    await plugin.fitScales();
    runThrottledRenderLoop(engine, () => scene.render());
    return { backend: erosion.backend, webgpu: engine.isWebGPU };
}

/**
 * Texels of the maps and materials textures the plugin samples that differ from the maps read back
 * as arrays (water, wear and deposition in local units, direction slot or -1; soil in local units,
 * exposed bed, hardness, 1), after a few more frames of erosion.
 */
async function texelMismatches(): Promise<{ checked: number; mismatches: number; materialMismatches: number }> {
    erosion.setOptions({ frameBudgetMs: 0.05 });
    erosion.start();
    for (let i = 0; i < 6; i++) await new Promise((resolve) => scene.onAfterRenderObservable.addOnce(resolve));
    erosion.pause();
    await erosion.whenIdle();
    await new Promise((resolve) => scene.onAfterRenderObservable.addOnce(resolve));
    const texture = await erosion.maps.getMapsTexture();
    const pixels = new Float32Array(((await texture.readPixels()) as Float32Array).buffer.slice(0));
    const materialPixels = new Float32Array(((await (await erosion.maps.getMapTexture("materials")).readPixels()) as Float32Array).buffer.slice(0));
    const maps = await erosion.maps.readMaps();
    const unit = 1 / 65536;
    const differs = (texels: Float32Array, i: number, expected: number[]) => expected.some((value, k) => Math.abs(texels[i * 4 + k] - value) > 1e-6 * Math.max(1, Math.abs(value)));
    let mismatches = 0;
    let materialMismatches = 0;
    for (let i = 0; i < SIDE * SIDE; i++) {
        if (differs(pixels, i, [maps.water[i], Math.fround(maps.wear[i] * unit), Math.fround(maps.deposition[i] * unit), maps.direction[i] === 255 ? -1 : maps.direction[i]])) mismatches++;
        if (differs(materialPixels, i, [maps.soil[i], maps.exposedLayer[i], maps.rockHardness[i], 1])) materialMismatches++;
    }
    return { checked: SIDE * SIDE, mismatches, materialMismatches };
}

/** Sets the plugin's colour options (the next `show` renders with them). */
function setPlugin(options: Partial<Pick<TerrainErosionMaterialPlugin, "soilEnabled" | "layersEnabled">>): void {
    Object.assign(plugin, options);
}

/** Screen points of the thickest soil (top 10%, away from the wettest fifth, which the wet tint covers) and of bare rock (no soil), inside the ground, with how many beds the bare rock shows. */
async function materialPoints(): Promise<{ soil: [number, number][]; bare: [number, number][]; beds: number }> {
    const maps = await erosion.maps.readMaps();
    const heights = await erosion.maps.readHeights();
    const interior: number[] = [];
    for (let y = 3; y < SIDE - 3; y++) for (let x = 3; x < SIDE - 3; x++) interior.push(y * SIDE + x);
    const wettest = [...interior].sort((a, b) => maps.water[a] - maps.water[b])[Math.floor(interior.length * 0.8)];
    const bySoil = interior.filter((i) => maps.water[i] < maps.water[wettest]).sort((a, b) => maps.soil[a] - maps.soil[b]);
    const soil = bySoil.slice(Math.floor(bySoil.length * 0.9));
    const bare = interior.filter((i) => maps.soil[i] === 0);
    const project = projector(heights);
    return { soil: soil.map(project), bare: bare.map(project), beds: new Set(bare.map((i) => maps.exposedLayer[i])).size };
}

/** Maps a field vertex to its screen point (CSS pixels). */
function projector(heights: Float32Array): (i: number) => [number, number] {
    const transform = scene.getTransformMatrix();
    const viewport = scene.activeCamera!.viewport.toGlobal(engine.getRenderWidth(), engine.getRenderHeight());
    const ratio = engine.getRenderWidth() / 600;
    return (i) => {
        const world = new Vector3(-(SIDE - 1) / 2 + (i % SIDE), heights[i], (SIDE - 1) / 2 - Math.floor(i / SIDE));
        const screen = Vector3.Project(world, Matrix.Identity(), transform, viewport);
        return [screen.x / ratio, screen.y / ratio];
    };
}

/** Shows one variant: the plugin on, the plugin's `isEnabled` false, or a plain material without it. */
async function show(variant: "plugin" | "disabled" | "plain"): Promise<void> {
    const ground = scene.getMeshByName("ground")!;
    ground.material = variant === "plain" ? plain : withPlugin;
    plugin.isEnabled = variant !== "disabled";
    await scene.whenReadyAsync();
    for (let i = 0; i < 4; i++) await new Promise((resolve) => scene.onAfterRenderObservable.addOnce(resolve));
}

/** Screen points (CSS pixels) of vertices with high water (top 5% of visits) and of dry slopes (least-visited third of the steeper half). */
async function classify(): Promise<{ wet: [number, number][]; dry: [number, number][] }> {
    const maps = await erosion.maps.readMaps();
    const heights = await erosion.maps.readHeights();
    const interior: number[] = [];
    const slope = (i: number) => {
        const x = i % SIDE;
        const y = Math.floor(i / SIDE);
        return Math.hypot(heights[i + 1] - heights[i - 1], heights[i + SIDE] - heights[i - SIDE]) / 2 + (x < 0 || y < 0 ? 0 : 0);
    };
    for (let y = 3; y < SIDE - 3; y++) for (let x = 3; x < SIDE - 3; x++) interior.push(y * SIDE + x);
    const byWater = [...interior].sort((a, b) => maps.water[a] - maps.water[b]);
    const wet = byWater.slice(Math.floor(byWater.length * 0.95));
    const steep = [...interior].sort((a, b) => slope(a) - slope(b)).slice(Math.floor(interior.length / 2));
    const dry = [...steep].sort((a, b) => maps.water[a] - maps.water[b]).slice(0, Math.floor(steep.length / 3));
    const project = projector(heights);
    return { wet: wet.map(project), dry: dry.map(project) };
}

async function decode(png: string): Promise<{ data: Uint8ClampedArray; width: number }> {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext("2d")!;
    context.drawImage(bitmap, 0, 0);
    return { data: context.getImageData(0, 0, bitmap.width, bitmap.height).data, width: bitmap.width };
}

/** Mean luminance and blue share (b / (r + g + b)) of a screenshot at the points. */
async function measure(png: string, points: [number, number][]): Promise<{ luminance: number; blue: number }> {
    const { data, width } = await decode(png);
    let luminance = 0;
    let blue = 0;
    for (const [x, y] of points) {
        const i = (Math.round(y) * width + Math.round(x)) * 4;
        luminance += 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
        blue += data[i + 2] / Math.max(1, data[i] + data[i + 1] + data[i + 2]);
    }
    return { luminance: luminance / points.length, blue: blue / points.length };
}

/** Mean difference of two screenshots' colours at the points (mean over the channels, 0..255). */
async function pointDifference(a: string, b: string, points: [number, number][]): Promise<number> {
    const [first, second] = [await decode(a), await decode(b)];
    let sum = 0;
    for (const [x, y] of points) {
        const i = (Math.round(y) * first.width + Math.round(x)) * 4;
        sum += (Math.abs(first.data[i] - second.data[i]) + Math.abs(first.data[i + 1] - second.data[i + 1]) + Math.abs(first.data[i + 2] - second.data[i + 2])) / 3;
    }
    return sum / points.length;
}

/** Share of pixels whose colour differs by more than 2/255 in some channel. */
async function difference(a: string, b: string): Promise<number> {
    const [first, second] = [await decode(a), await decode(b)];
    let differing = 0;
    for (let i = 0; i < first.data.length; i += 4) {
        if (Math.max(Math.abs(first.data[i] - second.data[i]), Math.abs(first.data[i + 1] - second.data[i + 1]), Math.abs(first.data[i + 2] - second.data[i + 2])) > 2) differing++;
    }
    return differing / (first.data.length / 4);
}

Object.assign(window, { setup, show, classify, measure, difference, texelMismatches, setPlugin, materialPoints, pointDifference, pageReady: true });
