/**
 * The input log on the behavior (CPU backend, NullEngine): a run of frames with every input kind
 * replays in Node to the live fingerprint at every entry; undo and redo exact, an Inspector option
 * change undone like an edit; the same log replayed on the behavior itself.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { createGroundTilesFromHeights, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { parseInputLog, replayInputLog, serializeInputLog } from "../../../plugin/lockstep.js";
import { TerrainErosion, TerrainErosionWorld, type InputEntry } from "../../../plugin/index.js";
import { createGroundWithHeights, createNullScene, renderFrames } from "../../helpers/nullScene.js";

const W = 41;
const D = 33;
const heights = generateNoiseTerrain({ width: W, depth: D, seed: 8, relief: 10 });
const OPTIONS = { backend: "cpu" as const, cpuWorkers: 1, patchSize: 16, frameBudgetMs: 0.05, hydraulic: { dropletsPerBatch: 32 }, water: { enabled: true, stepsPerCycle: 1 } };

describe("the input log on TerrainErosion", () => {
    let world: ReturnType<typeof createNullScene>;
    beforeEach(() => (world = createNullScene()));
    afterEach(() => world.dispose());

    async function attached(autoStart: boolean) {
        const ground = createGroundWithHeights(world.scene, heights, W, D);
        const erosion = new TerrainErosion({ ...OPTIONS, autoStart });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        return erosion;
    }

    it("records a run of frames with every input kind, and replays it in Node to the live fingerprint at every entry", async () => {
        const erosion = await attached(true);
        const first = await erosion.history.snapshot();
        const seen: InputEntry[] = [];
        erosion.history.onInputObservable.add((entry) => seen.push(entry));
        const live = new Map<number, string>();
        const inputs: (() => unknown)[] = [
            () => erosion.edits.dig(new Vector3(-5, 0, 3), 4, 1.5),
            () => erosion.setOption("thermal.talus", 0.5),
            () => erosion.edits.erodeAt(new Vector3(6, 0, -4), 5, { droplets: 300 }),
            () => erosion.edits.setMask("thermal", new Float32Array(W * D).fill(0.5)),
            () => erosion.edits.addWaterSource(new Vector3(0, 0, 8), 2, 0.2),
            () => erosion.edits.crater(new Vector3(8, 0, 6), 4, 1.2),
            () => erosion.edits.along([new Vector3(-15, 0, -10), new Vector3(10, 0, -10)], 2, { pile: 0.8 }),
        ];
        for (const [k, input] of inputs.entries()) {
            await renderFrames(world.scene, 5 + 3 * k);
            erosion.pause();
            await renderFrames(world.scene, 1); // a paused frame applies the edits stamped here
            await erosion.whenIdle();
            live.set(erosion.history.inputLog.length + 1, await erosion.fingerprint());
            await input();
            erosion.start();
        }
        await renderFrames(world.scene, 20);
        erosion.pause();
        await erosion.whenIdle();
        const entries = erosion.history.inputLog;
        expect(seen).toEqual(entries);
        expect(entries.map((entry) => entry.kind)).toEqual(["edit", "options", "erodeAt", "mask", "sources", "edit", "edit"]);
        let checked = 0;
        const replayed = replayInputLog(first, parseInputLog(serializeInputLog(entries)), {
            until: erosion.lockstep.stamp,
            onEntry: (entry, simulation) => {
                expect(simulation.fingerprint()).toBe(live.get(entry.seq));
                checked++;
            },
        });
        expect(checked).toBe(entries.length);
        const fingerprint = await erosion.fingerprint();
        expect(replayed.fingerprint()).toBe(fingerprint);
        console.log(`${entries.length} entries over ${erosion.lockstep.stamp.cycle} cycles and ${erosion.lockstep.stamp.batch} batches replayed in Node to the live fingerprint at each`);
        // The same log given again on the behavior from its first snapshot.
        await erosion.history.replay(first, entries, erosion.lockstep.stamp);
        expect(await erosion.fingerprint()).toBe(fingerprint);
    });

    it("undoes an edit exactly and redoes it, and undoes an Inspector option change", async () => {
        const erosion = await attached(false);
        const other = await attached(false);
        await erosion.runCycles(1);
        await other.runCycles(1);
        erosion.edits.crater(new Vector3(0, 0, 0), 5, 2);
        await erosion.runCycles(3);
        await other.runCycles(3);
        const withEdit = await erosion.fingerprint();
        expect(erosion.history.undoable?.kind).toBe("edit");
        expect((await erosion.history.undo()).map((entry) => entry.kind)).toEqual(["edit"]);
        expect(await erosion.fingerprint()).toBe(await other.fingerprint());
        expect(erosion.history.redoable?.kind).toBe("edit");
        await erosion.history.redo();
        expect(await erosion.fingerprint()).toBe(withEdit);
        // What the Inspector's panel calls.
        erosion.setOption("hydraulic.erosion", 0.8);
        await erosion.runCycles(2);
        await erosion.history.undo();
        expect(erosion.options.hydraulic.erosion).toBe(0.3);
        const third = await attached(false);
        await third.runCycles(1);
        third.edits.crater(new Vector3(0, 0, 0), 5, 2);
        await third.runCycles(5);
        expect(await erosion.fingerprint()).toBe(await third.fingerprint());
        expect(erosion.history.undoMemory.bytes).toBeLessThanOrEqual(erosion.history.undoMemory.limitBytes);
        expect(erosion.history.undoMemory.points).toBeGreaterThan(0);
    });

    it("answers an undo or redo with nothing to take back at once, not after the frame in flight lands", async () => {
        const erosion = await attached(true);
        // Frames whose results land only when released: a software adapter's frame takes seconds.
        const backend = (erosion as unknown as { _runner: { backend: { runFrame(...args: unknown[]): Promise<unknown> } } })._runner.backend;
        const runFrame = backend.runFrame.bind(backend);
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        let issued = 0;
        backend.runFrame = (...args) => (issued++, runFrame(...args).then(async (result) => (await held, result)));
        for (let frame = 0; frame < 20 && issued === 0; frame++) await renderFrames(world.scene, 1);
        expect(issued).toBeGreaterThan(0);
        const answers: string[] = [];
        void erosion.history.undo().then((taken) => answers.push(`undo ${taken.length}`));
        void erosion.history.redo().then((given) => answers.push(`redo ${given.length}`));
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(answers).toEqual(["undo 0", "redo 0"]);
        // With an input in force, an undo waits its turn (the frame in flight, then the rewind) and takes it back.
        erosion.edits.dig(new Vector3(0, 0, 0), 4, 1);
        const undone = erosion.history.undo();
        release();
        expect((await undone).map((entry) => entry.kind)).toEqual(["edit"]);
    });

    it("undoes exactly after a world's grounds are saved and restored, and never past the restore", async () => {
        const tiles = () => createGroundTilesFromHeights("tile", heights, { columns: W, rows: D, extent: { width: W - 1, height: D - 1 }, tiles: { columns: [20, 20], rows: [16, 16] } }, world.scene);
        const live = new TerrainErosionWorld(tiles(), { ...OPTIONS, autoStart: false });
        await live.whenReady();
        await live.runCycles(1);
        const saves = await Promise.all(live.getGrounds().map((ground) => live.saveGround(ground)));
        live.edits.dig(new Vector3(-10, 0, 5), 3, 1);
        await live.runCycles(1);
        await live.restoreGrounds(saves);
        live.edits.crater(new Vector3(8, 0, -6), 4, 1.5);
        await live.runCycles(2);
        expect((await live.history.undo()).map((entry) => entry.kind)).toEqual(["edit"]);
        expect(await live.history.undo()).toEqual([]); // the dig was before the restore
        const reference = new TerrainErosionWorld(tiles(), { ...OPTIONS, autoStart: false });
        await reference.whenReady();
        await reference.runCycles(1);
        await reference.restoreGrounds(saves);
        await reference.runCycles(2);
        expect(await live.fingerprint()).toBe(await reference.fingerprint());
        expect(live.history.inputLog.map((entry) => entry.kind)).toEqual(["edit", "restore", "edit", "undo"]);
    });
});

describe("a horizon on TerrainErosion", () => {
    it("stops the frames exactly at the horizon while rendering goes on, and moves on when it does", async () => {
        const world = createNullScene();
        try {
            const ground = createGroundWithHeights(world.scene, heights, W, D);
            const erosion = new TerrainErosion({ ...OPTIONS, water: { enabled: false } });
            ground.addBehavior(erosion);
            await erosion.whenReady();
            erosion.lockstep.horizon = { cycle: 1, batch: 3 };
            for (let frame = 0; frame < 200 && !(erosion.lockstep.stamp.cycle === 1 && erosion.lockstep.stamp.batch === 3); frame++) await renderFrames(world.scene, 1);
            await renderFrames(world.scene, 10);
            expect(erosion.lockstep.stamp).toEqual({ cycle: 1, batch: 3 });
            erosion.lockstep.horizon = { cycle: 2, batch: 0 };
            for (let frame = 0; frame < 200 && erosion.lockstep.stamp.cycle < 2; frame++) await renderFrames(world.scene, 1);
            await renderFrames(world.scene, 10);
            expect(erosion.lockstep.stamp).toEqual({ cycle: 2, batch: 0 });
            expect(() => (erosion.lockstep.horizon = { cycle: -1, batch: 0 })).toThrow(/horizon is .*whole numbers at least 0/);
            await expect(erosion.runCycles(1)).rejects.toThrow(/runCycles: the horizon \(cycle 2, batch 0\) stops the run/);
            await expect(erosion.lockstep.runUntil({ cycle: 3, batch: 0 })).rejects.toThrow(/lies past the horizon/);
            erosion.lockstep.horizon = null;
            await renderFrames(world.scene, 5);
            expect(erosion.lockstep.stamp).not.toEqual({ cycle: 2, batch: 0 });
        } finally {
            world.dispose();
        }
    });
});
