/**
 * Shallow water on the TerrainErosion component (NullEngine, CPU backend in-thread): the same state
 * as the CPU reference, sources through world positions, maps, snapshots and reset.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions, TerrainErosion, TerrainErosionWorld, type ErosionOptionsInput } from "../../../plugin/index.js";
import { createGroundTilesFromHeights, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createGroundWithHeights, createNullScene } from "../../helpers/nullScene.js";

const W = 41;
const D = 33;
const OPTIONS: ErosionOptionsInput = { patchSize: 16, seed: 5, hydraulic: { dropletsPerBatch: 80, maxSteps: 20 }, water: { enabled: true, rain: 0.01, stepsPerCycle: 3, capacity: 8 } };
const heights = generateNoiseTerrain({ width: W, depth: D, relief: 12, seed: 4 });

describe("shallow water on TerrainErosion (NullEngine, CPU backend)", () => {
    let env: ReturnType<typeof createNullScene>;
    let scene: Scene;

    beforeEach(() => {
        env = createNullScene();
        scene = env.scene;
    });

    afterEach(() => {
        env.dispose();
    });

    async function attached() {
        const erosion = new TerrainErosion({ ...OPTIONS, autoStart: false });
        createGroundWithHeights(scene, heights, W, D).addBehavior(erosion);
        await erosion.whenReady();
        return erosion;
    }

    it("equals the CPU reference with a source added at a world position, and reports the water's maps", async () => {
        const erosion = await attached();
        // Ground vertex (column 20, row 10): x = 20 - (W - 1) / 2, z = (D - 1) / 2 - 10 (row 0 is the far, +z, edge).
        const spring = erosion.edits.addWaterSource({ x: 0, y: 0, z: 6 }, 2, 3);
        await erosion.runCycles(2);
        const reference = new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions(OPTIONS));
        reference.addWaterSource(20, 10, 2, 3);
        reference.runCycles(2);
        expect(await erosion.fingerprint()).toBe(reference.fingerprint());
        const maps = await erosion.maps.readMaps();
        expect(maps.waterDepth.length).toBe(W * D);
        expect(maps.waterVelocity.length).toBe(2 * W * D);
        expect(maps.waterDepth[10 * W + 20]).toBeGreaterThan(0.01);
        expect(maps.waterVelocity.some((speed) => speed !== 0)).toBe(true);
        const texture = await erosion.maps.getMapTexture("shallowWater");
        expect(texture.name).toBe("TerrainErosion.shallowWater");
        expect(spring.remove()).toBe(true);
        expect(spring.remove()).toBe(false);
        expect(() => erosion.edits.addWaterSource({ x: 0, y: 0, z: 0 }, Number.NaN, 1)).toThrow(/radius is NaN/);
        expect(() => erosion.edits.addWaterSource({ x: 500, y: 0, z: 0 }, 1, 1)).toThrow(RangeError);
        erosion.detach();
    });

    it("snapshots and restores the water with its sources, and reset() brings back the dry ground", async () => {
        const erosion = await attached();
        const start = await erosion.fingerprint();
        erosion.edits.addWaterSource({ x: -5, y: 0, z: 3 }, 1.5, 2);
        await erosion.runCycles(1);
        const snapshot = ErosionSnapshot.fromArrayBuffer((await erosion.history.snapshot()).toArrayBuffer());
        expect(snapshot.state.water).not.toBeNull();
        expect(snapshot.state.sources?.inForce.length).toBe(1);
        await erosion.runCycles(1);
        const after = await erosion.fingerprint();
        await erosion.history.restore(snapshot);
        await erosion.runCycles(1);
        expect(await erosion.fingerprint()).toBe(after);
        await erosion.history.reset();
        expect(await erosion.fingerprint()).toBe(start);
        expect((await erosion.maps.readMaps()).waterDepth.every((depth) => depth === 0)).toBe(true);
        erosion.detach();
    });

    it("runs on a world of grounds as on one ground: a 3 x 2 world with a spring across a seam equals the CPU reference, and saves keep the water", async () => {
        const grounds = createGroundTilesFromHeights("tile", heights, { columns: W, rows: D, extent: { width: W - 1, height: D - 1 }, tiles: { columns: [15, 12, 13], rows: [13, 19] } }, scene);
        const world = new TerrainErosionWorld(grounds, { ...OPTIONS, autoStart: false });
        await world.whenReady();
        // Field column 15 is the seam between the first two columns of grounds; row 13 between the rows.
        world.edits.addWaterSource({ x: 15 - (W - 1) / 2, y: 0, z: (D - 1) / 2 - 13 }, 2, 3);
        await world.runCycles(2);
        const reference = new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions(OPTIONS));
        reference.addWaterSource(15, 13, 2, 3);
        reference.runCycles(2);
        expect(await world.fingerprint()).toBe(reference.fingerprint());
        const saves = await Promise.all(grounds.flat().map((ground) => world.saveGround(ground)));
        expect(saves.every((save) => save.snapshot.state.water !== null)).toBe(true);
        await world.runCycles(1);
        const later = await world.fingerprint();
        await world.restoreGrounds(saves);
        await world.runCycles(1);
        expect(await world.fingerprint()).toBe(later);
        world.dispose();
    });
});
