/**
 * What a new game trips on in its first hour: ground data in the forms Babylon's own idioms leave
 * (normals or positions as a plain `number[]`) are taken at attach, and `whenReady()` settles in
 * every order of calls around an attach that fails.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { VertexData } from "@babylonjs/core/Meshes/mesh.vertexData.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { ErosionTargetError, TerrainErosion, TerrainErosionWorld } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createGroundWithHeights, createNullScene, renderFrames } from "../../helpers/nullScene.js";

const W = 33;
const heights = generateNoiseTerrain({ width: W, depth: W, relief: 10, seed: 4 });
const OPTIONS = { patchSize: 16, seed: 2, hydraulic: { dropletsPerBatch: 60, maxSteps: 20 } };

/** Settles `promise` to "resolved" or the rejection's message, or "pending" after a few turns. */
async function stateOf(promise: Promise<unknown>): Promise<string> {
    let state = "pending";
    promise.then(() => (state = "resolved"), (error: Error) => (state = error.message));
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    return state;
}

describe("ground data at attach", () => {
    let env: ReturnType<typeof createNullScene>;
    beforeEach(() => (env = createNullScene()));
    afterEach(() => env.dispose());

    /** The idiom of Babylon's docs: normals computed into a plain array and stored as it is. */
    function withArrayNormals(ground: GroundMesh, positionsToo = false): void {
        const positions = Array.from(ground.getVerticesData(VertexBuffer.PositionKind)!);
        const normals: number[] = [];
        VertexData.ComputeNormals(positions, ground.getIndices(), normals);
        if (positionsToo) ground.updateVerticesData(VertexBuffer.PositionKind, positions);
        ground.updateVerticesData(VertexBuffer.NormalKind, normals);
    }

    it.each([
        ["normals", false],
        ["normals and positions", true],
    ])("%s stored as a number[] erode like Float32Array data, with no error after the attach", async (_name, positionsToo) => {
        const ground = createGroundWithHeights(env.scene, heights, W, W);
        withArrayNormals(ground, positionsToo);
        const reference = createGroundWithHeights(env.scene, heights, W, W, 1, "reference");
        const errors: string[] = [];
        const erosions = [ground, reference].map((target) => {
            const erosion = new TerrainErosion({ ...OPTIONS, autoStart: false });
            erosion.onErrorObservable.add((event) => errors.push(`${event.message} ${String(event.error ?? "")}`));
            target.addBehavior(erosion);
            return erosion;
        });
        expect(ground.getVertexBuffer(VertexBuffer.NormalKind)!.getData()).toBeInstanceOf(Float32Array);
        expect(ground.getVertexBuffer(VertexBuffer.PositionKind)!.getData()).toBeInstanceOf(Float32Array);
        for (const erosion of erosions) await erosion.whenReady();
        await Promise.all(erosions.map((erosion) => erosion.runCycles(1)));
        await renderFrames(env.scene, 2);
        for (const erosion of erosions) await erosion.flush();
        expect(errors).toEqual([]);
        const [mine, theirs] = [ground, reference].map((g) => g.getVerticesData(VertexBuffer.PositionKind)!);
        expect(Array.from(mine)).toEqual(Array.from(theirs));
        expect(mine.some((value, i) => i % 3 === 1 && Math.abs(value - heights[(i - 1) / 3]) > 1e-3)).toBe(true);
        const [normals, referenceNormals] = [ground, reference].map((g) => g.getVerticesData(VertexBuffer.NormalKind)!);
        expect(Array.from(normals)).toEqual(Array.from(referenceNormals));
    });

    it("names the cause when the normals are replaced with a number[] while eroding", async () => {
        const ground = createGroundWithHeights(env.scene, heights, W, W);
        const erosion = new TerrainErosion({ ...OPTIONS, autoStart: false });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        withArrayNormals(ground);
        await expect(erosion.runCycles(1)).rejects.toThrow(/keeps its normal data on the CPU as Array, no longer the Float32Array erosion writes in place: its vertex data was replaced while eroding/);
    });

    it("refuses normal data of the wrong length at attach, naming it", () => {
        const ground = createGroundWithHeights(env.scene, heights, W, W);
        ground.getVertexBuffer(VertexBuffer.NormalKind)!.update([0, 1, 0]);
        const erosion = new TerrainErosion(OPTIONS);
        expect(() => ground.addBehavior(erosion)).toThrow(ErosionTargetError);
        expect(() => erosion.attach(ground)).toThrow(/normal data holds 3 numbers, not the 3267 of its 1089 vertices/);
    });
});

describe("whenReady() around an attach that fails", () => {
    let env: ReturnType<typeof createNullScene>;
    beforeEach(() => (env = createNullScene()));
    afterEach(() => env.dispose());

    const fixed = () => CreateGround("fixed", { width: 8, height: 8, subdivisions: 8 }, env.scene);

    it("rejects with the attach's error when asked before the attach", async () => {
        const erosion = new TerrainErosion();
        const ready = erosion.whenReady();
        expect(() => fixed().addBehavior(erosion)).toThrow(/not updatable/);
        expect(await stateOf(ready)).toMatch(/not updatable/);
    });

    it("rejects with the attach's error when asked after addBehavior threw", async () => {
        const erosion = new TerrainErosion();
        expect(() => fixed().addBehavior(erosion)).toThrow(/not updatable/);
        expect(await stateOf(erosion.whenReady())).toMatch(/not updatable/);
        expect(await stateOf(erosion.whenReady())).toMatch(/not updatable/);
    });

    it("follows the next attach once one succeeds after a failed one", async () => {
        const erosion = new TerrainErosion({ ...OPTIONS, autoStart: false });
        expect(() => fixed().addBehavior(erosion)).toThrow(/not updatable/);
        createGroundWithHeights(env.scene, heights, W, W).addBehavior(erosion);
        expect(await stateOf(erosion.whenReady())).toBe("resolved");
        erosion.detach();
        const waiting = erosion.whenReady();
        expect(await stateOf(waiting)).toBe("pending");
        expect(() => fixed().addBehavior(erosion)).toThrow(/not updatable/);
        expect(await stateOf(waiting)).toMatch(/not updatable/);
        expect(await stateOf(erosion.whenReady())).toMatch(/not updatable/);
    });

    it("rejects after dispose, whether the attach failed or never came", async () => {
        const failed = new TerrainErosion();
        expect(() => fixed().addBehavior(failed)).toThrow(/not updatable/);
        failed.dispose();
        expect(await stateOf(failed.whenReady())).toMatch(/disposed/);
        const never = new TerrainErosion();
        never.dispose();
        expect(await stateOf(never.whenReady())).toMatch(/disposed/);
    });

    it("a world's whenReady() rejects once it is disposed", async () => {
        const world = new TerrainErosionWorld([[createGroundWithHeights(env.scene, heights, W, W)]], { ...OPTIONS, autoStart: false });
        await world.whenReady();
        world.dispose();
        expect(await stateOf(world.whenReady())).toMatch(/TerrainErosionWorld: disposed/);
    });
});
