/**
 * A bake in tiles on this machine: the tile jobs a queued bake sends to other machines
 * (`queue/tileJobs.ts`) run on this machine's cores instead, in Node worker threads (or in this
 * thread), each on grids the size of its tile. With the river batches in windows of rows
 * (`riverWindows.ts`), the bake's memory is the field's state and maps plus a few tiles and one
 * window, where the CPU backend keeps some 40 more bytes a vertex of whole-field scratch per worker.
 *
 * A thread is sent its next job as soon as it answers, and each output is applied as it arrives:
 * a step's jobs are one class of independent batches, so no output changes a cell another job of
 * the step reads, and inputs encoded later read what they would have read before the step.
 */
import { Worker } from "node:worker_threads";
import { TILE_THREAD_SOURCE } from "../generated/tileThreadSource.generated.js";
import type { StepId, StepTransport } from "./queue/tiledDevice.js";
import type { TileJob } from "./queue/tileJobs.js";
import { TileWorkbench } from "./queue/tileWork.js";
import type { TileThreadReply, TileThreadRequest } from "./tileThreadMain.js";

/** Runs a step's tile jobs on `threads` Node worker threads, or in this thread when `threads` is 1. */
export class LocalTileTransport implements StepTransport {
    private readonly _threads: Worker[] = [];
    private readonly _bench: TileWorkbench | null;

    constructor(threads: number) {
        if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads is ${threads}: it must be a whole number, 1 or more.`);
        if (threads === 1) {
            this._bench = new TileWorkbench(1);
            return;
        }
        this._bench = null;
        this._spawn(threads);
    }

    private _spawn(threads: number): void {
        for (let k = 0; k < threads; k++) this._threads.push(new Worker(TILE_THREAD_SOURCE, { eval: true }));
    }

    /** After a stall: the threads (one of them no longer answering) are ended and as many new ones started. */
    public async abandon(): Promise<void> {
        const threads = this._threads.splice(0);
        this._spawn(threads.length);
        await Promise.all(threads.map((thread) => thread.terminate()));
    }

    public get description(): string {
        const threads = Math.max(this._threads.length, 1);
        return `cpu tiles, ${threads} thread${threads === 1 ? "" : "s"}`;
    }

    public async runStep(
        step: StepId, jobs: readonly TileJob[], input: (job: TileJob) => Uint8Array, output: (index: number, bytes: Uint8Array) => void
    ): Promise<void> {
        const what = (k: number) => `tile ${jobs[k].tile} (cycle ${step.cycle}, class ${step.group})`;
        if (this._bench) {
            jobs.forEach((job, k) => output(k, this._bench!.run(input(job), what(k))));
            return;
        }
        let next = 0;
        const drain = async (thread: Worker): Promise<void> => {
            while (next < jobs.length) {
                const k = next++;
                const bytes = input(jobs[k]);
                const reply = await this._ask(thread, { input: bytes, what: what(k) }, bytes);
                if ("error" in reply) throw new Error(`${what(k)}: ${reply.error}`);
                output(k, reply.output);
            }
        };
        await Promise.all(this._threads.map(drain));
    }

    /** Sends `request` to `thread` and waits for its answer (or its failure). */
    private _ask(thread: Worker, request: TileThreadRequest, bytes: Uint8Array): Promise<TileThreadReply> {
        return new Promise((resolve, reject) => {
            const failed = (error: Error) => {
                thread.off("message", answered);
                thread.off("exit", ended);
                reject(new Error(`A bake thread failed: ${error.message}`));
            };
            const ended = () => failed(new Error("it ended before answering"));
            const answered = (reply: TileThreadReply) => {
                thread.off("error", failed);
                thread.off("exit", ended);
                resolve(reply);
            };
            thread.once("message", answered);
            thread.once("error", failed);
            thread.once("exit", ended);
            thread.postMessage(request, [bytes.buffer as ArrayBuffer]);
        });
    }

    public async close(): Promise<void> {
        await Promise.all(this._threads.map((thread) => thread.terminate()));
        this._threads.length = 0;
    }
}
