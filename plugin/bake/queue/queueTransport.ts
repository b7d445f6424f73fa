/**
 * A queued bake's coordinator side: each step of independent batches becomes a BullMQ flow, a
 * parent job on the bake's step queue whose children are the step's tile jobs on the shared tile
 * queue; the next step starts when the parent completes (this process processes its own step
 * queue). Tile data lives in Redis, next to the queue, as one value per (step, tile) for the input
 * and one for the output: the workers need nothing but the Redis URL (no shared disk to set up),
 * and a tile's data is small (a 2049² field cut into 4x4 tiles moves about a megabyte a job).
 *
 * Exactly once in effect: a job's output key is its (step, tile), written with one `SET`, and holds
 * cell values, not differences, so a retried job (a worker killed mid-job, a stalled lock)
 * overwrites it with the same bytes; the gather reads each key once, after the parent completes.
 *
 * Restarting: steps and jobs have ids made of the bake's id, cycle and class, so a restarted
 * coordinator (the same command) finds the queue's state: a step whose parent completed is replayed
 * from its outputs, one whose parent is still waiting is waited for, and only a step the queue has
 * never seen is sent. It starts from its last checkpoint (`queueCheckpoint.ts`), written at a
 * cycle's start every `checkpointSeconds`; the outputs of steps before it are then deleted.
 */
