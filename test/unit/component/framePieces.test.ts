/**
 * The runner cuts a whole-field batch the frame budget cannot hold into pieces over several frames
 * (NullEngine, CPU backend in-thread): the frames report their ranges, the batch's report comes
 * with the last, the terrain is the unbudgeted run's, and an operation queued while a batch is in
 * pieces sees it whole, except an undo, which rewinds over it without running its rest.
 */
import type { Scene } from "@babylonjs/core/scene.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { TerrainErosion, type ErosionOptionsInput } from "../../../plugin/index.js";
import { createGroundWithHeights, createNullScene, renderFrames } from "../../helpers/nullScene.js";

const W = 65;
const D = 65;
// Rivers only: at the least budget every river batch is cut.
const OPTIONS: ErosionOptionsInput = { patchSize: 32, seed: 4, hydraulic: { enabled: false }, thermal: { enabled: false }, rivers: { enabled: true, stepsPerBatch: 24 } };
const heights = generateNoiseTerrain({ width: W, depth: D, relief: 30, seed: 2 });

describe("a whole-field batch in pieces over frames", () => {
    let env: ReturnType<typeof createNullScene>;
    let scene: Scene;

    beforeEach(() => {
        env = createNullScene();
        scene = env.scene;
    });

    afterEach(() => env.dispose());

    async function attached(options: ErosionOptionsInput) {
        const erosion = new TerrainErosion(options);
        createGroundWithHeights(scene, heights, W, D).addBehavior(erosion);
        await erosion.whenReady();
        return erosion;
    }

    it("runs a range of pieces a frame at the least budget, reports the batch with the last range, and ends where runCycles ends", async () => {
        const reference = await attached({ ...OPTIONS, autoStart: false });
        await reference.runCycles(2);
        const expected = await reference.fingerprint();

        const erosion = await attached({ ...OPTIONS, frameBudgetMs: 0.05, maxCycles: 2 });
        const ranges: { from: number; to: number; total: number }[] = [];
        const reports: number[] = [];
        erosion.onPatchErodedObservable.add(() => reports.push(ranges.length));
        scene.onAfterRenderObservable.add(() => {
            const pieces = erosion.lastFrame.pieces;
            if (pieces && (ranges.length === 0 || ranges[ranges.length - 1] !== pieces)) ranges.push(pieces);
        });
        for (let frame = 0; frame < 400 && (erosion.cyclesCompleted < 2 || erosion.isRunning); frame++) await renderFrames(scene, 1);
        await erosion.whenIdle();
        expect(await erosion.fingerprint()).toBe(expected);
        // Every batch (one a cycle) in consecutive ranges, from 0 to its total.
        const total = ranges[0].total;
        expect(total).toBeGreaterThan(1); // the CPU's phases (the walk is one)
        expect(ranges.length).toBeGreaterThanOrEqual(2 * 2);
        let next = 0;
        for (const range of ranges) {
            expect(range.from).toBe(next);
            next = range.to === total ? 0 : range.to;
        }
        expect(next).toBe(0);
        expect(reports).toHaveLength(2);
        // The frame stats count the frames of pieces as erosion frames.
        expect(erosion.frameStats.frames).toBeGreaterThanOrEqual(ranges.length);
    });

    it("finishes the batch in pieces before a queued read, so the read sees whole batches", async () => {
        const reference = await attached({ ...OPTIONS, autoStart: false });
        await reference.runCycles(1);
        const afterOne = await reference.fingerprint();

        const erosion = await attached({ ...OPTIONS, frameBudgetMs: 0.05 });
        for (let frame = 0; frame < 50 && !erosion.lastFrame.pieces; frame++) await renderFrames(scene, 1);
        expect(erosion.lastFrame.pieces!.to).toBeLessThan(erosion.lastFrame.pieces!.total);
        erosion.pause();
        // The schedule has counted the batch: the snapshot (queued) first runs its other pieces.
        const snapshot = await erosion.history.snapshot();
        expect(snapshot.state.cycle).toBe(1);
        expect(await erosion.fingerprint()).toBe(afterOne);
        // Paused, no frame runs any more.
        const frames = erosion.frameStats.frames;
        await renderFrames(scene, 5);
        expect(erosion.frameStats.frames).toBe(frames);
    });

    it("drops the rest of a batch in pieces for an undo (the rewind puts the older state back), and ends as the run without the input", async () => {
        const reference = await attached({ ...OPTIONS, autoStart: false });
        await reference.runCycles(1);
        const withoutDig = await reference.fingerprint();

        const erosion = await attached({ ...OPTIONS, frameBudgetMs: 0.05 });
        erosion.edits.dig(new Vector3(0, 0, 0), 4, 1);
        for (let frame = 0; frame < 50 && !erosion.lastFrame.pieces; frame++) await renderFrames(scene, 1);
        const stopped = erosion.lastFrame.pieces!;
        expect(stopped.to).toBeLessThan(stopped.total);
        erosion.pause();
        // Every frame the backend runs from here: the undo's replay runs the batch whole, never its rest.
        const backend = (erosion as unknown as { _runner: { backend: { runFrame(...args: unknown[]): Promise<unknown> } } })._runner.backend;
        const runFrame = backend.runFrame.bind(backend);
        const ranges: unknown[] = [];
        backend.runFrame = (...args) => (ranges.push(args[3]), runFrame(...args));
        expect((await erosion.history.undo()).map((entry) => entry.kind)).toEqual(["edit"]);
        expect(ranges.length).toBeGreaterThan(0);
        expect(ranges.every((range) => range === null)).toBe(true);
        expect(await erosion.fingerprint()).toBe(withoutDig);
        // Running on, the next cycle starts from the boundary the replay reached.
        const snapshot = await erosion.history.snapshot();
        expect(snapshot.state.cycle).toBe(1);
    });
});
