/**
 * TerrainErosion's CPU backend on a worker pool (Node worker threads under a NullEngine): frames
 * give each worker a batch of the class even when one batch is over the budget, and the terrain is
 * the one-thread reference's.
 */
import type { Scene } from "@babylonjs/core/scene.js";
import { erodeHeightfield, TerrainErosion } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createGroundWithHeights, createNullScene, renderFrames } from "../../helpers/nullScene.js";

const W = 65;
const D = 49;
const OPTIONS = { patchSize: 16, seed: 5, hydraulic: { dropletsPerBatch: 96, maxSteps: 30 }, rivers: { stepsPerBatch: 6 } };
const heights = generateNoiseTerrain({ width: W, depth: D, relief: 20, seed: 6 });

describe("TerrainErosion on a CPU worker pool", () => {
    let env: ReturnType<typeof createNullScene>;
    let scene: Scene;

    beforeEach(() => {
        env = createNullScene();
        scene = env.scene;
    });

    afterEach(() => {
        env.dispose();
    });

    it("runs a batch per worker each frame, under a tiny budget, to the reference terrain", async () => {
        const erosion = new TerrainErosion({ ...OPTIONS, cpuWorkers: 2, frameBudgetMs: 0.05, maxCycles: 2 });
        createGroundWithHeights(scene, heights, W, D).addBehavior(erosion);
        await erosion.whenReady();
        expect(erosion.cpuPool).toEqual({ workers: 2, sharedMemory: true, webAssembly: true });
        let mostBatches = 0;
        for (let frame = 0; erosion.cyclesCompleted < 2 && frame < 2000; frame++) {
            await renderFrames(scene, 1);
            await erosion.whenIdle();
            mostBatches = Math.max(mostBatches, erosion.lastFrame.batches);
        }
        expect(mostBatches).toBe(2);
        expect(await erosion.fingerprint()).toBe(erodeHeightfield(heights, W, D, OPTIONS, 2).fingerprint);
        erosion.dispose();
    });
});
