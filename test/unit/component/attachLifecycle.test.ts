/**
 * The behavior's life as a game sees it (NullEngine, CPU backend): `whenReady()` waits for an attach
 * Babylon deferred while the scene loaded, and says why when there is none; the attach and detach
 * observables the add-ons follow; `lastFrame` while paused.
 */
import { TerrainErosion } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createGroundWithHeights, createNullScene, renderFrames } from "../../helpers/nullScene.js";

const SIDE = 33;
const heights = generateNoiseTerrain({ width: SIDE, depth: SIDE, relief: 10, seed: 2 });
const OPTIONS = { patchSize: 16, hydraulic: { dropletsPerBatch: 32 } };

describe("TerrainErosion's attach lifecycle", () => {
    let env: ReturnType<typeof createNullScene>;

    beforeEach(() => {
        env = createNullScene();
    });

    afterEach(() => {
        env.dispose();
    });

    it("whenReady() waits for an attach Babylon deferred while the scene was loading, then resolves with the backend ready", async () => {
        const ground = createGroundWithHeights(env.scene, heights, SIDE, SIDE);
        const loading = {};
        env.scene.addPendingData(loading); // as a PBR material's textures do
        const erosion = new TerrainErosion(OPTIONS);
        ground.addBehavior(erosion); // deferred: the scene is loading
        let ready = false;
        const waiting = erosion.whenReady().then(() => (ready = true));
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(erosion.attachedNode).toBeNull();
        expect(ready).toBe(false);
        env.scene.removePendingData(loading); // Babylon attaches now
        await waiting;
        expect(erosion.backend).toBe("cpu");
        // What the README's first snippet does next works at once.
        const spring = erosion.edits.addWaterSource({ x: 0, y: 0, z: 0 }, 2, 1);
        spring.remove();
        erosion.dispose();
    });

    it("whenReady() rejects with the reason when the deferred attach fails, and when the behavior is disposed unattached", async () => {
        const box = createGroundWithHeights(env.scene, heights, SIDE, SIDE);
        box.dispose(); // a disposed ground: the attach fails
        const failing = new TerrainErosion(OPTIONS);
        const asked = failing.whenReady();
        expect(() => failing.attach(box)).toThrow(/disposed/);
        await expect(asked).rejects.toThrow(/disposed/);
        const never = new TerrainErosion(OPTIONS);
        const waiting = never.whenReady();
        never.dispose();
        await expect(waiting).rejects.toThrow("TerrainErosion: disposed");
        await expect(never.whenReady()).rejects.toThrow("TerrainErosion: disposed");
    });

    it("fires onAttachedObservable and onDetachedObservable around each attach, and whenReady() waits again after a detach", async () => {
        const ground = createGroundWithHeights(env.scene, heights, SIDE, SIDE);
        const erosion = new TerrainErosion(OPTIONS);
        const seen: string[] = [];
        erosion.onAttachedObservable.add((controller) => seen.push(`attached ${controller.getGrounds().length} ${controller.isAttached}`));
        erosion.onDetachedObservable.add((controller) => seen.push(`detached ${controller.isAttached}`));
        ground.addBehavior(erosion);
        await erosion.whenReady();
        erosion.detach();
        let ready = false;
        const again = erosion.whenReady().then(() => (ready = true));
        await new Promise((resolve) => setTimeout(resolve, 10));
        expect(ready).toBe(false);
        erosion.attach(ground);
        await again;
        erosion.dispose();
        expect(seen).toEqual(["attached 1 true", "detached false", "attached 1 true", "detached false"]);
    });

    it("reports its start's phases, from attach to the first batches on the mesh", async () => {
        const ground = createGroundWithHeights(env.scene, heights, SIDE, SIDE);
        const erosion = new TerrainErosion(OPTIONS);
        expect(erosion.startup).toBeNull();
        const seen: string[] = [];
        erosion.onStartupObservable.add((startup) => seen.push(startup.phase));
        ground.addBehavior(erosion);
        await erosion.whenReady();
        expect(erosion.startup).toMatchObject({ phase: "first-batch", kernels: 0 });
        await renderFrames(env.scene, 2);
        await erosion.whenIdle();
        const startup = erosion.startup!;
        expect(seen).toEqual(["starting-workers", "first-batch", "running"]);
        expect(startup.phases.map(({ phase }) => phase)).toEqual(seen);
        expect(startup.phases.every(({ ms }, k) => ms >= 0 && (k === 0 || ms >= startup.phases[k - 1].ms))).toBe(true);
        erosion.dispose();
    });

    it("ends its start's report when the first batches come from runCycles while paused", async () => {
        const ground = createGroundWithHeights(env.scene, heights, SIDE, SIDE);
        const erosion = new TerrainErosion({ ...OPTIONS, autoStart: false });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        expect(erosion.startup).toMatchObject({ phase: "first-batch" });
        await erosion.runCycles(1);
        expect(erosion.startup?.phase).toBe("running");
        erosion.dispose();
    });

    it("reports an idle lastFrame while paused, and the frame's figures while running", async () => {
        const ground = createGroundWithHeights(env.scene, heights, SIDE, SIDE);
        const erosion = new TerrainErosion(OPTIONS);
        ground.addBehavior(erosion);
        await erosion.whenReady();
        await renderFrames(env.scene, 4);
        await erosion.whenIdle();
        expect(erosion.lastFrame.batches).toBeGreaterThan(0);
        erosion.pause();
        // A river batch running in pieces when paused finishes first (the schedule has counted it): at
        // most its six phases, then its rows within three frames.
        await renderFrames(env.scene, 12);
        expect(erosion.lastFrame).toEqual({ batches: 0, estimatedMs: 0, measuredMs: null, measuredBy: null, cpuMs: 0, applyMs: 0, postMs: 0, landed: expect.any(Number) });
        erosion.start();
        await renderFrames(env.scene, 2);
        await erosion.whenIdle();
        expect(erosion.lastFrame.batches).toBeGreaterThan(0);
        // The rolling distribution holds the erosion frames only (the paused ones ran none; a frame
        // that found the worker busy ran none either).
        const { frames, erosion: cost, mainThread } = erosion.frameStats;
        expect(frames).toBeGreaterThanOrEqual(2);
        expect(frames).toBeLessThanOrEqual(12);
        expect(cost.medianMs).toBeGreaterThan(0);
        expect(cost.p95Ms).toBeGreaterThanOrEqual(cost.medianMs);
        expect(cost.maxMs).toBeGreaterThanOrEqual(cost.p95Ms);
        expect(mainThread.maxMs).toBeGreaterThan(0);
        erosion.dispose();
    });
});
