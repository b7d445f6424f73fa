/**
 * The sample scene: a terrain eroding live, on WebGPU (the WGSL kernels) or, with
 * `?engine=webgl2` or where WebGPU is missing, on WebGL2 with the CPU backend in a Web Worker.
 * `?terrain=montblanc` erodes a real mountain range (SRTM, 16-bit) instead of the generated one;
 * `?terrain=world` cuts the generated terrain into 4 x 4 grounds eroded as one `TerrainErosionWorld`;
 * `?terrain=fan`, `?terrain=delta` and `?terrain=scarp` are terrains built for landforms that build
 * (a mountain front whose river lays a fan on the plain, a river into a lake, raining, that builds a
 * delta, a capped escarpment that sheds a talus apron at its foot under the mesa's settings).
 * Press I (or the Inspector button) to tune every option live; shift-drag on the terrain to rain on
 * it (erodeAt).
 * `?join=ws://host:port` makes it a lockstep player of the sample's server (`npm run lockstep-server`,
 * sample-scene/lockstep/): every tab that joins digs on the same terrain, to the unit.
 * `?size=N` (generated terrain side in vertices, default 513) and `?droplets=N` (droplets per batch)
 * set the scene's weight; on a software renderer (SwiftShader, llvmpipe) it picks a light terrain
 * and draws at most 20 frames a second by itself (sample-scene/lightSettings.ts; `?fps=N` sets the
 * cap, 0 none) and the panel says so. The panel's Rain switch and Spring tool run
 * the shallow water and draw its surface (sample-scene/waterControls.ts); `?water=1` starts with rain.
 * `?stall=MS` sets `stallTimeoutMs` (how long a wait on the device or worker may take before erosion
 * reports a stall and rebuilds its backend; default 5 minutes).
 */
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { DirectionalLight } from "@babylonjs/core/Lights/directionalLight.js";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
// The Inspector's Occlusions pane needs the query extension when core is imported per file.
import "@babylonjs/core/Engines/AbstractEngine/abstractEngine.query.js";
import { createGroundFromHeights, createGroundFromPng16, createGroundTilesFromHeights, generateNoiseTerrain } from "../plugin/terrain.js";
import { TerrainErosion, TerrainErosionWorld, type ErosionController, type ErosionOptionsInput } from "../plugin/index.js";
import { TerrainColoursPlugin } from "./terrainColours.js";
import { createPanel } from "./panel.js";
import { keepScalesFitted } from "./mapsView.js";
import { createWaterControls, type WaterControls } from "./waterControls.js";
import { createGroundTools } from "./groundTools.js";
import { joinLockstep, lockstepLine } from "./lockstep/lockstepClient.js";
import { LIGHT_TERRAIN, softwareRenderer } from "./lightSettings.js";
import { closedBasinHeights, ESCARPMENT_OPTIONS, escarpmentHeights, LANDFORM_SIZE, mountainFrontHeights } from "./landformTerrains.js";
import { TerrainErosionMaterialPlugin } from "../plugin/material/index.js";
import { PointerEventTypes } from "@babylonjs/core/Events/pointerEvents.js";
import "@babylonjs/core/Culling/ray.js";

/** The terrains the sample offers. */
const TERRAINS = {
    generated: { label: "Generated (fBm + ridged noise, 1 m cells)" },
    montblanc: { label: "Mont Blanc massif (SRTM-3, 647 x 647, 93 m cells)" },
    world: { label: "World of 4 x 4 grounds (generated, 1 m cells)" },
    fan: { label: "Mountain front onto a plain (129 x 129, 1 m cells): its river lays a fan" },
    delta: { label: "River into a closed lake (129 x 129, 1 m cells, raining): a delta at its mouth" },
    scarp: { label: "Capped escarpment over a plain (129 x 129, 1 m cells, the mesa's settings): a talus apron at its foot" },
} as const;
type TerrainName = keyof typeof TERRAINS;

