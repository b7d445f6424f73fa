/**
 * The CPU reference on several cores under Node: a pool of worker threads sharing the heights
 * (a SharedArrayBuffer), each with its own delta accumulator. A droplet batch is split by droplets
 * and the accumulators summed; a thermal batch is split by rows, step by step; the fold and river
 * batches run on the calling thread. The result is the single-thread result to the unit (see
 * `splitBatch.ts`, and `test/unit/bench/cpuWorkers.test.ts`, which checks it). The benchmarks'
 * multi-thread CPU figures run on it (`bench/src/cpuMain.ts`); it lives here, beside the code both
 * share, so that neither imports the other.
 */
import { Worker } from "node:worker_threads";
import { type BatchParams, COUNTER_COUNT, FoldScratch, foldDroplets, runRiverBatch, createRiverScratch, RiverBandWork, type RiverScratch, tileSeam, type ErosionStateData, type PlannedBatch, THERMAL_SLOTS } from "../../plugin/advanced.js";
import { addAndClearDelta, splitRange } from "./splitBatch.js";

/** What a worker starts with. */
export interface WorkerData {
    heights: SharedArrayBuffer;
    delta: SharedArrayBuffer;
    /** The worker's water visits (as `CpuBatchRunner` counts them for the erosion maps). */
    water: SharedArrayBuffer;
    flux: SharedArrayBuffer;
    /** The drainage area and suspended load thermal apply's channel rule reads and writes (see `CpuWorkerPool.thermal`). */
    drainageArea: SharedArrayBuffer;
    suspended: SharedArrayBuffer;
}

/** A request to a worker. */
export type WorkerRequest =
    | { type: "droplets"; params: BatchParams; brush: Int32Array; first: number; end: number }
    | { type: "flux"; params: BatchParams; y0: number; y1: number }
    | { type: "apply"; params: BatchParams; y0: number; y1: number }
    | { type: "flux-buffer"; flux: SharedArrayBuffer };

/** A worker's answer: what it added to the counters. */
export interface WorkerReply {
    counters: Float64Array;
}

interface PoolWorker {
    worker: Worker;
    delta: Int32Array;
    water: Int32Array;
    pending: { resolve: (reply: WorkerReply) => void; reject: (error: unknown) => void } | null;
}

/** Worker threads running the CPU kernels on shared heights. */
export class CpuWorkerPool {
    /** The heights every worker reads (and thermal bands write): shared memory. */
    public readonly heights: Int32Array;
    /**
     * The drainage area and suspended load the thermal bands' channel rule reads and writes: shared
     * memory, all zero (no channel anywhere) except while `runBatch` runs a thermal batch of a state.
     */
    private readonly _drainageArea: Int32Array;
    private readonly _suspended: Int32Array;
    private _flux: SharedArrayBuffer;
    private readonly _workers: PoolWorker[] = [];
    private readonly _fold: FoldScratch;
    private _river: { scratch: RiverScratch; work: RiverBandWork } | null = null;

    private constructor(
        public readonly width: number,
        public readonly depth: number
    ) {
        this.heights = new Int32Array(new SharedArrayBuffer(width * depth * 4));
        this._drainageArea = new Int32Array(new SharedArrayBuffer(width * depth * 4));
        this._suspended = new Int32Array(new SharedArrayBuffer(width * depth * 4));
        this._flux = new SharedArrayBuffer(4);
        this._fold = new FoldScratch(width * depth);
    }

    /**
     * Starts `threads` workers.
     * @param workerScript the bundled `cpuWorker.ts` (a file path or URL)
     */
    public static async create(threads: number, workerScript: string | URL, width: number, depth: number): Promise<CpuWorkerPool> {
        const pool = new CpuWorkerPool(width, depth);
        for (let index = 0; index < threads; index++) {
            const delta = new SharedArrayBuffer(width * depth * 4);
            const water = new SharedArrayBuffer(width * depth * 4);
            const data: WorkerData = { heights: pool.heights.buffer as SharedArrayBuffer, delta, water, flux: pool._flux, drainageArea: pool._drainageArea.buffer as SharedArrayBuffer, suspended: pool._suspended.buffer as SharedArrayBuffer };
            const worker = new Worker(workerScript, { workerData: data });
            const entry: PoolWorker = { worker, delta: new Int32Array(delta), water: new Int32Array(water), pending: null };
            worker.on("message", (reply: WorkerReply) => {
                const pending = entry.pending;
                entry.pending = null;
                pending?.resolve(reply);
            });
            worker.on("error", (error) => {
                const pending = entry.pending;
                entry.pending = null;
                pending?.reject(error);
            });
            pool._workers.push(entry);
        }
        return pool;
    }

    /** Number of worker threads. */
    public get threads(): number {
        return this._workers.length;
    }

