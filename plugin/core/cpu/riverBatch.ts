/**
 * A river batch on the CPU, in the order the GPU backend dispatches it: `stepsPerBatch` x
 * (river_accumulate, copy_area), river_erode, river_uplift, river_settle, SEDIMENT_HOPS x
 * route_sediment, apply_delta, fill_levels, copy_levels.
 */
import type { BatchParams } from "../batchParams.js";
import type { ErosionMasks, ErosionStateData } from "../erosionState.js";
import type { ErosionMaps } from "../erosionMaps.js";
import { applyDelta } from "./applyDelta.js";
import { copyLevels, fillLevelStep } from "./fillLevels.js";
import type { FoldScratch } from "./foldDroplets.js";
import { riverAccumulate, riverSlots, type DonorLists } from "./riverAccumulate.js";
import { riverErode, riverSettle, riverUplift } from "./riverErode.js";
import { clearRouted, routeSediment } from "./routeSediment.js";

/** Grids of the state's size a river batch works in besides the fold's. */
export class RiverScratch {
    /** Each vertex's river slot, worked out once per batch. */
    public readonly slots: Int32Array;
    /** The drainage area's step, before the copy back. */
    public readonly areaNext: Int32Array;
    /** Each vertex's stream-power erosion of the batch. */
    public readonly eroded: Int32Array;
    /** Each vertex's donors, listed once per batch. */
    public readonly donors: DonorLists = { start: new Int32Array(0), donors: new Int32Array(0) };

    constructor(cells: number) {
        this.slots = new Int32Array(cells);
        this.areaNext = new Int32Array(cells);
        this.eroded = new Int32Array(cells);
    }
}

/** Runs one river batch over `state` (`delta` all zero before and after). */
export function runRiverBatch(params: BatchParams, steps: number, state: ErosionStateData, masks: ErosionMasks, delta: Int32Array, fold: FoldScratch, river: RiverScratch, maps: ErosionMaps | null): void {
    const { heights, fillLevels, drainageArea, suspended, counters } = state;
    riverSlots(params, heights, fillLevels, river.slots);
    riverAccumulate(params, river.slots, drainageArea, river.areaNext, steps, river.donors);
    riverErode(params, { heights, levels: fillLevels, area: drainageArea, slots: river.slots, mask: masks.rivers }, delta, suspended, fold.routed, river.eroded);
    riverUplift(params, heights, delta, masks.uplift, counters);
    riverSettle(params, river.slots, suspended, fold.routed, counters);
    routeSediment(params, heights, fillLevels, fold.routed, fold.routedNext, delta, suspended, fold.route, counters, masks.rivers);
    applyDelta(params, heights, delta, maps);
    fillLevelStep(params, heights, fillLevels, fold.levelsNext, fold.levels);
    copyLevels(params, fold.levelsNext, fillLevels);
    clearRouted(params, fold.routed, fold.routedNext);
}