const params = new URLSearchParams(location.search);
const terrainName: TerrainName = (Object.keys(TERRAINS) as TerrainName[]).find((name) => name === params.get("terrain")) ?? "generated";
/** The landform terrains (landformTerrains.ts): one size, the claims' (`?size` does not apply). */
const LANDFORMS = { fan: mountainFrontHeights, delta: closedBasinHeights, scarp: escarpmentHeights } as const;
const isLandform = terrainName in LANDFORMS;
const askedDroplets = params.has("droplets") ? Math.max(1, Math.min(65536, Number(params.get("droplets")) || 1024)) : undefined;
// ?workers=N: the CPU backend's workers (cpuWorkers; 0 or absent picks max(1, cores - 1)).
const cpuWorkers = Math.max(0, Math.min(64, Math.floor(Number(params.get("workers")) || 0)));
const stallOption = params.has("stall") ? { stallTimeoutMs: Math.max(1000, Math.min(3600000, Number(params.get("stall")) || 300000)) } : {};

async function createEngine(canvas: HTMLCanvasElement): Promise<AbstractEngine> {
    if (params.get("engine") !== "webgl2" && (await WebGPUEngine.IsSupportedAsync)) {
        // All features: "timestamp-query" among them, so the erosion's GPU cost is measured, not estimated.
        const engine = new WebGPUEngine(canvas, { antialias: true, enableAllFeatures: true });
        await engine.initAsync();
        return engine;
    }
    return new Engine(canvas, true, { preserveDrawingBuffer: true });
}

/** The terrain: its grounds (one, or a world's grid), extent (m), height range and options. */
interface Terrain {
    grounds: GroundMesh[][];
    options: ErosionOptionsInput;
    size: number;
    low: number;
    high: number;
}

/** The terrain's weight: what the page asks for, else light on a software renderer, else the full 513 x 513. */
function terrainWeight(engine: AbstractEngine): { size: number; droplets: number; fps: number; note: string | null } {
    const software = softwareRenderer(engine);
    const light = software !== null && !params.has("size") && terrainName !== "montblanc" && !isLandform;
    const size = Math.max(33, Math.min(2049, Number(params.get("size") ?? (light ? LIGHT_TERRAIN.size : 513)) || 513));
    const droplets = askedDroplets ?? (software !== null ? LIGHT_TERRAIN.droplets : 1024);
    const fps = params.has("fps") ? Math.max(0, Math.min(240, Number(params.get("fps")) || 0)) : software !== null ? LIGHT_TERRAIN.fps : 0;
    const drawn = fps > 0 ? `, ${fps} frames a second` : "";
    const note = software === null ? null : light ? `Software renderer (${software}): a light ${size} x ${size} terrain, ${droplets} droplets a batch${drawn} (?size=513 for the full one)` : `Software renderer (${software}): erosion runs slowly here${drawn}`;
    return { size, droplets, fps, note };
}

/**
 * `?strata=1`: bedrock and soil, the rock in dipping beds a twelfth of the relief thick, some ten
 * times harder than the rest, so the valleys' walls step into cliffs and benches; soil from slope
 * at the start (a third of a cell on flats, none past a slope of 1), and rock weathering into soil
 * (1% of the way to half a cell a thermal step), which creeps off the steep ground.
 */
function strataPreset(relief: number): ErosionOptionsInput {
    if (params.get("strata") !== "1") return {};
    return {
        thermal: { talus: 2, iterations: 8 },
        materials: { enabled: true, soilTalus: 0.6, hardness: 1.5, initialSoil: 0.3, initialSoilSlope: 1, weathering: 0.01, soilDepth: 0.5, strataThickness: relief / 12, strataHardness: 12, strataShare: 0.4, strataSeed: 3, strataDip: 0.05, strataDipDirection: 30 },
    };
}

