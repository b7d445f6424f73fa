/**
 * The CPU backend's worker stops answering (a channel that never replies from a chosen request on),
 * under a NullEngine: the stall is reported naming the wait and the batch, erosion rebuilds its
 * backend from the last checkpoint and reaches the fingerprint of an undisturbed run, the dig given
 * after that checkpoint included; with every new backend's worker stopping too, erosion stops after
 * `stallRetries` recoveries with `status` saying why, every read answering from the checkpoint, and
 * `start()` takes it on again once the worker answers.
 */
import { erodeHeightfield, type ErosionOptionsInput } from "../../../plugin/index.js";
import { CpuErosionBackend, inThreadChannel, type BackendMaker } from "../../../plugin/internal.js";
import { kinds, stalledRun, renderUntil, STALL_HEIGHTS, STALL_SIZE, stoppingChannel } from "../../helpers/stalls.js";

const OPTIONS: ErosionOptionsInput = { patchSize: 16, seed: 3, hydraulic: { dropletsPerBatch: 64, maxSteps: 20 }, maxCycles: 3, stallTimeoutMs: 300, stallRetries: 2 };

/** Backends on the core in this thread, each behind a channel that stops answering once `stops(backend index, request type)` says so. */
function channels(stops: (backend: number, type: string) => boolean): BackendMaker {
    let made = 0;
    return (state, watch) => {
        const backend = made++;
        const channel = stoppingChannel(inThreadChannel(), (type) => stops(backend, type));
        return CpuErosionBackend.over(channel, false, state, { workers: 1, shared: true }, null, watch);
    };
}

describe("a CPU backend whose worker stops answering", () => {
    let undisturbed: string;

    beforeAll(async () => {
        const run = await stalledRun(channels(() => false), OPTIONS, () => undefined, ({ erosion }) => erosion.cyclesCompleted >= 3 && !erosion.isRunning);
        undisturbed = await run.erosion.fingerprint();
        expect(run.events).toEqual([]);
        run.dispose();
    });

    it("is reported, naming the wait and the batch, and erosion recovers to the undisturbed run's fingerprint", async () => {
        let armed = false;
        const run = await stalledRun(channels((backend, type) => armed && backend === 0 && type === "frame"), OPTIONS, () => (armed = true), ({ erosion }) => erosion.cyclesCompleted >= 3 && !erosion.isRunning && erosion.status.state === "paused");
        try {
            const { erosion, events } = run;
            expect(kinds(events)).toEqual(["stalled", "recovered"]);
            const stall = events[0].stall!;
            expect(stall).toMatchObject({ operation: 'the CPU worker\'s reply to "frame"', wait: "workerReply", cycle: 1, inARow: 1 });
            expect(stall.during).toMatch(/^the frame of cycle 1, batch(es)? \d/);
            expect(stall.waitedMs).toBeGreaterThan(290); // the deadline (a timer may fire a fraction of a millisecond early)
            expect(events[0].message).toMatch(/Erosion stalled: the CPU worker's reply to "frame" did not settle within \d+ ms \(the frame of cycle 1, .*rebuilding the cpu backend/);
            expect(erosion.status).toEqual({ state: "paused", reason: null, stalls: 1 });
            expect(await erosion.fingerprint()).toBe(undisturbed);
        } finally {
            run.dispose();
        }
    });

    it("stops after stallRetries recoveries, reads answering from the checkpoint, and start() takes it on again", async () => {
        let armed = false;
        let answering = false;
        const run = await stalledRun(channels((_backend, type) => armed && !answering && type === "frame"), OPTIONS, () => (armed = true), ({ erosion }) => erosion.status.state === "stopped");
        try {
            const { erosion, events, scene } = run;
            expect(kinds(events)).toEqual(["stalled", "recovered", "stalled", "recovered", "stalled", "stopped"]);
            expect(events.map((event) => event.stall?.inARow ?? null)).toEqual([1, null, 2, null, 3, 3]);
            const status = erosion.status;
            expect(status.state).toBe("stopped");
            expect(status.stalls).toBe(3);
            expect(status.reason).toMatch(/the CPU worker's reply to "frame" did not settle .*more stalls in a row than stallRetries \(2\)/);
            // The run stands at its last checkpoint (cycle 1, before the dig), and every read answers from there.
            const reference = erodeHeightfield(STALL_HEIGHTS, STALL_SIZE, STALL_SIZE, OPTIONS, 1);
            expect(erosion.cyclesCompleted).toBe(1);
            expect(erosion.isRunning).toBe(false);
            expect(Array.from(await erosion.maps.readHeights())).toEqual(Array.from(reference.heights));
            expect(await erosion.fingerprint()).not.toBe(reference.fingerprint); // the dig waits at its stamp, in the state
            expect(erosion.getGrounds()[0].getHeightAtCoordinates(0, 0)).toBeCloseTo(reference.heights[16 * STALL_SIZE + 16], 4);
            // The worker answers again: start() rebuilds and runs on to the undisturbed terrain.
            answering = true;
            erosion.start();
            await renderUntil(scene, () => erosion.cyclesCompleted >= 3 && !erosion.isRunning, "the run after start()");
            await erosion.whenIdle();
            expect(kinds(events).slice(6)).toEqual(["recovered"]);
            expect(erosion.status.state).toBe("paused");
            expect(await erosion.fingerprint()).toBe(undisturbed);
        } finally {
            run.dispose();
        }
    });
});
