/**
 * TerrainWaterSurface under a NullEngine: one mesh per ground with the ground's grid, parented to
 * it; hidden until the texture is bound and while the erosion is gone; clear errors for a bad
 * erosion or option; dispose frees what it made, twice safely (its pixels are tested in the
 * browser: test/browser/waterSurface.test.ts).
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { createGroundFromHeights, createGroundTilesFromHeights, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { TerrainErosion, TerrainErosionWorld } from "../../../plugin/index.js";
import { TerrainWaterSurface } from "../../../plugin/water/index.js";
import { createNullScene, renderFrames } from "../../helpers/nullScene.js";

const GRID = { columns: 33, rows: 33, extent: { width: 32, height: 32 } };

describe("TerrainWaterSurface", () => {
    let env: ReturnType<typeof createNullScene>;
    beforeEach(() => (env = createNullScene()));
    afterEach(() => env.dispose());

    it("builds a mesh per ground on the ground's grid, shows it once the texture is bound, and disposes it all (twice safely)", async () => {
        const ground = createGroundFromHeights("ground", generateNoiseTerrain({ width: 33, depth: 33, relief: 8, seed: 2 }), GRID, env.scene);
        const erosion = new TerrainErosion({ patchSize: 16, autoStart: false, water: { enabled: true } });
        ground.addBehavior(erosion);
        const meshesBefore = env.scene.meshes.length;
        const surface = new TerrainWaterSurface(erosion, { opacity: 0.5 });
        expect(surface.getClassName()).toBe("TerrainWaterSurface");
        expect(surface.meshes.length).toBe(1);
        const [mesh] = surface.meshes;
        expect([mesh.parent, mesh.getTotalVertices(), mesh.isPickable, mesh.isEnabled()]).toEqual([ground, ground.getTotalVertices(), false, false]);
        await surface.whenReady;
        expect(mesh.isEnabled()).toBe(true);
        await erosion.runCycles(1);
        await renderFrames(env.scene, 2);
        surface.isEnabled = false;
        expect(mesh.isEnabled()).toBe(false);
        surface.isEnabled = true;
        surface.setOptions({ minDepth: 0.1 });
        expect([surface.options.minDepth, surface.options.opacity]).toEqual([0.1, 0.5]);
        expect(() => surface.setOptions({ foamSpeed: Number.NaN })).toThrow(/"foamSpeed" is NaN/);
        expect(surface.options.foamSpeed).toBeGreaterThan(0);
        surface.dispose();
        surface.dispose();
        expect(mesh.isDisposed()).toBe(true);
        expect(env.scene.meshes.length).toBe(meshesBefore);
        expect(env.scene.materials.some((material) => material.name === "TerrainWaterSurface")).toBe(false);
        // The texture is the erosion's: it is still there for other users.
        expect((await erosion.maps.getMapTexture("shallowWater")).getInternalTexture()).not.toBeNull();
        erosion.dispose();
    });

    it("covers every tile of a world, and hides when the erosion goes away", async () => {
        const heights = generateNoiseTerrain({ width: 33, depth: 33, relief: 8, seed: 4 });
        const grounds = createGroundTilesFromHeights("tile", heights, { ...GRID, tiles: { columns: 2, rows: 2 } }, env.scene);
        const world = new TerrainErosionWorld(grounds, { patchSize: 16, autoStart: false, water: { enabled: true } });
        const surface = new TerrainWaterSurface(world);
        await surface.whenReady;
        expect(surface.meshes.map((mesh) => [mesh.parent, mesh.getTotalVertices()])).toEqual(grounds.flat().map((ground) => [ground, ground.getTotalVertices()]));
        expect(surface.meshes.every((mesh) => mesh.isEnabled())).toBe(true);
        world.dispose();
        await renderFrames(env.scene, 1);
        expect(surface.meshes.some((mesh) => mesh.isEnabled())).toBe(false);
        surface.dispose();
    });

    it("refuses an erosion with no ground, a disposed one, something else, and bad options, naming what is wrong", () => {
        const ground = createGroundFromHeights("ground", generateNoiseTerrain({ width: 33, depth: 33, relief: 8, seed: 2 }), GRID, env.scene);
        const detached = new TerrainErosion({ autoStart: false });
        expect(() => new TerrainWaterSurface(detached)).toThrow(/erosion \(a TerrainErosion\) has no ground: it is not attached yet, detached or disposed/);
        expect(() => new TerrainWaterSurface({} as never)).toThrow(/erosion is object: it must be a TerrainErosion or a TerrainErosionWorld/);
        expect(() => new TerrainWaterSurface(null as never)).toThrow(/erosion is null/);
        const erosion = new TerrainErosion({ patchSize: 16, autoStart: false });
        ground.addBehavior(erosion);
        expect(() => new TerrainWaterSurface(erosion, { minDepth: Number.NaN })).toThrow(/option "minDepth" is NaN/);
        expect(env.scene.meshes.filter((mesh) => mesh.name.endsWith(" water"))).toEqual([]);
        erosion.dispose();
        expect(() => new TerrainWaterSurface(erosion)).toThrow(/has no ground/);
    });
});
