/**
 * The hops of a river batch's sediment (the WGSL's route_sediment and route_sediment_last over the
 * river rectangle), as gathers: each vertex adds what its donors sent (the neighbours whose river
 * slot points at it, `DonorLists`), so a hop writes only its own rows and a batch can be split
 * into bands. The rule is `routeSediment`'s, which scatters from the vertices that hold sediment
 * and adds the same integers: a vertex holding sediment sends it along its sediment slot, which is
 * its river slot (the same rule over the same heights and levels, unchanged while sediment hops).
 */
import { ACCUMULATOR_LIMIT, ROUTE_LIMIT, type BatchParams } from "../batchParams.js";
import { mulQ16 } from "../fixedPoint.js";
import { fillRoom, neighbourBounds } from "../settling.js";
import { donorSum, neighbourOffsets, riverRect, type DonorLists } from "./riverAccumulate.js";
import { keepSuspended } from "./routeSediment.js";

const { max, min } = Math;

/** What a river batch's hops read and write besides the donors. */
export interface RiverRouteGrids {
    readonly heights: Int32Array;
    readonly levels: Int32Array;
    readonly slots: Int32Array;
    readonly delta: Int32Array;
    readonly suspended: Int32Array;
    /** Each basin vertex's room (`fillRoom`), written by hop 1 for the listed rows and read by the later hops. */
    readonly room: Int32Array;
}

/**
 * Hop `hop` (1..routeHops) over the listed rows: each vertex receives its donors' `from`, settles
 * what a basin's room allows (less what the batch already changed it by, scaled by the rivers
 * `mask`), sends at most ROUTE_LIMIT on along its slot into `to` unless this is the last hop, and
 * keeps the rest in `suspended`. Writes every listed vertex's `to`, so the two buffers can alternate.
 */
export function riverHop(params: BatchParams, hop: number, grids: RiverRouteGrids, lists: DonorLists, from: Int32Array, to: Int32Array, mask: Int32Array | null, counters: Float64Array): void {
    const room = grids.room;
    const { width, depth } = params;
    const wrap = params.wrap !== 0;
    const passOn = hop < params.routeHops;
    const { heights, levels, slots, delta, suspended } = grids;
    const rect = riverRect(params);
    const offsets = neighbourOffsets(width);
    const donorBits = lists.mask;
    for (let y = lists.rows.y0, cell = 0; y < lists.rows.y1; y++) {
        for (let x = rect.x0; x < rect.x1; x++, cell++) {
            const i = y * width + x;
            const bits = donorBits[cell];
            // At most 8 sends of ROUTE_LIMIT: below the limit, so the sum never saturates.
            let amount = bits === 0 ? 0 : donorSum(from, bits, i, x, y, params, offsets, 0, ACCUMULATOR_LIMIT);
            let sent = 0;
            const basin = !wrap && levels[i] > heights[i];
            if (basin && hop === 1) {
                // A basin vertex's room depends on heights and levels only, which do not change while
                // sediment hops: worked out once a batch, not once a hop (1.34 -> 1.40 M cells/s at 512²).
                const { lowest, lowestHigher, lowestHigherLevel } = neighbourBounds(heights, levels, x, y, width, depth);
                room[i] = fillRoom(heights[i], levels[i], lowest, lowestHigher, lowestHigherLevel);
            }
            if (amount > 0) {
                if (basin) {
                    let settled = min(amount, max(room[i] - delta[i], 0));
                    if (mask !== null) settled = mulQ16(settled, mask[i]);
                    delta[i] += settled;
                    amount -= settled;
                }
                if (passOn && amount > 0 && slots[i] >= 0) {
                    sent = min(amount, ROUTE_LIMIT);
                    amount -= sent;
                }
                if (amount > 0) keepSuspended(suspended, i, amount, counters);
            }
            to[i] = sent;
        }
    }
}
