/**
 * TerrainErosionWorld under a NullEngine with the CPU backend: a grid of grounds eroded as one
 * field, exact at the seams.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { createGroundFromHeights, createGroundTilesFromHeights, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { erodeHeightfield, ErosionGroundSave, ErosionTargetError, TerrainErosion, TerrainErosionWorld, type ErosionOptionsInput, type GroundDataUpdate } from "../../../plugin/index.js";
import { sizeProblem } from "../../../plugin/component/gpuLimits.js";
import { createNullScene, renderFrames } from "../../helpers/nullScene.js";
import { seamMismatches as sharedSeamMismatches } from "../../../scripts/lib/seams.js";

const OPTIONS: ErosionOptionsInput = { patchSize: 16, seed: 3, hydraulic: { dropletsPerBatch: 120, maxSteps: 30 }, thermal: { talus: 0.4 } };

/** Field 61 x 33 cut into 3 x 2 non-square grounds of unequal sizes. */
const W = 61;
const D = 33;
const TILES = { columns: [24, 16, 20], rows: [12, 20] };
const heights = generateNoiseTerrain({ width: W, depth: D, relief: 20, seed: 8 });
const extentOf = (width: number, depth: number) => ({ width: width - 1, height: depth - 1 });

/** Shared edge vertices that differ in the grounds' CPU data. */
const seamMismatches = (grounds: GroundMesh[][]) => sharedSeamMismatches(grounds, (ground) => ({ positions: ground.getVerticesData(VertexBuffer.PositionKind)!, normals: ground.getVerticesData(VertexBuffer.NormalKind)! }));

