/**
 * A river batch on one thread: every phase of `riverPhases` over one band of all its rows, the
 * drainage area and the sediment walked down the slot forest (`riverWalk.ts`).
 */
import type { BatchParams } from "../../core/batchParams.js";
import type { ErosionMaps } from "../../core/erosionMaps.js";
import type { ErosionMasks, ErosionStateData } from "../../core/erosionState.js";
import { riverPhaseBand, riverPhases, runRiverPhase, type RiverBandWork, type RiverScratch } from "./riverPhases.js";

/**
 * Runs one river batch of `steps` drainage-area steps over `state` (the scratch's delta and routing
 * all zero before and after), or its phases `from .. to - 1` (a batch in pieces: the phases between
 * two ranges leave their work in the scratch, which nothing else touches meanwhile).
 */
export function runRiverBatch(
    params: BatchParams, steps: number, state: ErosionStateData, masks: ErosionMasks, scratch: RiverScratch, work: RiverBandWork, maps: ErosionMaps | null,
    from = 0, to = Infinity
): void {
    const context = { params, state, masks, scratch, work, counters: state.counters, maps };
    const phases = riverPhases(params, steps, true);
    for (let index = from; index < Math.min(to, phases.length); index++) {
        runRiverPhase(phases[index], riverPhaseBand(params, phases[index], 0, 1), context);
    }
}

/** How many pieces a river batch runs in on the CPU: its phases (`runRiverBatch`'s `from`, `to`). */
export function riverPieceCount(params: BatchParams, steps: number): number {
    return riverPhases(params, steps, true).length;
}