    /**
     * Runs a droplet batch's `erodeDroplets`, split by droplets, and adds every worker's changes
     * into `delta` (the batch's accumulator), its water visits into `water` and its counters into
     * `counters`.
     */
    public async erodeDroplets(params: BatchParams, brush: Int32Array, delta: Int32Array, water: Int32Array, counters: Float64Array): Promise<void> {
        const ranges = splitRange(0, params.dropletCount, this._workers.length);
        const replies = await Promise.all(ranges.map(([first, end], index) => this._request(index, { type: "droplets", params, brush, first, end })));
        ranges.forEach((_range, index) => {
            addAndClearDelta(params, delta, this._workers[index].delta);
            addAndClearDelta(params, water, this._workers[index].water);
        });
        addCounters(counters, replies);
    }

    /**
     * Runs a thermal batch's steps (flux, then apply, `iterations` times), split by rows. The apply
     * bands read the pool's own drainage area, all zero here, so the channel rule never applies
     * (`runBatch` gives them the state's).
     */
    public async thermal(params: BatchParams, iterations: number, counters: Float64Array): Promise<void> {
        const slots = (params.patchX1 - params.patchX0) * (params.patchY1 - params.patchY0) * THERMAL_SLOTS;
        if (this._flux.byteLength < slots * 4) {
            this._flux = new SharedArrayBuffer(slots * 4);
            await Promise.all(this._workers.map((_worker, index) => this._request(index, { type: "flux-buffer", flux: this._flux })));
        }
        const fluxBands = splitRange(params.patchY0, params.patchY1, this._workers.length);
        const applyBands = splitRange(params.regionY0, params.regionY1, this._workers.length);
        for (let step = 0; step < iterations; step++) {
            await Promise.all(fluxBands.map(([y0, y1], index) => this._request(index, { type: "flux", params, y0, y1 })));
            addCounters(counters, await Promise.all(applyBands.map(([y0, y1], index) => this._request(index, { type: "apply", params, y0, y1 }))));
        }
    }

    /**
     * Runs one planned batch on `state`, whose `heights` must be this pool's `heights`: the same
     * kernels in the same order as `CpuBatchRunner.run`, the parallel parts on the workers (droplets
     * and thermal steps; a river batch runs on this thread). Unmasked batches only, no erosion maps.
     * @param delta the batch accumulator (all zero between batches), width x depth
     * @param water the batch's water visits (all zero between batches), width x depth
     */
    public async runBatch(planned: PlannedBatch, state: ErosionStateData, delta: Int32Array, water: Int32Array): Promise<void> {
        if (state.heights !== this.heights) {
            throw new Error("CpuWorkerPool.runBatch: the state's heights must be the pool's shared heights.");
        }
        const { params } = planned;
        if (planned.operator !== "hydraulic" && planned.operator !== "thermal" && planned.operator !== "rivers") {
            throw new Error(`CpuWorkerPool.runBatch: the ${planned.operator} operator is not split across workers.`);
        }
        if (Object.values(planned.masks).some((mask) => mask)) {
            throw new Error("CpuWorkerPool.runBatch: masks are not split across workers.");
        }
        if (planned.operator === "hydraulic") {
            await this.erodeDroplets(params, planned.brush, delta, water, state.counters);
            foldDroplets(params, state, delta, this._fold, null, null, null);
            water.fill(0);
        } else if (planned.operator === "rivers") {
            const cells = this.width * this.depth;
            this._river ??= { scratch: createRiverScratch(cells), work: RiverBandWork.create(cells) };
            runRiverBatch(params, planned.riverSteps, state, planned.masks, this._river.scratch, this._river.work, null);
        } else if (params.channelArea > 0) {
            // The channel rule reads the state's drainage area and adds to its suspended load: the
            // bands work on shared copies, and the pool's go back to zero after.
            this._drainageArea.set(state.drainageArea);
            this._suspended.set(state.suspended);
            await this.thermal(params, planned.thermalIterations, state.counters);
            state.suspended.set(this._suspended);
            this._drainageArea.fill(0);
            this._suspended.fill(0);
        } else {
            await this.thermal(params, planned.thermalIterations, state.counters);
        }
        if (params.seam !== 0) {
            tileSeam(params, state.heights, state.drainageArea, state.counters);
        }
    }

    /** Stops every worker. */
    public async terminate(): Promise<void> {
        await Promise.all(this._workers.map((entry) => entry.worker.terminate()));
        this._workers.length = 0;
    }

    private _request(index: number, request: WorkerRequest): Promise<WorkerReply> {
        const entry = this._workers[index];
        if (entry.pending) {
            throw new Error("Internal error: a CPU worker was sent a request before it answered the last one.");
        }
        return new Promise((resolve, reject) => {
            entry.pending = { resolve, reject };
            entry.worker.postMessage(request);
        });
    }
}

function addCounters(counters: Float64Array, replies: readonly WorkerReply[]): void {
    for (const reply of replies) {
        for (let i = 0; i < COUNTER_COUNT; i++) {
            counters[i] += reply.counters[i];
        }
    }
}