async function createTerrain(scene: Scene, weight: { size: number; droplets: number }): Promise<Terrain> {
    const relief = terrainName === "montblanc" ? (4810 - 454) / (60000 / 646) : (90 * weight.size) / 513;
    const options: ErosionOptionsInput = { seed: 7, frameBudgetMs: 4, cpuWorkers, ...stallOption, hydraulic: { dropletsPerBatch: weight.droplets }, ...strataPreset(relief) };
    if (terrainName === "montblanc") {
        const extent = 60000;
        const ground = await createGroundFromPng16("Mont Blanc", "alps-montblanc.png", { extent: { width: extent, height: extent }, range: { min: 454, max: 4810 } }, scene);
        return { grounds: [[ground]], size: extent, low: 454, high: 4810, options };
    }
    if (isLandform) {
        // The terrain the realism claims erode, in metres (cells of 1 m), at their options (the defaults; the escarpment's, the mesa's) but the scene's weight.
        const side = LANDFORM_SIZE;
        const heights = LANDFORMS[terrainName as keyof typeof LANDFORMS]();
        const ground = createGroundFromHeights(TERRAINS[terrainName].label, heights, { columns: side, rows: side, extent: { width: side - 1, height: side - 1 } }, scene);
        const landformOptions = terrainName === "scarp" ? { ...ESCARPMENT_OPTIONS, ...options } : options;
        return { grounds: [[ground]], size: side - 1, low: 0, high: Math.max(...heights), options: landformOptions };
    }
    const vertices = weight.size;
    const heights = generateNoiseTerrain({ width: vertices, depth: vertices, relief: (90 * vertices) / 513, seed: 3, ridged: 0.6, wavelength: (200 * vertices) / 513 });
    const grid = { columns: vertices, rows: vertices, extent: { width: vertices - 1, height: vertices - 1 } };
    const grounds = terrainName === "world" ? createGroundTilesFromHeights("Tile", heights, { ...grid, tiles: { columns: 4, rows: 4 } }, scene) : [[createGroundFromHeights("Generated terrain", heights, grid, scene)]];
    return { grounds, size: vertices - 1, low: 0, high: (90 * vertices) / 513, options };
}

/** A TerrainErosionWorld over a grid of grounds, or a TerrainErosion behavior on a single one. */
function startErosion(grounds: GroundMesh[][], options: ErosionOptionsInput): ErosionController {
    if (terrainName === "world") {
        return new TerrainErosionWorld(grounds, options);
    }
    const erosion = new TerrainErosion(options);
    grounds[0][0].addBehavior(erosion);
    return erosion;
}

