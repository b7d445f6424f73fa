/**
 * What the component needs from a backend. Both backends run the same batches from the same
 * schedule; the component never knows which kernels ran where.
 *
 * Ordering: every call takes effect after the calls before it (GPU commands run in queue order, the
 * worker handles messages in order), so a read issued after some batches sees their results.
 */
import type { ErosionStateData } from "./erosionState.js";
import type { ErosionMaps, MapsTexelOptions } from "./erosionMaps.js";
import type { GridRect } from "./patches.js";
import type { PlannedBatch } from "./schedule.js";

/**
 * What one frame's batches did, once they have run. `P` is what the backend hands its presenter
 * beside the rows (`presentation`): opaque to the contract, typed by the backend that makes it.
 */
export interface FrameResult<P = unknown> {
    /**
     * Heights of the region the frame changed, rows `y0 .. y1 - 1`, columns `x0 .. x1 - 1` (the
     * whole row where absent), row after row (null if none changed).
     */
    readonly rows: Int32Array | null;
    readonly y0: number;
    readonly y1: number;
    /** The first column of `rows` (and of whatever `presentation` holds of the region; 0 where absent). */
    readonly x0?: number;
    /** The column after their last (the field's width where absent). */
    readonly x1?: number;
    /** Time the batches took where the backend can measure it, in milliseconds. */
    readonly measuredMs: number | null;
    /**
     * How `measuredMs` was measured: GPU timestamp queries, GPU submit to work-done (includes
     * queueing), or the CPU backend's compute time.
     */
    readonly measuredBy: "timestamp" | "submitted" | "cpu" | null;
    /**
     * What only the scene's presenter of this backend reads (the component's `BackendPresenter.frame`):
     * the CPU backend's worker brings the region's maps texels and vertex normals and the time its
     * post took, which a GPU backend writes on its device or does not have. Absent where none; the
     * contract neither reads nor names it, so it stays the same for every backend.
     */
    readonly presentation?: P;
}

/**
 * A range of a batch's pieces: a whole-field batch (the rivers') cut into pieces of about equal
 * work (GPU: its passes, cheap ones together and costly ones in bands of rows, `batchPieces.ts`) or
 * into its phases (CPU), run over several frames so that no frame pays for all of it. Pieces
 * `from .. to - 1` of `total`; the same integers however the range is cut.
 */
export interface BatchPieces {
    readonly from: number;
    readonly to: number;
    readonly total: number;
}

/** What the CPU backend says of where it runs (`ErosionBackend.describe`). */
export interface CpuBackendDescription {
    /** True when it runs in a Web Worker (else on the thread that made it). */
    readonly inWorker: boolean;
    /** Its workers, its own included, and whether they share the grids' memory. */
    readonly workers: number;
    readonly sharedMemory: boolean;
    /** Whether its thread runs the droplet and river-walk kernels on WebAssembly (else TypeScript). */
    readonly webAssembly: boolean;
}

/** A place erosion batches run; `P` what its frames hand its presenter (`FrameResult.presentation`). */
export interface ErosionBackend<P = unknown> {
    /** `"webgpu"` or `"cpu"`. */
    readonly name: "webgpu" | "cpu";
    /**
     * Where the CPU backend runs (its thread, its pool, its kernels' language); null on a GPU
     * backend, which has one device and none of these. Only the CPU backend has such facts, so they
     * are asked for here rather than kept as fields every backend fills with placeholders.
     */
    describe(): CpuBackendDescription | null;
    /**
     * Runs batches (in order), or with `pieces` that range of the one batch's pieces, regenerates
     * the ground's vertices over `changed` (already grown by one vertex) and resolves with the
     * changed rows once they can be read without a stall.
     */
    runFrame(
        batches: readonly PlannedBatch[], changed: GridRect | null, texels?: MapsTexelOptions | null, pieces?: BatchPieces | null
    ): Promise<FrameResult<P>>;
    /**
     * How many pieces `planned` runs in when cut into about `wanted` (what its estimate over the
     * frame budget asks for; a backend may cut otherwise: the CPU backend's river batch runs in its
     * phases) (`runFrame`'s `pieces`, with `batches` that one batch: the vertex pass and the rows
     * come with the range that ends it); 1 when it is not cut. Any cut gives the same integers.
     */
    pieceCount(planned: PlannedBatch, wanted: number): number;
    /**
     * A frame's result is no longer used (its rows and what it presented are on the grounds): the
     * backend may reuse its arrays for a later frame's (the CPU backend hands them back to its worker).
     */
    recycle?(result: FrameResult<P>): void;
    /** The whole state after everything issued so far. */
    readState(cycle: number, batch: number): Promise<ErosionStateData>;
    /**
     * The region checksums (`regionChecksums`, regions of `size` vertices) after everything issued
     * so far: computed on the GPU (8 bytes a region read back), or from the CPU backend's state.
     */
    regionChecksums(size: number): Promise<Uint32Array>;
    /** The erosion maps after everything issued so far. */
    readMaps(): Promise<ErosionMaps>;
    /** Starts the maps again from zero. */
    resetMaps(): Promise<void>;
    /** Replaces the erosion maps. */
    writeMaps(maps: ErosionMaps): Promise<void>;
    /** Replaces the whole state and regenerates every vertex. */
    writeState(state: ErosionStateData): Promise<void>;
    /** Releases everything the backend created. Safe to call twice. */
    dispose(): void;
}
