/**
 * `terrain-erosion worker redis://host:port`: takes tile jobs of any bake from the queue, reads a
 * job's input from Redis, runs it (`tileWork.ts`) and writes its output under the job's (step, tile)
 * key with one `SET`, then completes the job. Run as many as there are cores, on as many machines as
 * reach the Redis. A job is computed in this thread; a tile of a 2049² field in 4x4 tiles takes a
 * fraction of a second, well inside BullMQ's lock (which this thread cannot renew while it computes).
 */
import { hostname } from "node:os";
import type { Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { loadQueueLibraries, probeRedis, redisOptions, TILE_QUEUE } from "./queueConnection.js";
import type { TileJobData, TileJobResult } from "./queueTransport.js";
import { TileWorkbench } from "./tileWork.js";

/** How a queue worker runs. */
export interface QueueWorkerSettings {
    /** The Redis URL (`redis://host:port`). */
    readonly url: string;
    /** Milliseconds a job's lock lasts before another worker may take the job over (BullMQ's `lockDuration`; default 30000). */
    readonly lockMs?: number;
    /** Milliseconds between checks for jobs whose worker stopped renewing their lock (BullMQ's `stalledInterval`; default 30000). */
    readonly stalledMs?: number;
    /** Called after each job with its tile and milliseconds. */
    readonly onJob?: (data: TileJobData, computeMs: number) => void;
    /**
     * Fault injection for tests: after this many jobs, the next job writes half of its output and
     * the process kills itself (SIGKILL), as a machine lost mid-write would.
     */
    readonly crashAfterJobs?: number;
}

/** A running queue worker. */
export interface QueueWorker {
    /** Finishes the job in hand, then disconnects. */
    close(): Promise<void>;
}

/** Starts a worker on the tile queue at `settings.url`. */
export async function startQueueWorker(settings: QueueWorkerSettings): Promise<QueueWorker> {
    const { bullmq, ioredis } = await loadQueueLibraries("terrain-erosion worker");
    const connection = redisOptions(settings.url, "terrain-erosion worker");
    await probeRedis(ioredis, connection, settings.url, "terrain-erosion worker");
    const redis: Redis = new ioredis.Redis(connection);
    const bench = new TileWorkbench();
    const name = `${hostname()}:${process.pid}`;
    let jobsDone = 0;
    const process_ = async (job: Job<TileJobData>): Promise<TileJobResult> => {
        const data = job.data;
        const what = `tile ${data.tile} of cycle ${data.cycle}, class ${data.group}`;
        const input = await redis.getBuffer(data.input);
        if (!input) throw new Error(`The input of ${what} is not in Redis (${data.input}).`);
        const started = performance.now();
        const output = bench.run(new Uint8Array(input.buffer, input.byteOffset, input.byteLength), `the input of ${what}`);
        const computeMs = performance.now() - started;
        if (settings.crashAfterJobs !== undefined && jobsDone >= settings.crashAfterJobs) {
            await redis.set(data.output, Buffer.from(output.buffer, output.byteOffset, output.byteLength >> 1));
            process.kill(process.pid, "SIGKILL");
        }
        await redis.set(data.output, Buffer.from(output.buffer, output.byteOffset, output.byteLength));
        jobsDone++;
        settings.onJob?.(data, computeMs);
        return { worker: name, computeMs, peakResidentMB: process.resourceUsage().maxRSS / 1024 };
    };
    const lockDuration = settings.lockMs ?? 30000;
    const worker: Worker = new bullmq.Worker(TILE_QUEUE, process_, {
        connection,
        concurrency: 1,
        lockDuration,
        stalledInterval: settings.stalledMs ?? 30000,
        // A killed worker's job is taken over, not failed: its output is rewritten whole.
        maxStalledCount: 5,
    });
    await worker.waitUntilReady();
    return {
        close: async () => {
            await worker.close();
            redis.disconnect();
        },
    };
}
