/**
 * The CPU backend's work, as messages: the same code answers them in a Web Worker and, under Node
 * or a NullEngine, in the calling thread. Imports nothing from Babylon so the worker bundle stays
 * small. With a pool (`pool/cpuPool.ts`) it coordinates helper workers; requests are answered one
 * at a time, in order, even while a frame waits for its helpers.
 */
import { CpuBatchRunner } from "./cpuBatchRunner.js";
import { mapsTexels, type ErosionMaps, type MapsTexelOptions, type MapsTexels } from "../core/erosionMaps.js";
import { cloneState, STATE_GRIDS, type ErosionStateData } from "../core/erosionState.js";
import { WATER_CARRIED_GRIDS } from "../core/waterModel.js";
import type { GridRect } from "../core/patches.js";
import type { BatchPieces } from "../core/erosionBackend.js";
import type { PlannedBatch } from "../core/schedule.js";
import { dropletBatchWasmAvailable, riverWalkWasmAvailable } from "../kernels/index.js";
import { normalRowsFromFixed } from "../core/vertexNormals.js";
import { CpuPool } from "./pool/cpuPool.js";
import { SpareBuffers } from "./spareBuffers.js";
import { sharedCopy } from "./pool/poolGrids.js";
import type { SpawnHelper } from "./pool/poolPorts.js";

/** How many workers the backend runs on, and how it starts the helpers. */
export interface CpuPoolRequest {
    /** Members, this thread included; 1 runs without helpers. */
    readonly members: number;
    /** Share memory with the helpers (else copy rows to them). */
    readonly shared: boolean;
    /** The CPU worker's source, which the helpers run. */
    readonly source: string;
}

/** A request to the CPU backend. */
export type CpuBackendRequest =
    | { readonly type: "init"; readonly state: ErosionStateData; readonly pool: CpuPoolRequest | null }
    | {
          readonly type: "frame";
          readonly batches: readonly PlannedBatch[];
          readonly changed: GridRect | null;
          readonly texels: MapsTexelOptions | null;
          readonly pieces?: BatchPieces | null;
          /** Also compute the changed rows' vertex normals, for grounds of this cell size (local units). */
          readonly normalsCellSize?: number | null;
          /** Earlier frames' row, normal and texel buffers, no longer used, for this frame's (`SpareBuffers`). */
          readonly spare?: readonly ArrayBuffer[];
      }
    | { readonly type: "read"; readonly cycle: number; readonly batch: number }
    | { readonly type: "release"; readonly cycle: number; readonly batch: number }
    | { readonly type: "write"; readonly state: ErosionStateData }
    | { readonly type: "maps" }
    | { readonly type: "writeMaps"; readonly maps: ErosionMaps }
    | { readonly type: "resetMaps" };

/** The answer to a request. */
export type CpuBackendResponse =
    | { readonly type: "done" }
    | { readonly type: "ready"; readonly members: number; readonly shared: boolean; readonly webAssembly: boolean }
    | {
          readonly type: "frame"; readonly rows: Int32Array | null; readonly y0: number; readonly y1: number; readonly x0: number; readonly x1: number;
          readonly computeMs: number; readonly texels: MapsTexels | null; readonly normals: Float32Array | null
      }
    | { readonly type: "state"; readonly state: ErosionStateData }
    | { readonly type: "released"; readonly state: ErosionStateData; readonly maps: ErosionMaps }
    | { readonly type: "maps"; readonly maps: ErosionMaps }
    | { readonly type: "error"; readonly message: string };

/** Answers CPU backend requests. */
export class CpuBackendCore {
    private _runner: CpuBatchRunner | null = null;
    private _pool: CpuPool | null = null;
    private _queue: Promise<unknown> = Promise.resolve();
    private readonly _spare = new SpareBuffers();

    /** @param _spawnerFor how helpers running a given worker source start here (null: they cannot) */
    constructor(private readonly _spawnerFor: (source: string) => SpawnHelper | null) {}

    /** Handles one request, after those before it. */
    public handle(request: CpuBackendRequest): Promise<CpuBackendResponse> {
        const answer = this._queue.then(() => this._handle(request));
        this._queue = answer;
        return answer;
    }

    /** Stops the helpers. */
    public dispose(): void {
        this._pool?.dispose();
        this._pool = null;
    }

