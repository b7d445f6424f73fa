/**
 * A river batch on one thread: every phase of `riverPhases` over one band of all its rows, the
 * drainage area and the sediment walked down the slot forest (`riverWalk.ts`).
 */
import type { BatchParams } from "../../batchParams.js";
import type { ErosionMaps } from "../../erosionMaps.js";
import type { ErosionMasks, ErosionStateData } from "../../erosionState.js";
import { riverPhaseBand, riverPhases, runRiverPhase, type RiverBandWork, type RiverScratch } from "./riverPhases.js";

/** Runs one river batch of `steps` drainage-area steps over `state` (the scratch's delta and routing all zero before and after). */
export function runRiverBatch(params: BatchParams, steps: number, state: ErosionStateData, masks: ErosionMasks, scratch: RiverScratch, work: RiverBandWork, maps: ErosionMaps | null): void {
    const context = { params, state, masks, scratch, work, counters: state.counters, maps };
    for (const phase of riverPhases(params, steps, true)) {
        runRiverPhase(phase, riverPhaseBand(params, phase, 0, 1), context);
    }
}
