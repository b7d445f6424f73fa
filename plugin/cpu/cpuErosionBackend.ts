/**
 * The CPU backend: the TypeScript reference kernels, in a Web Worker where the platform has one
 * (so erosion never blocks a frame) and in the calling thread otherwise (Node, NullEngine), with
 * helper workers (a pool, `pool/cpuPool.ts`) when asked for more than one.
 */
import { regionChecksums } from "../core/checksums/regionChecksums.js";
import type { ErosionStateData } from "../core/erosionState.js";
import type { ErosionMaps, MapsTexelOptions, MapsTexels } from "../core/erosionMaps.js";
import type { GridRect } from "../core/patches.js";
import type { PlannedBatch } from "../core/schedule.js";
import { CpuBackendCore, type CpuBackendResponse } from "./cpuBackendCore.js";
import { nodeSpawner } from "./pool/poolPorts.js";
import { CPU_WORKER_SOURCE } from "../generated/cpuWorkerSource.generated.js";
import type { BatchPieces, CpuBackendDescription, ErosionBackend, FrameResult } from "../core/erosionBackend.js";
import { pieceCount } from "./cpuBatchRunner.js";
import { SpareBuffers } from "./spareBuffers.js";
import { workerChannel, type CpuChannel } from "./workerChannel.js";
import type { WaitWatch } from "../core/waitWatch.js";

/** The CPU backend's core in this thread: what the backend runs on where there is no Web Worker (Node, a NullEngine). */
export function inThreadChannel(): CpuChannel {
    // Here (Node, a NullEngine) the helpers are Node worker threads; a page without workers has none.
    const core = new CpuBackendCore((source) => nodeSpawner(source));
    return {
        request: (message) => core.handle(message),
        close: () => core.dispose(),
    };
}

/** `channel` with every reply watched: recorded while awaited, a `StallError` past the deadline. */
function watchedChannel(channel: CpuChannel, watch: WaitWatch): CpuChannel {
    return {
        request: (message, transfer, posted) =>
            watch.watch("workerReply", `the CPU worker's reply to "${message.type}"`, channel.request(message, transfer, posted)),
        close: () => channel.close(),
    };
}

function expect<T extends CpuBackendResponse["type"]>(response: CpuBackendResponse, type: T): Extract<CpuBackendResponse, { type: T }> {
    if (response.type === "error") {
        throw new Error(`CPU erosion backend: ${response.message}`);
    }
    if (response.type !== type) {
        throw new Error(`CPU erosion backend answered ${response.type} where ${type} was expected.`);
    }
    return response as Extract<CpuBackendResponse, { type: T }>;
}

/** How many workers the CPU backend runs on. */
export interface CpuPoolChoice {
    /** Workers, the backend's own included; 1 runs without helpers. */
    readonly workers: number;
    /** Share memory with the helpers where `SharedArrayBuffer` is there; false copies rows to them. */
    readonly shared: boolean;
}

/**
 * What a CPU frame hands its presenter beside the rows (`FrameResult.presentation`): what the
 * worker computed of the changed region off the main thread, and what posting to it cost.
 */
export interface CpuFramePresentation {
    /** The region's maps-texture texels, when asked for (`runFrame`'s `texels`), else null. */
    readonly texels: MapsTexels | null;
    /**
     * The region's vertex normals (xyz a vertex, `normalRowsFromFixed`) where the worker computes
     * them (a backend in a worker made with `normalsCellSize`), else null.
     */
    readonly normals: Float32Array | null;
    /**
     * Main-thread milliseconds spent handing the frame to the worker (posted after the rendered
     * frame that planned it, in a task of its own); 0 in this thread.
     */
    readonly postMs: number;
}

/** Runs batches with the CPU reference kernels. */
export class CpuErosionBackend implements ErosionBackend<CpuFramePresentation> {
    public readonly name = "cpu" as const;
    private _disposed = false;
    private _workers = 1;
    private _sharedMemory = false;
    private _webAssembly = false;
    /** Row, normal and texel buffers of frames whose rows are on the grounds, for the worker's next frame. */
    private readonly _spare = new SpareBuffers();

    private constructor(
        private readonly _channel: CpuChannel,
        public readonly inWorker: boolean,
        private readonly _normalsCellSize: number | null
    ) {}

    /**
     * Starts the backend on `state`.
     * @param preferWorker use a Web Worker when the platform has one
     * @param pool how many workers to run on (default one, no helpers)
     * @param normalsCellSize when the backend runs in a worker, each frame also brings back its
     *   changed rows' vertex normals for grounds of this cell size (local units), so the main thread
     *   copies them instead of computing them (`CpuFramePresentation.normals`); null: none
     * @param watch where the worker's replies are recorded while awaited and get their deadline
     */
    public static create(
        state: ErosionStateData, preferWorker: boolean, pool: CpuPoolChoice = { workers: 1, shared: true }, normalsCellSize: number | null = null,
        watch: WaitWatch | null = null
    ): Promise<CpuErosionBackend> {
        const worker = preferWorker ? workerChannel(CPU_WORKER_SOURCE) : null;
        return CpuErosionBackend.over(worker ?? inThreadChannel(), worker !== null, state, pool, worker ? normalsCellSize : null, watch);
    }

