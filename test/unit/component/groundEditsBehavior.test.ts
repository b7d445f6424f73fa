/**
 * Ground edits on the behavior (CPU backend, NullEngine): world units in, the mesh changed within
 * three frames of the call whether erosion runs or is paused, the same terrain as the mesh-free
 * simulation given the same stamps, snapshots that carry a pending edit, and bad arguments refused.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CpuErosionSimulation, heightsToFixed, resolveOptions, TerrainErosion } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createGroundWithHeights, createNullScene, renderFrames } from "../../helpers/nullScene.js";

const W = 41;
const D = 33;
const heights = generateNoiseTerrain({ width: W, depth: D, seed: 5, relief: 12 });
const OPTIONS = { backend: "cpu" as const, patchSize: 16, hydraulic: { dropletsPerBatch: 64 } };

describe("ground edits on TerrainErosion", () => {
    let world: ReturnType<typeof createNullScene>;
    beforeEach(() => (world = createNullScene()));
    afterEach(() => world.dispose());

    async function attached(autoStart: boolean) {
        const ground = createGroundWithHeights(world.scene, heights, W, D);
        const erosion = new TerrainErosion({ ...OPTIONS, autoStart });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        return { erosion, ground };
    }

    /** Local y of vertex (column, row) on the mesh's CPU data. */
    const meshHeight = (ground: { getVerticesData(kind: string): unknown }, column: number, row: number) => (ground.getVerticesData(VertexBuffer.PositionKind) as Float32Array)[(row * W + column) * 3 + 1];

    for (const autoStart of [false, true]) {
        it(`a dig reaches the mesh within 3 frames and stays (${autoStart ? "running" : "paused"})`, async () => {
            const { erosion, ground } = await attached(autoStart);
            await renderFrames(world.scene, 2);
            // Vertex (20, 16) is at the ground's centre: world (0, y, 0).
            const before = meshHeight(ground, 20, 16);
            const handle = erosion.edits.dig(new Vector3(0, 0, 0), 4, 2);
            expect(handle.kind).toBe("dig");
            let frames = 0;
            while (frames < 10 && Math.abs(before - 2 - meshHeight(ground, 20, 16)) > 0.05) {
                await renderFrames(world.scene, 1);
                frames++;
            }
            console.log(`dig seen on the mesh after ${frames} frame(s) (CPU backend, ${autoStart ? "running" : "paused"})`);
            // The CPU data shows it at once (a preview on the rows the mesh holds) and keeps it until the exact rows land.
            expect(frames).toBeLessThanOrEqual(3);
            await renderFrames(world.scene, 3);
            expect(before - meshHeight(ground, 20, 16)).toBeGreaterThan(1.9);
            erosion.pause();
            await erosion.whenIdle();
            expect((await erosion.maps.readCounters()).editRemoved).toBeGreaterThan(0);
        });
    }

    it("equals the mesh-free simulation with the same stamps, and a snapshot carries a pending edit", async () => {
        const { erosion } = await attached(false);
        await erosion.runCycles(1);
        const handle = erosion.edits.crater(new Vector3(-6, 0, 4), 5, 1.5);
        const snapshot = await erosion.history.snapshot();
        expect(snapshot.state.edits).toHaveLength(1);
        await erosion.runCycles(1);
        const reference = new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions(OPTIONS));
        reference.runCycles(1);
        // World (-6, 4) on a 40 x 32 ground centred at the origin: column 14, row 12.
        const edit = reference.edit({ kind: "crater", depth: 1.5 * 65536, rim: true }, [{ x: 14, y: 12 }], 5);
        expect([edit.cycle, edit.batch]).toEqual([handle.cycle, handle.batch]);
        reference.runCycles(1);
        expect(await erosion.fingerprint()).toBe(reference.fingerprint());
        await erosion.history.restore(snapshot);
        await erosion.runCycles(1);
        expect(await erosion.fingerprint()).toBe(reference.fingerprint());
    });

    it("flattenArea levels a plot given by world positions, as the mesh-free simulation does", async () => {
        const { erosion } = await attached(false);
        const plot = [new Vector3(-8, 0, 6), new Vector3(6, 0, 8), new Vector3(4, 0, -6), new Vector3(-6, 0, -4)];
        erosion.edits.flattenArea(plot, { to: 5, edge: 2 });
        await erosion.runCycles(1);
        const reference = new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions(OPTIONS));
        reference.edit({ kind: "flatten", target: 5 * 65536, area: true }, plot.map((p) => ({ x: p.x + 20, y: 16 - p.z })), 2);
        reference.runCycles(1);
        expect(await erosion.fingerprint()).toBe(reference.fingerprint());
    });

    it("refuses bad arguments with their names before anything changes", async () => {
        const { erosion } = await attached(false);
        const fingerprint = await erosion.fingerprint();
        expect(() => erosion.edits.dig(new Vector3(0, 0, 0), Number.NaN, 1)).toThrow(/dig: radius is NaN/);
        expect(() => erosion.edits.pile(new Vector3(0, 0, 0), -1, 1)).toThrow(/pile: radius is -1/);
        expect(() => erosion.edits.dig(new Vector3(0, 0, 0), 3, 0)).toThrow(/dig: depth is 0/);
        expect(() => erosion.edits.crater(new Vector3(500, 0, 0), 3, 1)).toThrow(/misses the ground/);
        expect(() => erosion.edits.along([new Vector3(0, 0, 0)], 2, { dig: 1 })).toThrow(/along: path has 1 points/);
        expect(() => erosion.edits.flatten(new Vector3(0, 0, 0), 3, { to: Number.POSITIVE_INFINITY })).toThrow(/flatten.to is Infinity/);
        expect(() => erosion.edits.flatten(new Vector3(0, 0, 0), 3, { edge: 2 })).toThrow(/edge is 2/);
        expect(() => erosion.edits.flattenArea([new Vector3(0, 0, 0), new Vector3(3, 0, 0)])).toThrow(/flattenArea: polygon has 2 points/);
        expect(() => erosion.edits.flattenArea([new Vector3(0, 0, 0), new Vector3(3, 0, 0), new Vector3(0, 0, 3)], { edge: -1 })).toThrow(/flattenArea: edge is -1/);
        expect(await erosion.fingerprint()).toBe(fingerprint);
    });
});
