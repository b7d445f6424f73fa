/**
 * The fold of a droplet batch on the CPU, in the order the GPU backend dispatches it: clip_delta,
 * SEDIMENT_HOPS hops of route_sediment, apply_delta, fill_levels, copy_levels.
 */
import type { BatchParams } from "../../core/batchParams.js";
import type { ErosionStateData } from "../../core/erosionState.js";
import type { ErosionMaps } from "../../core/erosionMaps.js";
import { applyDelta } from "../fold/applyDelta.js";
import { clipDelta } from "../fold/clipDelta.js";
import { copyLevels, fillLevelStep, type FillLevelScratch } from "../fold/fillLevels.js";
import { clearRouted, routeSediment, RouteScratch } from "../fold/routeSediment.js";

/** Grids of the state's size the fold works in between its passes. */
export class FoldScratch {
    /** Sediment in transit, and the second buffer its hops alternate with. */
    public readonly routed: Int32Array;
    public readonly routedNext: Int32Array;
    /** What the sediment routing works in. */
    public readonly route: RouteScratch;
    /** The fill levels' step, before the copy back. */
    public readonly levelsNext: Int32Array;
    /** What `fillLevelStep` works in. */
    public readonly levels: FillLevelScratch;

    /** @param allocate where the two routing grids are made (a river batch borrows them, and a worker pool shares them) */
    constructor(cells: number, allocate: (cells: number) => Int32Array = (n) => new Int32Array(n)) {
        this.routed = allocate(cells);
        this.routedNext = allocate(cells);
        this.route = new RouteScratch(cells);
        this.levelsNext = new Int32Array(cells);
        this.levels = { level: new Int32Array(cells) };
    }
}

/**
 * Folds the batch's changes (`delta`, cleared) into `state` over the batch's region, and steps the
 * fill levels there.
 * @param maps the erosion maps to record the change in, or null
 * @param water the batch's droplet visits (cleared into `maps.water`), or null
 * @param mask the hydraulic mask, or null
 */
export function foldDroplets(
    params: BatchParams, state: ErosionStateData, delta: Int32Array, scratch: FoldScratch, maps: ErosionMaps | null, water: Int32Array | null,
    mask: Int32Array | null
): void {
    clipDelta(params, state.heights, state.fillLevels, delta, state.suspended, scratch.routed, state.counters, mask);
    routeSediment(params, state.heights, state.fillLevels, scratch.routed, scratch.routedNext, delta, state.suspended, scratch.route, state.counters, mask);
    applyDelta(params, state.heights, delta, maps, water, state.materials ?? null);
    fillLevelStep(params, state.heights, state.fillLevels, scratch.levelsNext, scratch.levels);
    copyLevels(params, scratch.levelsNext, state.fillLevels);
    clearRouted(params, scratch.routed, scratch.routedNext);
}