    /** Starts the backend on `state` over `channel` (a worker's, or the core in this thread: `inThreadChannel`); see `create`. */
    public static async over(
        channel: CpuChannel, inWorker: boolean, state: ErosionStateData, pool: CpuPoolChoice, normalsCellSize: number | null, watch: WaitWatch | null
    ): Promise<CpuErosionBackend> {
        const backend = new CpuErosionBackend(watch ? watchedChannel(channel, watch) : channel, inWorker, normalsCellSize);
        const request =
            pool.workers > 1 ? { members: pool.workers, shared: pool.shared && typeof SharedArrayBuffer !== "undefined", source: CPU_WORKER_SOURCE } : null;
        let ready: Extract<CpuBackendResponse, { type: "ready" }>;
        try {
            ready = expect(await backend._channel.request({ type: "init", state, pool: request }), "ready");
        } catch (error) {
            backend.dispose(); // its worker goes with it (one that never answered among them)
            throw error;
        }
        backend._workers = ready.members;
        backend._sharedMemory = ready.shared;
        backend._webAssembly = ready.webAssembly;
        return backend;
    }

    /** Workers the kernels run on, the backend's own included (fewer than asked where helpers could not start). */
    public get workers(): number {
        return this._workers;
    }

    /** Whether the workers share the grids' memory (else each phase copies rows to the helpers). */
    public get sharedMemory(): boolean {
        return this._sharedMemory;
    }

    /** Whether the backend's thread runs the droplet and river-walk kernels on WebAssembly (else in TypeScript; the same integers). */
    public get webAssembly(): boolean {
        return this._webAssembly;
    }

    /** Its thread, its pool and its kernels' language, as the contract asks (`ErosionBackend.describe`). */
    public describe(): CpuBackendDescription {
        return { inWorker: this.inWorker, workers: this._workers, sharedMemory: this._sharedMemory, webAssembly: this._webAssembly };
    }

    public async runFrame(
        batches: readonly PlannedBatch[], changed: GridRect | null, texels: MapsTexelOptions | null = null, pieces: BatchPieces | null = null
    ): Promise<FrameResult<CpuFramePresentation>> {
        let postMs = 0;
        const spare = this._spare.takeAll();
        const request = { type: "frame", batches, changed, texels, pieces, normalsCellSize: this._normalsCellSize, spare } as const;
        const response = expect(await this._channel.request(request, spare, (ms) => (postMs = ms)), "frame");
        return {
            rows: response.rows,
            y0: response.y0,
            y1: response.y1,
            x0: response.x0,
            x1: response.x1,
            measuredMs: response.computeMs,
            measuredBy: "cpu",
            presentation: { texels: response.texels, normals: response.normals, postMs },
        };
    }

    public recycle(result: FrameResult<CpuFramePresentation>): void {
        const { rows, presentation } = result;
        const { normals, texels } = presentation ?? { normals: null, texels: null };
        this._spare.give(
            [rows, normals, texels?.maps, texels?.area, texels?.water, texels?.materials]
                .map((array) => array?.buffer)
                .filter((buffer): buffer is ArrayBuffer => buffer instanceof ArrayBuffer)
        );
    }

    public pieceCount(planned: PlannedBatch): number {
        return pieceCount(planned);
    }

    public async regionChecksums(size: number): Promise<Uint32Array> {
        // The grids come from the backend's worker (a copy of memory, no stall to wait out).
        return regionChecksums(await this.readState(0, 0), size).lanes;
    }

    public async readState(cycle: number, batch: number): Promise<ErosionStateData> {
        return expect(await this._channel.request({ type: "read", cycle, batch }), "state").state;
    }

    /**
     * The state at (`cycle`, `batch`) and the maps, handed over rather than copied where the backend
     * runs in this thread; the backend is disposed (a bake's end: no second copy of a large field).
     */
    public async release(cycle: number, batch: number): Promise<{ state: ErosionStateData; maps: ErosionMaps }> {
        const released = expect(await this._channel.request({ type: "release", cycle, batch }), "released");
        this.dispose();
        return { state: released.state, maps: released.maps };
    }

    public async readMaps(): Promise<ErosionMaps> {
        return expect(await this._channel.request({ type: "maps" }), "maps").maps;
    }

    public async resetMaps(): Promise<void> {
        expect(await this._channel.request({ type: "resetMaps" }), "done");
    }

    public async writeMaps(maps: ErosionMaps): Promise<void> {
        expect(await this._channel.request({ type: "writeMaps", maps }), "done");
    }

    public async writeState(state: ErosionStateData): Promise<void> {
        expect(await this._channel.request({ type: "write", state }), "done");
    }

    public dispose(): void {
        if (!this._disposed) {
            this._disposed = true;
            this._channel.close();
        }
    }
}