    private async _handle(request: CpuBackendRequest): Promise<CpuBackendResponse> {
        try {
            switch (request.type) {
                case "init":
                    return this._init(request.state, request.pool);
                case "frame":
                    this._spare.give(request.spare ?? []);
                    return await this._frame(request.batches, request.changed, request.texels, request.pieces ?? null, request.normalsCellSize ?? null);
                case "read": {
                    const state = cloneState(this._live().state);
                    state.cycle = request.cycle;
                    state.batch = request.batch;
                    return { type: "state", state };
                }
                case "release": {
                    // The live grids themselves, not copies; the helpers stop and the runner's
                    // scratch is left to the collector (a bake's readback then needs no second state).
                    const runner = this._live();
                    this.dispose();
                    this._runner = null;
                    const state = runner.state;
                    state.cycle = request.cycle;
                    state.batch = request.batch;
                    return { type: "released", state, maps: runner.maps };
                }
                case "write":
                    this._live().replaceState(request.state);
                    return { type: "done" };
                case "maps": {
                    const maps = this._live().maps;
                    return { type: "maps", maps: { water: maps.water.slice(), wear: maps.wear.slice(), deposition: maps.deposition.slice() } };
                }
                case "writeMaps":
                    this._live().replaceMaps(request.maps);
                    return { type: "done" };
                case "resetMaps":
                    this._live().resetMaps();
                    return { type: "done" };
            }
        } catch (error) {
            return { type: "error", message: error instanceof Error ? error.message : String(error) };
        }
    }

    private _init(state: ErosionStateData, pool: CpuPoolRequest | null): CpuBackendResponse {
        this.dispose();
        const spawn = pool && pool.members > 1 ? this._spawnerFor(pool.source) : null;
        // A pool sharing memory gets the grids made shared from the start: moving them over later
        // would hold two copies of each until the collector ran.
        const shared = spawn !== null && pool!.shared && typeof SharedArrayBuffer !== "undefined";
        this._runner = shared
            ? new CpuBatchRunner(sharedState(state), (cells) => new Int32Array(new SharedArrayBuffer(cells * 4)))
            : new CpuBatchRunner(cloneState(state));
        if (pool && spawn) {
            this._pool = CpuPool.create(this._runner, { members: pool.members, shared: pool.shared, spawn });
        }
        return {
            type: "ready",
            members: this._pool?.members ?? 1,
            shared: this._pool?.shared ?? false,
            webAssembly: riverWalkWasmAvailable() && dropletBatchWasmAvailable(),
        };
    }

    private _live(): CpuBatchRunner {
        if (!this._runner) {
            throw new Error("CPU erosion backend used before init.");
        }
        return this._runner;
    }

    private async _frame(
        batches: readonly PlannedBatch[], changed: GridRect | null, texels: MapsTexelOptions | null, pieces: BatchPieces | null, normalsCellSize: number | null
    ): Promise<CpuBackendResponse> {
        const runner = this._live();
        const started = performance.now();
        if (pieces) {
            await (this._pool ? this._pool.runPieces(batches[0], pieces.from, pieces.to) : runner.runPieces(batches[0], pieces.from, pieces.to));
        } else if (this._pool) {
            await this._pool.runBatches(batches);
        } else {
            for (const planned of batches) {
                runner.run(planned);
            }
        }
        const computeMs = performance.now() - started;
        if (!changed) {
            return { type: "frame", rows: null, y0: 0, y1: 0, x0: 0, x1: 0, computeMs, texels: null, normals: null };
        }
        // Only the changed region's columns of its rows: a droplet batch's region spans about 200
        // of 513 columns, and every vertex brought back costs the main thread its share of a band.
        const { x0, y0, x1, y1 } = changed;
        const { width, depth, heights } = runner.state;
        const columns = x1 - x0;
        const cells = (y1 - y0) * columns;
        const rows = new Int32Array(this._spare.take(cells * 4), 0, cells);
        for (let y = y0; y < y1; y++) rows.set(heights.subarray(y * width + x0, y * width + x1), (y - y0) * columns);
        // The maps texture's changed texels and the normals, computed here so the main thread
        // only copies and uploads them (the normals were half its cost of a row).
        const alloc = (length: number) => new Float32Array(this._spare.take(length * 4), 0, length).fill(0);
        return {
            type: "frame",
            rows,
            y0,
            y1,
            x0,
            x1,
            computeMs,
            texels: texels ? mapsTexels(runner.maps, runner.state, texels, y0, y1, alloc, x0, x1) : null,
            normals:
                normalsCellSize !== null
                    ? normalRowsFromFixed(heights, width, depth, normalsCellSize, y0, y1, new Float32Array(this._spare.take(cells * 12), 0, cells * 3), x0, x1)
                    : null,
        };
    }
}

/** A copy of `state` whose grids (the state's, the water's and the materials') live in shared memory. */
function sharedState(state: ErosionStateData): ErosionStateData {
    const copy = cloneState({
        ...state,
        heights: new Int32Array(0),
        suspended: new Int32Array(0),
        drainageArea: new Int32Array(0),
        fillLevels: new Int32Array(0),
        water: null,
        materials: null,
    });
    for (const name of STATE_GRIDS) copy[name] = sharedCopy(state[name]);
    if (state.water) {
        const water = { ...state.water };
        for (const name of WATER_CARRIED_GRIDS) water[name] = sharedCopy(state.water[name]);
        copy.water = water;
    }
    if (state.materials) copy.materials = { soil: sharedCopy(state.materials.soil), hardness: sharedCopy(state.materials.hardness) };
    return copy;
}
