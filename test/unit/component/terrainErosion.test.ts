/**
 * TerrainErosion under a NullEngine with the CPU backend (in-thread under Node).
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { CreateBox } from "@babylonjs/core/Meshes/Builders/boxBuilder.js";
import { CreateGround, CreateGroundFromHeightMap } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { CpuErosionSimulation, resolveOptions, erodeHeightfield, ErosionOptionError, ErosionSnapshot, ErosionTargetError, heightsToFixed, RUNTIME_SETTINGS, TerrainErosion, type ErosionOptionsInput } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createGroundWithHeights, createNullScene, renderFrames } from "../../helpers/nullScene.js";

const W = 49;
const D = 41;
const OPTIONS: ErosionOptionsInput = { patchSize: 24, seed: 3, hydraulic: { dropletsPerBatch: 150, maxSteps: 30 }, thermal: { talus: 0.4 } };
const heights = generateNoiseTerrain({ width: W, depth: D, relief: 20, seed: 8 });

describe("TerrainErosion on a NullEngine (CPU backend)", () => {
    let env: ReturnType<typeof createNullScene>;
    let scene: Scene;

    beforeEach(() => {
        env = createNullScene();
        scene = env.scene;
    });

    afterEach(() => {
        env.dispose();
    });

    async function attached(options: ErosionOptionsInput = OPTIONS, ground = createGroundWithHeights(scene, heights, W, D)) {
        const erosion = new TerrainErosion(options);
        ground.addBehavior(erosion);
        await erosion.whenReady();
        return { erosion, ground };
    }

    it("attaches as a Babylon behavior and erodes a few patches per frame", async () => {
        const { erosion, ground } = await attached();
        expect(erosion.getClassName()).toBe("TerrainErosion");
        expect(erosion.attachedNode).toBe(ground);
        expect(erosion.backend).toBe("cpu");
        expect(erosion.isRunning).toBe(true);
        expect(erosion.batchesPerCycle).toBe(2 * 2 * 2 + 1);
        // A cycle's 9 batches over frames: fewer issue while the rows that came back wait to be
        // applied within the budget (more on a cold JIT), so up to 100 frames.
        for (let frame = 0; frame < 100 && erosion.cyclesCompleted === 0; frame += 10) await renderFrames(scene, 10);
        await erosion.whenIdle();
        expect(erosion.cyclesCompleted).toBeGreaterThan(0);
        // The main thread's share of the last frame: planning it, and applying its rows.
        expect(erosion.lastFrame.cpuMs).toBeGreaterThanOrEqual(0);
        expect(erosion.lastFrame.applyMs).toBeGreaterThanOrEqual(0);
        // Some frame applied rows (a frame of a river batch's middle pieces brings none back).
        expect(erosion.frameStats.mainThread.maxMs).toBeGreaterThan(0);
        const eroded = await erosion.maps.readHeights();
        expect(eroded.some((h, i) => Math.abs(h - heights[i]) > 1e-3)).toBe(true);
    });

    it("gives the mesh-free entry point's heights and fingerprint after the same cycles", async () => {
        const { erosion } = await attached();
        erosion.pause();
        await erosion.runCycles(3);
        const reference = erodeHeightfield(heights, W, D, OPTIONS, 3);
        expect(await erosion.fingerprint()).toBe(reference.fingerprint);
        expect(Array.from(await erosion.maps.readHeights())).toEqual(Array.from(reference.heights));
    });

    it("is identical whatever the frame budget and pause pattern", async () => {
        const reference = erodeHeightfield(heights, W, D, OPTIONS, 2).fingerprint;
        for (const frameBudgetMs of [0.05, 1, 50, 1000]) {
            const { erosion, ground } = await attached({ ...OPTIONS, frameBudgetMs, maxCycles: 2 });
            for (let frame = 0; frame < 200 && erosion.cyclesCompleted < 2; frame++) {
                if (frame % 7 === 3) erosion.pause();
                if (frame % 7 === 5) erosion.start();
                await renderFrames(scene, 1);
            }
            await erosion.whenIdle();
            expect(erosion.cyclesCompleted).toBe(2);
            expect(erosion.isRunning).toBe(false); // maxCycles stopped it
            expect(await erosion.fingerprint()).toBe(reference);
            erosion.dispose();
            ground.dispose();
        }
    });

    it("applies option changes at the next cycle boundary", async () => {
        const { erosion } = await attached({ ...OPTIONS, autoStart: false });
        await erosion.runCycles(1);
        erosion.setOptions({ hydraulic: { inertia: 0.7 } });
        expect(erosion.options.hydraulic.inertia).toBe(0.7);
        await erosion.runCycles(1);
        const reference = new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions(OPTIONS));
        reference.runCycles(1);
        reference.schedule.setOptions(resolveOptions({ ...OPTIONS, hydraulic: { ...OPTIONS.hydraulic, inertia: 0.7 } }));
        reference.runCycles(1);
        expect(await erosion.fingerprint()).toBe(reference.fingerprint());
        // A change made mid-cycle waits for the boundary: the rest of the cycle runs with the old value.
        await erosion.history.reset();
        erosion.setOptions({ frameBudgetMs: 0.05 });
        erosion.start();
        await renderFrames(scene, 1);
        erosion.pause();
        await erosion.whenIdle();
        expect(erosion.progress).toBeGreaterThan(0);
        expect(erosion.progress).toBeLessThan(1);
        erosion.setOptions({ hydraulic: { inertia: 0.3 } });
        const midCycle = new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions({ ...OPTIONS, hydraulic: { ...OPTIONS.hydraulic, inertia: 0.7 } }));
        midCycle.runCycles(1);
        await erosion.runCycles(1);
        expect(await erosion.fingerprint()).toBe(midCycle.fingerprint());
        midCycle.schedule.setOptions(resolveOptions({ ...OPTIONS, frameBudgetMs: 0.05, hydraulic: { ...OPTIONS.hydraulic, inertia: 0.3 } }));
        midCycle.runCycles(1);
        await erosion.runCycles(1);
        expect(await erosion.fingerprint()).toBe(midCycle.fingerprint());
    });

    it("keeps the mesh's CPU data and gameplay queries in sync", async () => {
        const { erosion, ground } = await attached({ ...OPTIONS, autoStart: false });
        await erosion.runCycles(2);
        const eroded = await erosion.maps.readHeights();
        const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
        for (let i = 0; i < W * D; i++) expect(positions[i * 3 + 1]).toBe(eroded[i]);
        // At a vertex, the ground's own height query returns the eroded height.
        const x = 10;
        const y = 12;
        const worldX = -((W - 1) / 2) + x;
        const worldZ = (D - 1) / 2 - y;
        expect(ground.getHeightAtCoordinates(worldX + 0.001, worldZ - 0.001)).toBeCloseTo(eroded[y * W + x], 2);
        const bounds = ground.getBoundingInfo().boundingBox;
        expect(bounds.minimum.y).toBeCloseTo(Math.min(...eroded), 5);
        expect(bounds.maximum.y).toBeCloseTo(Math.max(...eroded), 5);
    });

    it("reset() restores the original heights and vertex data exactly", async () => {
        const { erosion, ground } = await attached({ ...OPTIONS, autoStart: false });
        const before = Float32Array.from(ground.getVerticesData(VertexBuffer.PositionKind)!);
        const fingerprintAtAttach = await erosion.fingerprint();
        await erosion.runCycles(2);
        await erosion.history.reset();
        expect(Array.from(ground.getVerticesData(VertexBuffer.PositionKind)!)).toEqual(Array.from(before));
        expect(erosion.cyclesCompleted).toBe(0);
        expect(await erosion.fingerprint()).toBe(fingerprintAtAttach);
    });

    it("snapshot() round-trips through an ArrayBuffer and restore() continues identically", async () => {
        const { erosion } = await attached({ ...OPTIONS, autoStart: false });
        await erosion.runCycles(1);
        const snapshot = ErosionSnapshot.fromArrayBuffer((await erosion.history.snapshot()).toArrayBuffer());
        await erosion.runCycles(1);
        const afterTwo = await erosion.fingerprint();
        await erosion.history.restore(snapshot);
        expect(await erosion.fingerprint()).toBe(snapshot.fingerprint);
        expect(erosion.cyclesCompleted).toBe(1);
        await erosion.runCycles(1);
        expect(await erosion.fingerprint()).toBe(afterTwo);
        expect(() => ErosionSnapshot.fromArrayBuffer(new ArrayBuffer(8))).toThrow(/Not an erosion snapshot/);
    });

    it("snapshots carry the simulation options only, and restore() keeps the runtime settings in force", async () => {
        const { erosion } = await attached({ ...OPTIONS, autoStart: false, frameBudgetMs: 5, maxCycles: 40 });
        await erosion.runCycles(1);
        const snapshot = await erosion.history.snapshot();
        expect(Object.keys(snapshot.options).filter((key) => (RUNTIME_SETTINGS as readonly string[]).includes(key))).toEqual([]);
        erosion.setOptions({ frameBudgetMs: 7, maxCycles: 0, seed: 99 });
        await erosion.runCycles(1);
        await erosion.history.restore(snapshot);
        expect(erosion.options.seed).toBe(3);
        expect(erosion.options.frameBudgetMs).toBe(7);
        expect(erosion.options.maxCycles).toBe(0);
    });

    it("loads a snapshot written with the runtime settings in its options (before they were split off)", async () => {
        const { erosion } = await attached({ ...OPTIONS, autoStart: false });
        await erosion.runCycles(1);
        const snapshot = await erosion.history.snapshot();
        // The same bytes with the header's options holding every option, as snapshots once did.
        const bytes = new Uint8Array(snapshot.toArrayBuffer());
        const start = Buffer.from(bytes).indexOf('{"options":');
        const view = new DataView(bytes.buffer);
        const oldLength = view.getUint32(start - 4, true);
        const header = JSON.parse(new TextDecoder().decode(bytes.subarray(start, start + oldLength)));
        header.options = { ...header.options, backend: "cpu", cpuWorkers: 2, autoStart: false, frameBudgetMs: 3, maxCycles: 10 };
        const json = new TextEncoder().encode(JSON.stringify(header));
        const padded = (length: number) => Math.ceil(length / 4) * 4;
        const older = new Uint8Array(bytes.length - padded(oldLength) + padded(json.length));
        older.set(bytes.subarray(0, start));
        new DataView(older.buffer).setUint32(start - 4, json.length, true);
        older.set(json, start);
        older.set(bytes.subarray(start + padded(oldLength)), start + padded(json.length));
        const loaded = ErosionSnapshot.fromArrayBuffer(older.buffer);
        expect(loaded.options).toEqual(snapshot.options);
        expect(loaded.fingerprint).toBe(snapshot.fingerprint);
    });

    it("flush() brings the CPU data up to date and detach() leaves the baked result", async () => {
        const { erosion, ground } = await attached();
        await renderFrames(scene, 6);
        await erosion.flush();
        const eroded = await erosion.maps.readHeights();
        ground.removeBehavior(erosion);
        await erosion.whenIdle();
        expect(erosion.ground).toBeNull();
        const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
        const final = Array.from({ length: W * D }, (_, i) => positions[i * 3 + 1]);
        expect(final.some((h, i) => Math.abs(h - heights[i]) > 1e-3)).toBe(true);
        expect(final.length).toBe(eroded.length);
        const cycles = erosion.cyclesCompleted;
        await renderFrames(scene, 3);
        expect(erosion.cyclesCompleted).toBe(cycles);
        erosion.detach(); // twice is safe
        erosion.dispose();
        erosion.dispose();
    });

    it("erodes in local space: a parented, moved, rotated and uniformly scaled ground gives the same heights", async () => {
        const parent = new TransformNode("parent", scene);
        parent.position = new Vector3(30, -4, 12);
        parent.rotation = new Vector3(0, 0.7, 0);
        parent.scaling = new Vector3(1.5, 1.5, 1.5);
        const ground = createGroundWithHeights(scene, heights, W, D);
        ground.parent = parent;
        ground.scaling = new Vector3(2, 2, 2);
        const { erosion } = await attached({ ...OPTIONS, autoStart: false }, ground);
        await erosion.runCycles(1);
        expect(await erosion.fingerprint()).toBe(erodeHeightfield(heights, W, D, OPTIONS, 1).fingerprint);
    });

    it("accepts non-square grids with square cells, and grounds from CreateGround's subdivisionsX/Y", async () => {
        const ground = CreateGround("wide", { width: 60, height: 20, subdivisionsX: 30, subdivisionsY: 10, updatable: true }, scene);
        const { erosion } = await attached({ ...OPTIONS, autoStart: false }, ground);
        await erosion.runCycles(1);
        expect((await erosion.maps.readHeights()).length).toBe(31 * 11);
    });

    it("erodes a CreateGroundFromHeightMap ground once it is ready", async () => {
        const pixels = new Uint8Array(32 * 32 * 4);
        for (let i = 0; i < 32 * 32; i++) {
            const value = Math.round(127 + 120 * Math.sin(i / 37) * Math.cos(i / 53));
            pixels.set([value, value, value, 255], i * 4);
        }
        const ground = await new Promise<GroundMesh>((resolve) => {
            const created = CreateGroundFromHeightMap("heightmap", { data: pixels, width: 32, height: 32 }, { width: 40, height: 40, subdivisions: 40, minHeight: 0, maxHeight: 12, updatable: true, onReady: (mesh) => resolve(mesh) }, scene);
            expect(created.getClassName()).toBe("GroundMesh");
        });
        const { erosion } = await attached({ ...OPTIONS, autoStart: false }, ground);
        const before = await erosion.maps.readHeights();
        await erosion.runCycles(1);
        const after = await erosion.maps.readHeights();
        expect(after.length).toBe(41 * 41);
        expect(after.some((h, i) => Math.abs(h - before[i]) > 1e-3)).toBe(true);
    });

    describe("rejects targets it cannot erode, before any work", () => {
        it.each([
            ["another mesh type", (s: Scene) => CreateBox("box", {}, s), /must be attached to a GroundMesh.*is a Mesh/],
            ["a non-updatable ground", (s: Scene) => CreateGround("fixed", { width: 10, height: 10, subdivisions: 10 }, s), /not updatable: create it with \{ updatable: true \}/],
            ["a disposed ground", (s: Scene) => { const g = CreateGround("gone", { width: 10, height: 10, subdivisions: 10, updatable: true }, s); g.dispose(); return g; }, /is disposed/],
            ["a ground with shared geometry", (s: Scene) => { const g = CreateGround("shared", { width: 10, height: 10, subdivisions: 10, updatable: true }, s); g.clone("twin"); return g; }, /shares its geometry with 1 other mesh/],
            ["a ground with rectangular cells", (s: Scene) => CreateGround("rect", { width: 20, height: 10, subdivisions: 10, updatable: true }, s), /rectangular cells \(2 m along x, 1 m along z\)/],
            ["a height-map ground that is not ready", (s: Scene) => new GroundMesh("pending", s), /has no vertices yet.*onReady/],
            ["a ground scaled differently along its axes", (s: Scene) => { const g = CreateGround("stretched", { width: 10, height: 10, subdivisions: 10, updatable: true }, s); g.scaling = new Vector3(2, 3, 2); return g; }, /scaled differently along its axes in the world \(2, 3, 2.*bakeCurrentTransformIntoVertices/],
            ["a ground under a parent scaled differently along its axes", (s: Scene) => { const parent = new TransformNode("squashed", s); parent.scaling = new Vector3(1, 0.5, 1); const g = CreateGround("child", { width: 10, height: 10, subdivisions: 10, updatable: true }, s); g.parent = parent; return g; }, /scaled differently along its axes.*parents included/],
        ])("%s", (_name, make, message) => {
            const target = make(scene);
            const erosion = new TerrainErosion(OPTIONS);
            expect(() => erosion.attach(target as GroundMesh)).toThrow(ErosionTargetError);
            expect(() => erosion.attach(target as GroundMesh)).toThrow(message);
            expect(erosion.ground).toBeNull();
        });

        it("a second erosion component on the same ground", async () => {
            const { ground } = await attached();
            expect(() => ground.addBehavior(new TerrainErosion())).toThrow(/already has a TerrainErosion/);
        });

        it('backend: "webgpu" on an engine without compute shaders', () => {
            const ground = createGroundWithHeights(scene, heights, W, D);
            expect(() => ground.addBehavior(new TerrainErosion({ backend: "webgpu" }))).toThrow(ErosionOptionError);
            expect(() => ground.addBehavior(new TerrainErosion({ backend: "webgpu" }))).toThrow(/"backend" is "webgpu" but this engine has no compute shaders/);
        });

        it("bad options at construction", () => {
            expect(() => new TerrainErosion({ hydraulic: { brushRadius: 11 } })).toThrow(/"hydraulic.brushRadius" is 11: it must be an integer in \[0, 8\]/);
        });
    });

    it("erodeAt takes world coordinates on a moved and scaled ground, and equals the mesh-free erodeAt", async () => {
        const ground = createGroundWithHeights(scene, heights, W, D);
        ground.position = new Vector3(100, 5, -40);
        ground.scaling = new Vector3(2, 2, 2);
        ground.computeWorldMatrix(true);
        const { erosion } = await attached({ ...OPTIONS, autoStart: false }, ground);
        // Vertex (column 10, row 12) of a 48 x 40 m ground scaled by 2 and moved to (100, -40).
        const world = new Vector3(100 + 2 * (-24 + 10), 0, -40 + 2 * (20 - 12));
        erosion.edits.erodeAt(world, 8, { droplets: 300 }); // 8 world units = 4 cells
        await erosion.runCycles(2);
        const reference = new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions(OPTIONS));
        reference.erodeAt(10, 12, 4, { droplets: 300 });
        reference.runCycles(2);
        expect(await erosion.fingerprint()).toBe(reference.fingerprint());
        await erosion.history.reset();
        expect(await erosion.fingerprint()).toBe(new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions(OPTIONS)).fingerprint());
    });

    it("setMask applies at the next cycle boundary and equals the mesh-free masks", async () => {
        const { erosion } = await attached({ ...OPTIONS, autoStart: false });
        const values = Float64Array.from({ length: W * D }, (_, i) => (i % W) / (W - 1));
        await erosion.runCycles(1);
        await erosion.edits.setMask("hydraulic", values);
        await erosion.runCycles(1);
        const reference = new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions(OPTIONS));
        reference.runCycles(1);
        reference.setMasks({ hydraulic: Int32Array.from(values, (v) => Math.round(v * 65536)), thermal: null, rivers: null, uplift: null, rain: null, hardness: null, soil: null });
        reference.runCycles(1);
        expect(await erosion.fingerprint()).toBe(reference.fingerprint());
        await expect(erosion.edits.setMask("hydraulic", new Float64Array(3))).rejects.toThrow(/3 values but the ground has/);
        await expect(erosion.edits.setMask("hydraulic", new Float64Array(W * D).fill(1.5))).rejects.toThrow(/mask\[0\] is 1.5/);
        const maps = await erosion.maps.readMaps();
        expect(maps.wear.length).toBe(W * D);
        expect(maps.direction.length).toBe(W * D);
        await erosion.maps.resetMaps();
        expect((await erosion.maps.readMaps()).wear.every((value) => value === 0)).toBe(true);
        // The CPU backend keeps a maps texture current too (its pixels are checked in the browser tests).
        const texture = await erosion.maps.getMapsTexture();
        expect([texture.getSize(), texture.name]).toEqual([{ width: W, height: D }, "TerrainErosion.maps"]);
        expect((await erosion.maps.getMapTexture("drainageArea")).getSize()).toEqual({ width: W, height: D });
    });

    it("reports its events", async () => {
        const { erosion } = await attached({ ...OPTIONS, autoStart: false });
        const patches: number[] = [];
        let cycles = 0;
        erosion.onPatchErodedObservable.add((event) => patches.push(event.patchIndex));
        erosion.onCycleCompletedObservable.add(() => cycles++);
        await erosion.runCycles(1);
        // Droplets on patches 0-3 (each its own class here), the rivers once over the whole field (patch 0), thermal on 0-3.
        expect(patches).toEqual([0, 1, 2, 3, 0, 0, 1, 2, 3]);
        expect(cycles).toBe(1);
        expect(heightsToFixed(await erosion.maps.readHeights()).length).toBe(W * D);
    });
});
