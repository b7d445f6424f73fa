/**
 * The record and the deadline of every wait on a device or a worker (`WaitWatch`): a pending wait
 * is listed with what it waits for and since when, a settled one leaves the list (its value or its
 * own error passing through), one past the deadline fails with a `StallError` naming it and every
 * wait pending then, a wait made of many answers gets a whole deadline again at each, and so does
 * a wait queued behind work the device reports finished.
 */
import { StallError } from "../../../plugin/index.js";
import { WaitWatch } from "../../../plugin/internal.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("WaitWatch", () => {
    it("lists each wait while it is pending, oldest first, and passes its value or error through", async () => {
        const watch = new WaitWatch(() => 10000);
        let answer!: (value: number) => void;
        const first = watch.watch("readback", "readBuffer heights", new Promise<number>((resolve) => (answer = resolve)));
        await sleep(20);
        const failing = watch.watch("workerReply", 'reply to "frame"', Promise.reject(new RangeError("the worker said no")));
        expect(watch.pending.map((wait) => [wait.kind, wait.operation])).toEqual([["readback", "readBuffer heights"], ["workerReply", 'reply to "frame"']]);
        expect(watch.pending[0].waitedMs).toBeGreaterThan(15);
        await expect(failing).rejects.toThrow(RangeError);
        expect(watch.describe()).toMatch(/^readBuffer heights for \d+ ms$/);
        answer(7);
        await expect(first).resolves.toBe(7);
        expect(watch.pending).toEqual([]);
        expect(watch.describe()).toBe("nothing");
        expect(watch.longestSettledMs.readback).toBeGreaterThan(15);
    });

    it("fails a wait past the deadline with a StallError naming it and the waits pending then", async () => {
        let deadline = 50;
        const watch = new WaitWatch(() => deadline);
        const other = watch.watch("submittedWork", "onSubmittedWorkDone", new Promise(() => undefined));
        other.catch(() => undefined);
        await sleep(10);
        const stalled = watch.watch("readback", "readBuffer TerrainErosion.heights (bytes 0-64)", new Promise(() => undefined));
        const error = (await other.catch((caught: unknown) => caught)) as StallError;
        expect(error).toBeInstanceOf(StallError);
        expect(error.wait.operation).toBe("onSubmittedWorkDone");
        expect(error.pending.map((wait) => wait.operation)).toEqual(["onSubmittedWorkDone", "readBuffer TerrainErosion.heights (bytes 0-64)"]);
        expect(error.message).toMatch(/^onSubmittedWorkDone did not settle within \d+ ms \(submittedWork\); waiting then: onSubmittedWorkDone for \d+ ms; readBuffer TerrainErosion.heights \(bytes 0-64\) for \d+ ms\.$/);
        await expect(stalled).rejects.toThrow(/^readBuffer TerrainErosion.heights \(bytes 0-64\) did not settle/);
        expect(watch.pending).toEqual([]);
        // The deadline is read when a wait starts (a runtime setting changes at once).
        deadline = Infinity;
        const slow = watch.watch("compile", "compiling 3 kernels", sleep(80).then(() => "compiled"));
        await expect(slow).resolves.toBe("compiled");
    });

    it("gives a wait of many answers a whole deadline again at each", async () => {
        const watch = new WaitWatch(() => 400);
        const steady = watch.watchProgress("tileJob", "tile jobs 0, 1, 2, 3, 4", async (progress) => {
            for (let job = 0; job < 5; job++) {
                await sleep(100);
                progress();
            }
            return "all answered";
        });
        await expect(steady).resolves.toBe("all answered"); // 500 ms in all, never 400 without an answer
        const stuck = watch.watchProgress("tileJob", "tile jobs 4, 5", async (progress) => {
            await sleep(20);
            progress();
            await new Promise(() => undefined);
        });
        await expect(stuck).rejects.toBeInstanceOf(StallError);
    });

    it("gives the waits queued behind finished work a whole deadline again, not those older than it", async () => {
        const watch = new WaitWatch(() => 800);
        const older = watch.watch("readback", "readBuffer before the submit", new Promise(() => undefined));
        older.catch(() => undefined);
        await sleep(5);
        const submitted = performance.now();
        await sleep(5);
        let settled = false;
        const behind = watch.watch("readback", "readBuffer after the submit", sleep(1400).then(() => "read"));
        void behind.then(() => (settled = true), () => (settled = true));
        // The work submitted before it finishes now and then, as a long cycle's submits do.
        for (let step = 0; step < 5; step++) {
            await sleep(200);
            watch.alive(submitted);
        }
        await expect(older).rejects.toBeInstanceOf(StallError); // 800 ms after its start, whatever finished since
        expect(settled).toBe(false);
        await expect(behind).resolves.toBe("read"); // 1400 ms in all, never 800 after the last sign of life
    });
});