async function main(): Promise<void> {
    const canvas = document.getElementById("renderCanvas") as HTMLCanvasElement;
    const engine = await createEngine(canvas);
    const scene = new Scene(engine);
    scene.clearColor = new Color4(0.62, 0.74, 0.86, 1);

    const weight = terrainWeight(engine);
    const { grounds, options, size, low, high } = await createTerrain(scene, weight);
    const ground = grounds[0][0];
    const allGrounds = grounds.flat();
    const camera = new ArcRotateCamera("camera", -Math.PI / 2.4, Math.PI / 3.6, size * 1.35, new Vector3(0, (low + high) / 3, 0), scene);
    camera.minZ = size / 500;
    camera.maxZ = size * 10;
    camera.wheelPrecision = 2000 / size;
    camera.attachControl(canvas, true);
    const sky = new HemisphericLight("sky", new Vector3(0, 1, 0), scene);
    sky.intensity = 0.45;
    sky.groundColor = new Color3(0.25, 0.22, 0.2);
    const sun = new DirectionalLight("sun", new Vector3(-0.6, -0.55, 0.45), scene);
    sun.intensity = 0.9;

    const material = new StandardMaterial("terrain", scene);
    material.specularColor = new Color3(0.04, 0.04, 0.04);
    const colours = new TerrainColoursPlugin(material);
    colours.minHeight = low;
    colours.maxHeight = high;
    allGrounds.forEach((tile) => (tile.material = material));

    const erosion = startErosion(grounds, options);
    erosion.onErrorObservable.add((event) => console.warn(`${erosion.getClassName()} (${event.kind}): ${event.message}`));
    // The erosion maps over the height colouring, as in any material of a game.
    const erosionMaterial = new TerrainErosionMaterialPlugin(material, erosion);
    // A lockstep player behind its horizon does not refit (the readback would hold its frames while it catches up).
    keepScalesFitted(erosionMaterial, 2000, () => erosion.lockstep.horizon !== null && (erosion.lockstep.stamp.cycle !== erosion.lockstep.horizon.cycle || erosion.lockstep.stamp.batch !== erosion.lockstep.horizon.batch));

    // Click and drag on the terrain to rain on it (erodeAt): a storm where the pointer goes.
    let raining = false;
    const rainRadius = size / 40;
    const rainAt = (): void => {
        const pick = scene.pick(scene.pointerX, scene.pointerY, (mesh) => allGrounds.includes(mesh as GroundMesh));
        if (pick?.hit && pick.pickedPoint) {
            erosion.edits.erodeAt(pick.pickedPoint, rainRadius, { droplets: 600, hydraulic: { erosion: 0.6 } });
        }
    };
    scene.onPointerObservable.add((info) => {
        const event = info.event as PointerEvent;
        if (info.type === PointerEventTypes.POINTERDOWN && event.shiftKey) {
            raining = true;
            camera.detachControl();
            rainAt();
        } else if (info.type === PointerEventTypes.POINTERMOVE && raining) {
            rainAt();
        } else if (info.type === PointerEventTypes.POINTERUP && raining) {
            raining = false;
            camera.attachControl(canvas, true);
        }
    });

    let inspector: { dispose(): void } | null = null;
    const toggleInspector = async (): Promise<void> => {
        if (inspector) {
            inspector.dispose();
            inspector = null;
            return;
        }
        // Loaded on demand: the Inspector and React are several megabytes the scene does not need up front.
        const { ShowInspector, SelectionServiceIdentity } = await import("@babylonjs/inspector");
        inspector = ShowInspector(scene, {
            disableTeachingMoments: true,
            serviceDefinitions: [
                {
                    friendlyName: "Select the eroding ground",
                    consumes: [SelectionServiceIdentity],
                    factory: (selection: { selectedEntity: object | null }) => {
                        selection.selectedEntity = ground;
                        return { dispose: () => undefined };
                    },
                },
            ],
        } as never);
    };

    let water: WaterControls | null = null;
    let lockstep: Awaited<ReturnType<typeof joinLockstep>> | null = null;
    const panel = createPanel({
        erosion,
        engine,
        terrainLabel: TERRAINS[terrainName].label,
        terrains: Object.entries(TERRAINS).map(([name, terrain]) => ({ name, label: terrain.label, current: name === terrainName })),
        onInspector: () => void toggleInspector(),
        onMapMode: (mode) => (erosionMaterial.mapView = mode),
        onReset: () => water?.onReset(),
        fileStem: terrainName,
        note: weight.note,
        lockstep: () => (lockstep ? lockstepLine(lockstep.status()) : null),
    });
    water = createWaterControls({ erosion, scene, grounds: allGrounds, container: document.getElementById("water-controls")!, size, raining: params.get("water") === "1" || terrainName === "delta" });
    const tools = createGroundTools({ erosion, scene, camera, canvas, grounds: allGrounds, container: document.getElementById("ground-tools")!, size, relief: high - low });
    window.addEventListener("keydown", (event) => {
        if (event.key === "i" || event.key === "I") void toggleInspector();
    });

    // On a software renderer the sample draws at most LIGHT_TERRAIN.fps frames a second (?fps=N
    // asks for another cap, ?fps=0 for none): drawing as fast as it can took the cores the erosion
    // needs (its WebGPU kernels run on the same CPU, its CPU backend beside it).
    const frameInterval = weight.fps > 0 ? 1000 / weight.fps : 0;
    let lastFrame = -Infinity;
    engine.runRenderLoop(() => {
        const now = performance.now();
        if (now - lastFrame < frameInterval - 1) return;
        lastFrame = now;
        // Babylon 9.28 throws from its first draw after restoring a lost WebGPU device; an uncaught
        // throw would end the render loop, and erosion resumes by itself once frames go on.
        try {
            scene.render();
        } catch (error) {
            console.warn("Frame failed:", error);
        }
        panel.update();
    });
    window.addEventListener("resize", () => engine.resize());
    // ?join=ws://host:port: a lockstep player of the sample's server (sample-scene/lockstep/).
    lockstep = params.has("join") ? await joinLockstep(params.get("join")!, erosion, scene) : null;
    Object.assign(window, { sample: { engine, scene, ground, grounds, erosion, colours, erosionMaterial, water, tools, lockstep, toggleInspector, inspectorOpen: () => inspector !== null } });
}

main().catch((error) => {
    console.error(error);
    document.body.insertAdjacentHTML("beforeend", `<pre class="fatal">${String(error?.message ?? error)}</pre>`);
});
