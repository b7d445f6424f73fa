/**
 * The CPU backend's work, as messages: the same code answers them in a Web Worker and, under Node
 * or a NullEngine, in the calling thread. Imports nothing from Babylon so the worker bundle stays
 * small.
 */
import { CpuBatchRunner } from "../core/cpuBatchRunner.js";
import { mapsTexels, type ErosionMaps, type MapsTexelOptions } from "../core/erosionMaps.js";
import { cloneState, type ErosionStateData } from "../core/erosionState.js";
import type { GridRect } from "../core/patches.js";
import type { PlannedBatch } from "../core/schedule.js";

/** Rows of the maps texture (RGBA per vertex), of the drainage-area texture and, once asked for, of the shallow-water texture (RGBA). */
export interface MapsTexels {
    readonly maps: Float32Array;
    readonly area: Float32Array;
    readonly water: Float32Array | null;
}

/** A request to the CPU backend. */
export type CpuBackendRequest =
    | { readonly type: "init"; readonly state: ErosionStateData }
    | { readonly type: "frame"; readonly batches: readonly PlannedBatch[]; readonly changed: GridRect | null; readonly texels: MapsTexelOptions | null }
    | { readonly type: "read"; readonly cycle: number; readonly batch: number }
    | { readonly type: "write"; readonly state: ErosionStateData }
    | { readonly type: "maps" }
    | { readonly type: "writeMaps"; readonly maps: ErosionMaps }
    | { readonly type: "resetMaps" };

/** The answer to a request. */
export type CpuBackendResponse =
    | { readonly type: "done" }
    | { readonly type: "frame"; readonly rows: Int32Array | null; readonly y0: number; readonly y1: number; readonly computeMs: number; readonly texels: MapsTexels | null }
    | { readonly type: "state"; readonly state: ErosionStateData }
    | { readonly type: "maps"; readonly maps: ErosionMaps }
    | { readonly type: "error"; readonly message: string };

/** Answers CPU backend requests. */
export class CpuBackendCore {
    private _runner: CpuBatchRunner | null = null;

    /** Handles one request. */
    public handle(request: CpuBackendRequest): CpuBackendResponse {
        try {
            switch (request.type) {
                case "init":
                    this._runner = new CpuBatchRunner(cloneState(request.state));
                    return { type: "done" };
                case "frame":
                    return this._frame(request.batches, request.changed, request.texels);
                case "read": {
                    const state = cloneState(this._live().state);
                    state.cycle = request.cycle;
                    state.batch = request.batch;
                    return { type: "state", state };
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

    private _live(): CpuBatchRunner {
        if (!this._runner) {
            throw new Error("CPU erosion backend used before init.");
        }
        return this._runner;
    }

    private _frame(batches: readonly PlannedBatch[], changed: GridRect | null, texels: MapsTexelOptions | null): CpuBackendResponse {
        const runner = this._live();
        const started = performance.now();
        for (const planned of batches) {
            runner.run(planned);
        }
        const computeMs = performance.now() - started;
        if (!changed) {
            return { type: "frame", rows: null, y0: 0, y1: 0, computeMs, texels: null };
        }
        const width = runner.state.width;
        const rows = runner.state.heights.slice(changed.y0 * width, changed.y1 * width);
        // The maps texture's changed rows, computed here so the main thread only uploads them.
        return { type: "frame", rows, y0: changed.y0, y1: changed.y1, computeMs, texels: texels ? mapsTexels(runner.maps, runner.state, texels, changed.y0, changed.y1) : null };
    }
}
