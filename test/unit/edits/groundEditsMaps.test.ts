/**
 * The maps follow a ground edit (CPU backend, NullEngine): the region the edit's frame brings back
 * (the dig's columns of its rows, not whole rows) carries the shallow-water texture's texels over
 * the dig, its water surface (ground + water) lowered by the dig's depth, and the maps texture's
 * texels with them; `readMaps` agrees.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { TerrainErosion } from "../../../plugin/index.js";
import { CpuMapsTextures } from "../../../plugin/component/cpuMapsTextures.js";
type MapsTexels = Parameters<CpuMapsTextures["uploadRows"]>[0];
import { createGroundWithHeights, createNullScene, renderFrames } from "../../helpers/nullScene.js";

const W = 33;
const D = 29;

describe("the maps after a ground edit", () => {
    it("the edit's frame uploads the rows over it: the water surface there lowered by the dig", async () => {
        const world = createNullScene();
        try {
            const heights = generateNoiseTerrain({ width: W, depth: D, seed: 4, relief: 6 });
            const ground = createGroundWithHeights(world.scene, heights, W, D);
            const erosion = new TerrainErosion({ backend: "cpu", cpuWorkers: 1, autoStart: false, patchSize: 16, water: { enabled: true, stepsPerCycle: 1 } });
            ground.addBehavior(erosion);
            await erosion.whenReady();
            await erosion.maps.getMapTexture("shallowWater");
            await erosion.maps.getMapsTexture();
            const uploads: { texels: MapsTexels; y0: number; y1: number; x0: number; x1: number }[] = [];
            const spy = jest.spyOn(CpuMapsTextures.prototype, "uploadRows").mockImplementation(function (texels, y0, y1, x0 = 0, x1 = W) {
                uploads.push({ texels, y0, y1, x0, x1 });
            });
            try {
                // The ground's centre vertex: column 16, row 14 (world x 0, z 0).
                const centre = 14 * W + 16;
                const surfaceBefore = heights[centre];
                erosion.edits.dig(new Vector3(0, 0, 0), 4, 2);
                await renderFrames(world.scene, 3);
                await erosion.whenIdle();
                const upload = uploads.find((rows) => rows.y0 <= 14 && rows.y1 > 14 && rows.x0 <= 16 && rows.x1 > 16 && rows.texels.water);
                expect(upload).toBeDefined();
                const columns = upload!.x1 - upload!.x0;
                expect(columns).toBeLessThan(W);
                const texel = ((14 - upload!.y0) * columns + 16 - upload!.x0) * 4;
                const surfaceAfter = upload!.texels.water![texel + 3];
                console.log(`water surface at the dig's centre: ${surfaceBefore.toFixed(3)} -> ${surfaceAfter.toFixed(3)} (rows ${upload!.y0}..${upload!.y1 - 1}, columns ${upload!.x0}..${upload!.x1 - 1} uploaded)`);
                expect(surfaceBefore - surfaceAfter).toBeGreaterThan(1.9);
                expect(upload!.texels.maps.length).toBe((upload!.y1 - upload!.y0) * columns * 4);
                const maps = await erosion.maps.readMaps();
                expect(maps.waterDepth[centre]).toBe(upload!.texels.water![texel]);
            } finally {
                spy.mockRestore();
            }
            erosion.detach();
        } finally {
            world.dispose();
        }
    });
});