import type { FlowProducer, Job, Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { ErosionOptions } from "../../core/options.js";
import type { StepId, StepTransport, TiledBakeDevice, TiledFigures } from "./tiledDevice.js";
import type { TileJob } from "./tileJobs.js";
import { BakeQueueError, bakeKeyPrefix, loadQueueLibraries, probeRedis, redisOptions, stepQueueName, TILE_QUEUE } from "./queueConnection.js";
import { removeQueueCheckpoint, writeQueueCheckpoint } from "./queueCheckpoint.js";

/** What a tile job carries in BullMQ (its cells are in Redis under `input`). */
export interface TileJobData {
    readonly bake: string;
    readonly cycle: number;
    readonly group: number;
    readonly tile: number;
    readonly input: string;
    readonly output: string;
}

/** What a worker answers for a tile job. */
export interface TileJobResult {
    /** The worker (host and process). */
    readonly worker: string;
    readonly computeMs: number;
    /** The worker process's peak resident memory so far, MB. */
    readonly peakResidentMB: number;
}

/** How a queued bake's coordinator connects and checkpoints. */
export interface QueueTransportSettings {
    readonly url: string;
    readonly bakeId: string;
    /** The coordinator's checkpoint file and how often it is written (seconds; 0: every cycle). */
    readonly checkpointPath: string;
    readonly checkpointSeconds: number;
    /** The checkpoint's snapshot records these. */
    readonly options: Readonly<ErosionOptions>;
    readonly cellSize: number;
    /** The cycle the bake starts at (no checkpoint is written there). */
    readonly startCycle: number;
    /** A line for the user (no worker connected yet). */
    readonly onNotice?: (line: string) => void;
}

/** What the queue's coordination cost. */
export interface QueueFigures {
    /** Steps sent to the queue, and steps replayed from outputs it already held. */
    sent: number;
    replayed: number;
    /** Per step, the busiest worker's compute milliseconds, summed over steps. */
    busiestWorkerMs: number;
    workers: Set<string>;
    /** The largest peak resident memory a worker reported, MB. */
    workerPeakMB: number;
    checkpoints: number;
}

const POLL_MS = 250;

/** Tile jobs on BullMQ. */
export class QueueTransport implements StepTransport {
    private readonly _coordination: QueueFigures = { sent: 0, replayed: 0, busiestWorkerMs: 0, workers: new Set(), workerPeakMB: 0, checkpoints: 0 };
    private readonly _finished = new Map<string, () => void>();
    private readonly _completed = new Set<string>();
    private _lastCheckpoint = performance.now();
    private readonly _prefix: string;

    private constructor(
        private readonly _settings: QueueTransportSettings,
        private readonly _redis: Redis,
        private readonly _flow: FlowProducer,
        private readonly _steps: Queue,
        private readonly _stepWorker: Worker,
        private readonly _tiles: Queue
    ) {
        this._prefix = bakeKeyPrefix(_settings.bakeId);
        _stepWorker.on("completed", (job: Job) => {
            this._completed.add(job.id!);
            this._finished.get(job.id!)?.();
        });
    }

    /** Connects to the queue at `settings.url` (a clear error if Redis does not answer). */
    public static async open(settings: QueueTransportSettings): Promise<QueueTransport> {
        const { bullmq, ioredis } = await loadQueueLibraries("--queue");
        const connection = redisOptions(settings.url, "--queue");
        await probeRedis(ioredis, connection, settings.url, "--queue");
        const redis = new ioredis.Redis(connection);
        const steps = new bullmq.Queue(stepQueueName(settings.bakeId), { connection });
        const tiles = new bullmq.Queue(TILE_QUEUE, { connection });
        // The parent's work is done by its children: completing it is the step's barrier.
        const stepWorker = new bullmq.Worker(stepQueueName(settings.bakeId), async (job: Job) => ({ tiles: (job.data as { tiles: number }).tiles }), {
            connection,
            concurrency: 1,
        });
        const transport = new QueueTransport(settings, redis, new bullmq.FlowProducer({ connection }), steps, stepWorker, tiles);
        if ((await tiles.getWorkersCount()) === 0)
            settings.onNotice?.(`No worker is taking tile jobs yet: start \`terrain-erosion worker ${settings.url}\` on any machine that reaches this Redis.`);
        return transport;
    }

    public get description(): string {
        return `queue ${this._settings.url}`;
    }

    private _stepJobId(step: StepId): string {
        return `${this._settings.bakeId}-${step.cycle}-${step.group}`;
    }

    private _keys(step: StepId, job: TileJob): { input: string; output: string } {
        const at = `${step.cycle}:${step.group}:${job.tile}`;
        return { input: `${this._prefix}in:${at}`, output: `${this._prefix}out:${at}` };
    }

    public async runStep(
        step: StepId, jobs: readonly TileJob[], input: (job: TileJob) => Uint8Array, output: (index: number, bytes: Uint8Array) => void, progress?: () => void
    ): Promise<void> {
        const id = this._stepJobId(step);
        const keys = jobs.map((job) => this._keys(step, job));
        let known = await this._steps.getJob(id);
        if (known && (await known.getState()) === "failed") {
            // An earlier run of this bake failed here (a broken worker): send the step again.
            await known.remove({ removeChildren: true });
            known = undefined;
        }
        if (!known) {
            const pipeline = this._redis.pipeline();
            jobs.forEach((job, k) => pipeline.set(keys[k].input, Buffer.from(input(job))));
            for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
            await this._flow.add({
                name: "step",
                queueName: stepQueueName(this._settings.bakeId),
                data: { tiles: jobs.length },
                opts: { jobId: id },
                children: jobs.map((job, k) => ({
                    name: "tile",
                    queueName: TILE_QUEUE,
                    data: { bake: this._settings.bakeId, cycle: step.cycle, group: step.group, tile: job.tile, ...keys[k] } satisfies TileJobData,
                    opts: { jobId: `${id}-${job.tile}`, attempts: 3, removeOnComplete: true, failParentOnFailure: true },
                })),
            });
            this._coordination.sent++;
        } else {
            this._coordination.replayed++;
        }
        const parent = await this._waitFor(id, progress);
        await this._countWork(parent);
        const outputs = await this._redis.mgetBuffer(...keys.map((key) => key.output));
        const missing = outputs.findIndex((bytes) => bytes === null);
        if (missing >= 0)
            throw new Error(
                `The output of tile ${jobs[missing].tile} of cycle ${step.cycle}, class ${step.group} is not in Redis (${keys[missing].output}), though its ` +
                    `step completed: was the key deleted? Start the bake afresh after removing its queue state.`
            );
        await this._redis.del(...keys.map((key) => key.input));
        outputs.forEach((bytes, k) => output(k, new Uint8Array(bytes!.buffer, bytes!.byteOffset, bytes!.byteLength)));
    }

    /**
     * Waits until step job `id` completes; throws what failed it. `progress` hears of each tile job
     * the queue counts done meanwhile (the coordinator's stall deadline runs from the last).
     */
    private async _waitFor(id: string, progress?: () => void): Promise<Job> {
        let processed = 0;
        for (;;) {
            const job = await this._steps.getJob(id);
            if (!job) throw new Error(`The step job ${id} vanished from the queue.`);
            if (this._completed.has(id)) return job;
            const state = await job.getState();
            if (state === "completed") return job;
            const done = progress ? ((await job.getDependenciesCount({ processed: true })).processed ?? 0) : 0;
            if (done > processed) {
                processed = done;
                progress?.();
            }
            if (state === "failed") throw new BakeQueueError(`A tile job of step ${id} failed after 3 attempts: ${await this._childFailure(job.failedReason)}`);
            await new Promise<void>((resolve) => {
                const timer = setTimeout(resolve, POLL_MS);
                this._finished.set(id, () => {
                    clearTimeout(timer);
                    resolve();
                });
            });
            this._finished.delete(id);
        }
    }

    /** Why the child a parent's `failedReason` names failed, as the worker reported it. */
    private async _childFailure(parentReason: string): Promise<string> {
        const childId = /:([^:\s]+) failed/.exec(parentReason)?.[1];
        const child = childId ? await this._tiles.getJob(childId) : undefined;
        return child?.failedReason ? `${child.failedReason} (job ${childId})` : parentReason;
    }

    /** Adds the step's busiest worker's compute time, from its children's results. */
    private async _countWork(parent: Job): Promise<void> {
        const perWorker = new Map<string, number>();
        for (const value of Object.values(await parent.getChildrenValues<TileJobResult>())) {
            perWorker.set(value.worker, (perWorker.get(value.worker) ?? 0) + value.computeMs);
            this._coordination.workers.add(value.worker);
            this._coordination.workerPeakMB = Math.max(this._coordination.workerPeakMB, value.peakResidentMB);
        }
        this._coordination.busiestWorkerMs += Math.max(0, ...perWorker.values());
    }

    public figures(work: TiledFigures): Record<string, unknown> {
        const { sent, replayed, busiestWorkerMs, checkpoints } = this._coordination;
        return {
            url: this._settings.url,
            startCycle: this._settings.startCycle,
            stepsSent: sent,
            stepsReplayed: replayed,
            workers: [...this._coordination.workers].sort(),
            workerPeakResidentMB: this._coordination.workerPeakMB,
            checkpoints,
            // A step's time beyond its busiest worker's computing: sending, queueing, gathering.
            coordinationMsPerStep: work.steps > 0 ? (work.stepMs - busiestWorkerMs) / work.steps : 0,
            bytesMovedPerStep: work.steps > 0 ? (work.bytesIn + work.bytesOut) / work.steps : 0,
        };
    }

    public async cycleStart(cycle: number, device: TiledBakeDevice): Promise<void> {
        const { checkpointSeconds, startCycle } = this._settings;
        if (cycle === startCycle || performance.now() - this._lastCheckpoint < checkpointSeconds * 1000) return;
        await writeQueueCheckpoint(
            this._settings.checkpointPath, this._settings.bakeId, await device.readState(cycle, 0), await device.readMaps(), this._settings.options,
            this._settings.cellSize
        );
        this._lastCheckpoint = performance.now();
        this._coordination.checkpoints++;
        // Replaying from here on never reads the outputs of earlier cycles.
        await this._deleteKeys((key) => Number(key.slice(this._prefix.length).split(":")[1]) < cycle);
    }

    /** Deletes this bake's keys that `which` picks (by name). */
    private async _deleteKeys(which: (key: string) => boolean): Promise<void> {
        let cursor = "0";
        do {
            const [next, keys] = await this._redis.scan(cursor, "MATCH", `${this._prefix}*`, "COUNT", 1000);
            cursor = next;
            const doomed = keys.filter(which);
            if (doomed.length > 0) await this._redis.del(...doomed);
        } while (cursor !== "0");
    }

    /** The bake completed: its keys, its step queue and the coordinator's checkpoint go. */
    public async complete(): Promise<void> {
        await this._deleteKeys(() => true);
        await this._steps.obliterate({ force: true });
        await removeQueueCheckpoint(this._settings.checkpointPath);
    }

    public async close(): Promise<void> {
        await this._stepWorker.close();
        await Promise.all([this._flow.close(), this._steps.close(), this._tiles.close()]);
        this._redis.disconnect();
    }
}
