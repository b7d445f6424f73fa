/**
 * Bedrock and soil on the TerrainErosion component (NullEngine, CPU backend in-thread): the same
 * state as the CPU reference, the materials' maps, options changed live, snapshots and reset.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { CpuErosionSimulation, heightsToFixed, resolveOptions, TerrainErosion, type ErosionOptionsInput } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createGroundWithHeights, createNullScene } from "../../helpers/nullScene.js";

const W = 41;
const D = 33;
const OPTIONS: ErosionOptionsInput = { patchSize: 16, seed: 7, hydraulic: { dropletsPerBatch: 80, maxSteps: 20 }, materials: { enabled: true, soilTalus: 0.4, hardness: 3, initialSoil: 0.25, strataThickness: 2, strataHardness: 20, strataShare: 0.5, strataBase: -2 } };
const heights = generateNoiseTerrain({ width: W, depth: D, relief: 12, seed: 4 });

describe("bedrock and soil on TerrainErosion (NullEngine, CPU backend)", () => {
    let env: ReturnType<typeof createNullScene>;
    let scene: Scene;

    beforeEach(() => {
        env = createNullScene();
        scene = env.scene;
    });

    afterEach(() => {
        env.dispose();
    });

    it("equals the CPU reference, reports soil, exposed beds and hardness, and comes back with a snapshot", async () => {
        const erosion = new TerrainErosion({ ...OPTIONS, autoStart: false });
        createGroundWithHeights(scene, heights, W, D).addBehavior(erosion);
        await erosion.whenReady();
        await erosion.runCycles(2);
        const reference = new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions(OPTIONS));
        reference.runCycles(2);
        expect(await erosion.fingerprint()).toBe(reference.fingerprint());

        const maps = await erosion.maps.readMaps();
        const soil = reference.state.materials!.soil;
        // The ground's cell size is 1 local unit: soil in local units is the fixed point over 65536.
        expect(Array.from(maps.soil)).toEqual(Array.from(soil, (units) => Math.fround(units / 65536)));
        expect(maps.soil.some((thickness) => thickness > 0.25)).toBe(true);
        expect(maps.soil.some((thickness) => thickness === 0)).toBe(true);
        // Beds of 2 cells from -2 cells up: the relief of 12 cells crosses several, hard and soft.
        expect(new Set(maps.exposedLayer).size).toBeGreaterThan(3);
        expect(new Set(maps.rockHardness)).toEqual(new Set([3, 20]));

        const snapshot = await erosion.history.snapshot();
        await erosion.runCycles(1);
        const after = await erosion.fingerprint();
        await erosion.history.restore(snapshot);
        await erosion.runCycles(1);
        expect(await erosion.fingerprint()).toBe(after);

        // Off again: the soil stays as it is (and in the fingerprint), the heights erode as without materials.
        const heightsBefore = (await erosion.history.snapshot()).state.heights;
        const soilBefore = Array.from((await erosion.maps.readMaps()).soil);
        erosion.setOptions({ materials: { enabled: false } });
        await erosion.runCycles(1);
        expect(Array.from((await erosion.maps.readMaps()).soil)).toEqual(soilBefore);
        expect(Array.from((await erosion.history.snapshot()).state.heights)).not.toEqual(Array.from(heightsBefore));

        await erosion.history.reset();
        expect((await erosion.maps.readMaps()).soil.every((thickness) => thickness === 0)).toBe(true);
        erosion.detach();
    });

    it("refuses materials options out of range, naming the option", () => {
        expect(() => new TerrainErosion({ materials: { hardness: 0.5 } })).toThrow(/materials\.hardness.*\[1, 1000\]/);
        expect(() => new TerrainErosion({ materials: { strataDip: Number.NaN } })).toThrow(/materials\.strataDip/);
        expect(() => new TerrainErosion({ materials: { soilTalus: -1 } })).toThrow(/materials\.soilTalus/);
    });
});
