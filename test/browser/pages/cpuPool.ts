/**
 * Test page: TerrainErosion's CPU backend in its Web Worker with a pool of helper workers (nested
 * workers), on a cross-origin isolated page (shared memory) or not (rows copied to the helpers).
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { createGroundFromHeights, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { TerrainErosion, type ErosionOptionsInput } from "../../../plugin/index.js";

interface PoolRequest {
    width: number;
    depth: number;
    terrainSeed: number;
    options: ErosionOptionsInput;
    cycles: number;
}

/** Erodes `cycles` cycles on the CPU backend and reports the pool and the fingerprint. */
async function poolRun(request: PoolRequest) {
    const engine = new NullEngine();
    const scene = new Scene(engine);
    const heights = generateNoiseTerrain({ width: request.width, depth: request.depth, relief: 20, seed: request.terrainSeed });
    const ground = createGroundFromHeights("ground", heights, { columns: request.width, rows: request.depth, extent: { width: request.width - 1, height: request.depth - 1 } }, scene);
    const erosion = new TerrainErosion({ ...request.options, backend: "cpu", autoStart: false });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    await erosion.runCycles(request.cycles);
    const result = { fingerprint: await erosion.fingerprint(), pool: erosion.cpuPool, inWorker: erosion.backendInWorker, isolated: crossOriginIsolated };
    erosion.dispose();
    engine.dispose();
    return result;
}

Object.assign(window, { poolRun, pageReady: true });
