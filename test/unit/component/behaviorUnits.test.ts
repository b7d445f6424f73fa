/**
 * The behaviors' errors speak in the units the caller used: world units (through the ground's
 * transform) for the edits, `erodeAt` and `addWaterSource`, where the core checks them in cells.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CpuErosionSimulation, heightsToFixed, resolveOptions, TerrainErosion } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createGroundWithHeights, createNullScene } from "../../helpers/nullScene.js";

const W = 41;
const D = 33;
const heights = generateNoiseTerrain({ width: W, depth: D, seed: 5, relief: 12 });

describe("the behaviors' errors in world units", () => {
    let world: ReturnType<typeof createNullScene>;
    beforeEach(() => (world = createNullScene()));
    afterEach(() => world.dispose());

    /** Cells 2 units wide on a ground scaled by 1.5 and moved: a cell is 3 world units, the ground 120 x 96 around (100, -40). */
    async function attached() {
        const ground = createGroundWithHeights(world.scene, heights, W, D, 2);
        ground.position = new Vector3(100, 5, -40);
        ground.scaling = new Vector3(1.5, 1.5, 1.5);
        ground.computeWorldMatrix(true);
        const erosion = new TerrainErosion({ backend: "cpu", autoStart: false, patchSize: 16 });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        return erosion;
    }

    it.each([
        ["dig's radius", (e: TerrainErosion) => e.edits.dig(new Vector3(100, 0, -40), 0.4, 1), "dig: radius is 0.4: it must be a number in [1.5, 123] world units."],
        ["a path's width", (e: TerrainErosion) => e.edits.along([new Vector3(90, 0, -40), new Vector3(110, 0, -40)], 0.5, { dig: 1 }), "along: width / 2 is 0.25: it must be a number in [1.5, 123] world units."],
        ["pile's height", (e: TerrainErosion) => e.edits.pile(new Vector3(100, 0, -40), 6, 20000), "pile: height is 20000 world units: it must be a number in [0, 12288] world units."],
        ["a crater off the ground", (e: TerrainErosion) => e.edits.crater(new Vector3(500, 0, -40), 6, 2), "crater: the edit around (x 500, z -40) misses the ground (from (x 40, z 8) to (x 160, z -88))."],
        ["flatten's target", (e: TerrainErosion) => e.edits.flatten(new Vector3(100, 0, -40), 6, { to: 1e7 }), /^flatten: target is 10000000 world units: it must be within the height range \[-?[\d.]+, [\d.]+\] world units\.$/],
        ["flattenArea's edge", (e: TerrainErosion) => e.edits.flattenArea([new Vector3(90, 0, -40), new Vector3(110, 0, -40), new Vector3(100, 0, -30)], { edge: 500 }), "flattenArea: edge is 500: it must be a number in [0, 123] world units."],
        ["erodeAt's radius", (e: TerrainErosion) => e.edits.erodeAt(new Vector3(100, 0, -40), 0.4), "erodeAt: radius is 0.4 world units: it must be between half a cell, 1.5 world units, and the ground's larger side (123 world units)."],
        ["erodeAt off the ground", (e: TerrainErosion) => e.edits.erodeAt(new Vector3(500, 0, -40), 6), "erodeAt: the disc at (x 500, z -40) with radius 6 misses the ground (from (x 40, z 8) to (x 160, z -88))."],
        ["a water source off the ground", (e: TerrainErosion) => e.edits.addWaterSource(new Vector3(500, 0, -40), 3, 1), "addWaterSource: the position (x 500, z -40) is off the ground (from (x 40, z 8) to (x 160, z -88)): it must lie on it."],
        ["a water source's radius", (e: TerrainErosion) => e.edits.addWaterSource(new Vector3(100, 0, -40), 20000, 1), "addWaterSource: radius is 20000: it must be a number in [0, 12288] world units."],
    ])("%s", async (_name, call, message) => {
        const erosion = await attached();
        expect(() => call(erosion)).toThrow(message);
    });

    it("the mesh-free simulation's errors stay in cells", () => {
        const simulation = new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions({ patchSize: 16 }));
        expect(() => simulation.edit({ kind: "dig", depth: 65536 }, [{ x: 20, y: 16 }], 0.4)).toThrow("dig: radius is 0.4: it must be a number in [0.5, 41] cells.");
        expect(() => simulation.erodeAt(20, 16, 0.4)).toThrow("erodeAt: radius is 0.4 cells: it must be between half a cell and the ground's larger side (41 cells).");
        expect(() => simulation.addWaterSource(500, 16, 1, 1)).toThrow("addWaterSource: centre x is 500: it must be a number in [0, 40] cells (the position must lie on the field).");
    });
});