describe("TerrainErosionWorld on a NullEngine (CPU backend)", () => {
    let env: ReturnType<typeof createNullScene>;
    let scene: Scene;

    beforeEach(() => {
        env = createNullScene();
        scene = env.scene;
    });

    afterEach(() => {
        env.dispose();
    });

    const tiles = (tilesOption = TILES, values = heights) => createGroundTilesFromHeights("tile", values, { columns: W, rows: D, extent: extentOf(W, D), tiles: tilesOption }, scene);

    it("erodes a 3 x 2 world of non-square grounds to the stitched field's fingerprint, seams equal at every frame", async () => {
        const grounds = tiles();
        expect(grounds.map((row) => row.map((g) => `${g.subdivisionsX + 1}x${g.subdivisionsY + 1}`))).toEqual([
            ["25x13", "17x13", "21x13"],
            ["25x21", "17x21", "21x21"],
        ]);
        const world = new TerrainErosionWorld(grounds, { ...OPTIONS, frameBudgetMs: 0.05, maxCycles: 2 });
        await world.whenReady();
        expect(world.getClassName()).toBe("TerrainErosionWorld");
        expect(world.fieldSize).toEqual({ width: W, depth: D });
        expect(world.windowOf(grounds[1][2])).toEqual({ row: 1, column: 2, x0: 40, y0: 12, width: 21, depth: 21 });
        expect(seamMismatches(grounds)).toEqual([]); // normals agree from the start
        let frames = 0;
        for (; frames < 400 && world.cyclesCompleted < 2; frames++) {
            await renderFrames(scene, 1);
            expect(seamMismatches(grounds)).toEqual([]);
        }
        await world.whenIdle();
        expect(frames).toBeGreaterThan(10); // a small budget: many frames, each checked
        expect(seamMismatches(grounds)).toEqual([]);
        const reference = erodeHeightfield(heights, W, D, OPTIONS, 2);
        expect(await world.fingerprint()).toBe(reference.fingerprint);
        // Every ground shows its window of the field.
        await world.flush();
        for (const ground of grounds.flat()) {
            const { x0, y0, width, depth } = world.windowOf(ground);
            const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
            for (let y = 0; y < depth; y++) {
                for (let x = 0; x < width; x++) {
                    expect(positions[(y * width + x) * 3 + 1]).toBeCloseTo(reference.heights[(y0 + y) * W + x0 + x], 4);
                }
            }
        }
        world.dispose();
    });

    it("gives one fingerprint split 1 x 1, 2 x 2 and 4 x 4, equal to TerrainErosion on the whole ground", async () => {
        const side = 65;
        const field = generateNoiseTerrain({ width: side, depth: side, relief: 20, seed: 5 });
        const options = { ...OPTIONS, autoStart: false, featureSize: 0 };
        const single = createGroundFromHeights("single", field, { columns: side, rows: side, extent: extentOf(side, side) }, scene);
        const behavior = new TerrainErosion(options);
        single.addBehavior(behavior);
        await behavior.runCycles(2);
        const expected = await behavior.fingerprint();
        behavior.dispose();
        single.dispose();
        for (const split of [1, 2, 4]) {
            const grounds = createGroundTilesFromHeights(`t${split}`, field, { columns: side, rows: side, extent: extentOf(side, side), tiles: { columns: split, rows: split } }, scene);
            const world = new TerrainErosionWorld(grounds, options);
            await world.runCycles(2);
            expect([split, await world.fingerprint()]).toEqual([split, expected]);
            world.dispose();
            grounds.flat().forEach((g) => g.dispose());
        }
    });

    it("erodes rock and soil across grounds as on one ground (dipping strata, a hardness map, weathering), and saves the soil with a ground", async () => {
        const side = 49;
        const field = generateNoiseTerrain({ width: side, depth: side, relief: 20, seed: 5 });
        const options: ErosionOptionsInput = { ...OPTIONS, autoStart: false, materials: { enabled: true, hardness: 2, initialSoil: 0.2, weathering: 0.05, strataThickness: 1.5, strataHardness: 8, strataDip: 0.1, strataDipDirection: 45 } };
        const map = Array.from({ length: side * side }, (_, i) => (i % side) / (side - 1));
        const single = createGroundFromHeights("single", field, { columns: side, rows: side, extent: extentOf(side, side) }, scene);
        const behavior = new TerrainErosion(options);
        single.addBehavior(behavior);
        await behavior.edits.setMask("hardness", map);
        await behavior.runCycles(2);
        const grounds = createGroundTilesFromHeights("rock", field, { columns: side, rows: side, extent: extentOf(side, side), tiles: { columns: 2, rows: 2 } }, scene);
        const world = new TerrainErosionWorld(grounds, options);
        await world.edits.setMask("hardness", map);
        await world.runCycles(2);
        expect(await world.fingerprint()).toBe(await behavior.fingerprint());
        const soil = (await world.maps.readMaps()).soil;
        expect(Math.max(...soil)).toBeGreaterThan(0);
        expect(Array.from(soil)).toEqual(Array.from((await behavior.maps.readMaps()).soil));
        // A ground's save carries its window of the soil.
        const save = ErosionGroundSave.fromArrayBuffer((await world.saveGround(grounds[1][0])).toArrayBuffer());
        const { x0, y0, width, depth } = world.windowOf(grounds[1][0]);
        const saved = save.snapshot.state.materials!.soil;
        const whole = (await behavior.maps.readMaps()).soil;
        for (const [x, y] of [[0, 0], [width - 1, depth - 1], [5, 7]]) expect(saved[y * width + x] / 65536).toBeCloseTo(whole[(y0 + y) * side + x0 + x], 6);
        world.dispose();
        behavior.dispose();
    });

    it("runs erodeAt, masks and maps across grounds as on one ground", async () => {
        const mask = Array.from({ length: W * D }, (_, i) => ((i % W) + Math.floor(i / W)) % 5 === 0 ? 0.25 : 1);
        const spot = new Vector3(-6, 0, 3); // near the first column seam (x = -6.5) and the row seam (z = 4)
        const run = async (erosion: TerrainErosion | TerrainErosionWorld) => {
            await erosion.edits.setMask("hydraulic", mask);
            erosion.edits.erodeAt(spot, 4, { droplets: 200 });
            await erosion.runCycles(2);
            return { fingerprint: await erosion.fingerprint(), maps: await erosion.maps.readMaps() };
        };
        const single = createGroundFromHeights("single", heights, { columns: W, rows: D, extent: extentOf(W, D) }, scene);
        const behavior = new TerrainErosion({ ...OPTIONS, autoStart: false });
        single.addBehavior(behavior);
        const expected = await run(behavior);
        const world = new TerrainErosionWorld(tiles(), { ...OPTIONS, autoStart: false });
        const actual = await run(world);
        expect(actual.fingerprint).toBe(expected.fingerprint);
        expect(Array.from(actual.maps.water)).toEqual(Array.from(expected.maps.water));
        expect(Array.from(actual.maps.drainageArea)).toEqual(Array.from(expected.maps.drainageArea));
        expect(actual.maps.wear.some((v) => v > 0)).toBe(true);
    });

    it("applies ground edits across seams exactly as on one ground, seams equal from the preview on", async () => {
        const edit = (erosion: TerrainErosion | TerrainErosionWorld) => {
            erosion.edits.crater(new Vector3(-6.5, 0, 4), 5, 2); // on the corner of four grounds
            erosion.edits.along([new Vector3(-29, 0, -10), new Vector3(0, 0, 2), new Vector3(29, 0, 10)], 3, { dig: 1.5 });
        };
        const single = createGroundFromHeights("single", heights, { columns: W, rows: D, extent: extentOf(W, D) }, scene);
        const behavior = new TerrainErosion({ ...OPTIONS, autoStart: false });
        single.addBehavior(behavior);
        await behavior.whenReady();
        edit(behavior);
        await behavior.runCycles(1);
        const grounds = tiles();
        const world = new TerrainErosionWorld(grounds, { ...OPTIONS, autoStart: false });
        await world.whenReady();
        edit(world);
        expect(seamMismatches(grounds)).toEqual([]); // the preview, before any frame
        await renderFrames(scene, 2);
        expect(seamMismatches(grounds)).toEqual([]);
        await world.runCycles(1);
        expect(await world.fingerprint()).toBe(await behavior.fingerprint());
        expect((await world.maps.readCounters()).editRemoved).toBeGreaterThan(0);
        expect(seamMismatches(grounds)).toEqual([]);
        world.dispose();
    });

    it("reports the world-space bounds whose CPU data changed, per ground (and for TerrainErosion)", async () => {
        const grounds = tiles();
        const world = new TerrainErosionWorld(grounds, { ...OPTIONS, frameBudgetMs: 0.05 });
        const updates: GroundDataUpdate[] = [];
        world.onCpuDataUpdatedObservable.add((update) => updates.push(update));
        await world.whenReady();
        await renderFrames(scene, 6);
        await world.whenIdle();
        expect(updates.length).toBeGreaterThan(0);
        for (const { ground, rows, minimumWorld, maximumWorld } of updates) {
            expect(grounds.flat()).toContain(ground);
            const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
            const width = ground.subdivisionsX + 1;
            const world4 = ground.getWorldMatrix();
            for (let i = rows.y0 * width; i < rows.y1 * width; i += 7) {
                const p = Vector3.TransformCoordinates(new Vector3(positions[i * 3], positions[i * 3 + 1], positions[i * 3 + 2]), world4);
                expect(p.x >= minimumWorld.x - 1e-4 && p.x <= maximumWorld.x + 1e-4 && p.z >= minimumWorld.z - 1e-4 && p.z <= maximumWorld.z + 1e-4).toBe(true);
                expect(p.y).toBeGreaterThanOrEqual(minimumWorld.y - 1e-4);
            }
        }
        world.dispose();
        const single = createGroundFromHeights("single", heights, { columns: W, rows: D, extent: extentOf(W, D) }, scene);
        const behavior = new TerrainErosion({ ...OPTIONS, frameBudgetMs: 0.05 });
        const singleUpdates: GroundDataUpdate[] = [];
        behavior.onCpuDataUpdatedObservable.add((update) => singleUpdates.push(update));
        single.addBehavior(behavior);
        await behavior.whenReady();
        await renderFrames(scene, 4);
        await behavior.whenIdle();
        expect(singleUpdates.length).toBeGreaterThan(0);
        expect(singleUpdates.every((update) => update.ground === single && update.rows.y1 > update.rows.y0)).toBe(true);
    });

    it("saves and restores grounds exactly at a cycle boundary", async () => {
        const source = new TerrainErosionWorld(tiles(), { ...OPTIONS, autoStart: false });
        await source.runCycles(2);
        const saves = await Promise.all(source.grounds.flat().map((ground) => source.saveGround(ground)));
        const stored = saves.map((save) => ErosionGroundSave.fromArrayBuffer(save.toArrayBuffer()));
        // Every ground: a fresh world moves to the saves' cycle and continues as the source does.
        const restored = new TerrainErosionWorld(tiles(), { autoStart: false });
        await restored.restoreGrounds(stored);
        expect(restored.cyclesCompleted).toBe(2);
        expect(await restored.fingerprint()).toBe(await source.fingerprint());
        await Promise.all([source.runCycles(1), restored.runCycles(1)]);
        expect(await restored.fingerprint()).toBe(await source.fingerprint());
        // One ground into another world at the same cycle: that window becomes the saved one exactly.
        const other = new TerrainErosionWorld(tiles(), { ...OPTIONS, seed: 99, autoStart: false });
        await other.runCycles(2);
        const target = other.grounds[1][1];
        await other.restoreGrounds([stored[4]]);
        const { x0, y0, width, depth } = other.windowOf(target);
        const [mine, theirs] = [await other.maps.exportFixedHeights(), stored[4].snapshot.state.heights];
        for (let y = 0; y < depth; y++) {
            expect(Array.from(mine.subarray((y0 + y) * W + x0, (y0 + y) * W + x0 + width))).toEqual(Array.from(theirs.subarray(y * width, (y + 1) * width)));
        }
        const otherSave = await other.saveGround(target);
        expect(Array.from(otherSave.maps.wear)).toEqual(Array.from(stored[4].maps.wear));
        expect(Array.from(otherSave.snapshot.state.drainageArea)).toEqual(Array.from(stored[4].snapshot.state.drainageArea));
        // A partial restore at another cycle, or mid-cycle saves, are refused.
        await other.runCycles(1);
        await expect(other.restoreGrounds([stored[0]])).rejects.toThrow(/saves are of cycle 2 but the world is at cycle 3/);
        other.setOptions({ frameBudgetMs: 0.05 });
        other.start();
        await renderFrames(scene, 1);
        await expect(other.saveGround(target)).rejects.toThrow(/cycle boundary/);
        for (const world of [source, restored, other]) world.dispose();
    });

    it("resets every ground to its original heights, seams still equal", async () => {
        const grounds = tiles();
        const original = grounds.flat().map((ground) => Array.from(ground.getVerticesData(VertexBuffer.PositionKind)!));
        const world = new TerrainErosionWorld(grounds, { ...OPTIONS, autoStart: false });
        const initial = await world.fingerprint();
        await world.runCycles(1);
        expect(await world.fingerprint()).not.toBe(initial);
        await world.history.reset();
        expect(await world.fingerprint()).toBe(initial);
        expect(grounds.flat().map((ground) => Array.from(ground.getVerticesData(VertexBuffer.PositionKind)!))).toEqual(original);
        expect(seamMismatches(grounds)).toEqual([]);
        world.dispose();
    });

    it("names the pair and the fix when grounds do not tile", () => {
        const expectError = (grounds: GroundMesh[][], message: RegExp) => {
            expect(() => new TerrainErosionWorld(grounds, OPTIONS)).toThrow(ErosionTargetError);
            expect(() => new TerrainErosionWorld(grounds, OPTIONS)).toThrow(message);
        };
        const moved = tiles();
        moved[0][1].position.x += 0.5;
        expectError(moved, /"tile_r0_c0" \(row 0, column 0\) and "tile_r0_c1" \(row 0, column 1\) do not share their east\/west edge.*Move "tile_r0_c1" by \(-0\.5/);
        const bumped = tiles();
        const positions = bumped[1][0].getVerticesData(VertexBuffer.PositionKind)!;
        positions[1] += 0.25; // first vertex of the near row's first ground: on its shared (far) edge
        bumped[1][0].updateVerticesData(VertexBuffer.PositionKind, positions);
        expectError(bumped, /"tile_r0_c0" \(row 0, column 0\) and "tile_r1_c0" \(row 1, column 0\) share an edge whose heights differ at its vertex 0/);
        const swapped = tiles();
        expectError([swapped[0], [swapped[1][1], swapped[1][0], swapped[1][2]]], /are in one column of the world but have 17 and 25 vertices along x/);
        expectError([tiles()[0], tiles()[1].slice(0, 2)], /row 1 of grounds has 2 grounds but row 0 has 3/);
        const rotated = tiles();
        rotated[1][2].rotation.y = 0.1;
        expectError(rotated, /rotated or scaled differently/);
        const claimed = tiles();
        claimed[0][0].addBehavior(new TerrainErosion(OPTIONS));
        expectError(claimed, /"tile_r0_c0" already has a TerrainErosion/);
    });

    it("keeps a world of 8 x 8 grounds of 513 x 513 within WebGPU's default binding, which one 4097 x 4097 ground exceeds", () => {
        const defaultLimit = 128 * 1024 * 1024;
        const window = (width: number, depth: number, name: string) => ({ binding: { width, depth, ground: { name } } });
        const world = { width: 4097, depth: 4097, windows: Array.from({ length: 64 }, (_, i) => window(513, 513, `tile${i}`)) };
        expect(sizeProblem(defaultLimit, world, 64)).toBeNull();
        expect(sizeProblem(defaultLimit, { width: 4097, depth: 4097, windows: [window(4097, 4097, "big")] }, 64)).toMatch(/vertex positions buffer of the 4097 x 4097 ground "big" needs 201424908 bytes/);
    });
});
