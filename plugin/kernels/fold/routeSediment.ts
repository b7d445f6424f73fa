/**
 * CPU mirror of `shaders/fold/route_hop.wgsl` (route_sediment and route_sediment_last): the hops of the
 * sediment a fold (or a river batch) did not settle.
 */
import { ACCUMULATOR_LIMIT, ROUTE_LIMIT, type BatchParams } from "../../core/batchParams.js";
import { COUNTER_SATURATION_REMOVED } from "../../core/counters.js";
import { mulQ16 } from "../../core/fixedPoint.js";
import { fillRoom, neighbourBounds } from "../../core/settling.js";
import { neighbourAt, sedimentSlot } from "../../core/steepestDescent.js";

// Math's functions as module constants: a global lookup of `Math` is twenty times slower in a
// vm context (jest's test environment, some worker sandboxes).
const { max, min } = Math;

/**
 * Scratch of the sediment routing: the grid-sized `incoming` (all zero between calls), two lists of
 * vertices and, beside each, the vertex's sediment slot. The lists hold a batch's extent at most,
 * so they grow to the largest extent routed (a droplet batch's: about 200² vertices with the
 * defaults) rather than the grid (10 bytes a vertex saved on a large field).
 */
export class RouteScratch {
    public readonly incoming: Int32Array;
    private _sources = new Int32Array(0);
    private _receivers = new Int32Array(0);
    private _sourceSlots = new Int8Array(0);
    private _receiverSlots = new Int8Array(0);

    constructor(cells: number) {
        this.incoming = new Int32Array(cells);
    }

    /** The two vertex lists, each at least `count` long. */
    public lists(count: number): [Int32Array, Int32Array] {
        if (this._sources.length < count) {
            this._sources = new Int32Array(count);
            this._receivers = new Int32Array(count);
            this._sourceSlots = new Int8Array(count);
            this._receiverSlots = new Int8Array(count);
        }
        return [this._sources, this._receivers];
    }

    /** The slots beside the two lists. */
    public slotLists(): [Int8Array, Int8Array] {
        return [this._sourceSlots, this._receiverSlots];
    }
}

/**
 * The `params.routeHops` hops of the sediment a fold or a river batch did not settle, over the
 * batch's extent (`batchExtent`: its region grown by `routeHops`, whole axes where a tileable river
 * batch's wraps). Each hop, every vertex sends what `routed` holds one vertex along `sedimentSlot`.
 * A receiver in a basin settles what its room (`fillRoom`, less what this pass already changed it
 * by: `delta`) allows, scaled by the batch operator's `mask` (hydraulic for a fold, rivers for a
 * river batch); it passes the rest on in the next hop along its own slot (at most
 * ROUTE_LIMIT; the rest waits in its `suspended`), or on the last hop keeps it in `suspended`.
 * Sediment starts in the region and moves one vertex a hop, so nothing leaves the extent.
 * The WGSL (route_hop.wgsl) gathers over the whole extent each hop; this scatters from the vertices
 * that hold sediment only, which adds the same integers. `routed` and `routedNext` are zero outside
 * the batch's region before, and all zero after.
 */
export function routeSediment(
    params: BatchParams, heights: Int32Array, levels: Int32Array, routed: Int32Array, routedNext: Int32Array, delta: Int32Array, suspended: Int32Array,
    scratch: RouteScratch, counters: Float64Array, mask: Int32Array | null = null
): void {
    const { width, depth, extentX0, extentY0, extentX1, extentY1 } = params;
    const wrap = params.wrap !== 0;
    const incoming = scratch.incoming;
    let [sources, receivers] = scratch.lists((extentX1 - extentX0) * (extentY1 - extentY0));
    // A vertex's slot, found when it is listed: heights and levels do not change while sediment
    // hops, so a receiver passing sediment on uses, as a sender, the slot it was checked with.
    let [sourceSlots, receiverSlots] = scratch.slotLists();
    let sourceCount = 0;
    for (let y = extentY0; y < extentY1; y++) {
        for (let i = y * width + extentX0, end = y * width + extentX1; i < end; i++) {
            if (routed[i] > 0) {
                const x = i - y * width;
                sourceSlots[sourceCount] = sedimentSlot(heights, levels, x, y, width, depth, wrap);
                sources[sourceCount++] = i;
            }
        }
    }
    let from = routed;
    let to = routedNext;
    for (let hop = 1; hop <= params.routeHops && sourceCount > 0; hop++) {
        const passOn = hop < params.routeHops;
        let receiverCount = 0;
        for (let s = 0; s < sourceCount; s++) {
            const i = sources[s];
            const x = i % width;
            const y = (i - x) / width;
            const r = neighbourAt(x, y, sourceSlots[s], width, depth, wrap);
            if (incoming[r] === 0) receivers[receiverCount++] = r;
            incoming[r] += from[i];
            from[i] = 0;
        }
        let passed = 0;
        for (let s = 0; s < receiverCount; s++) {
            const i = receivers[s];
            let amount = incoming[i];
            incoming[i] = 0;
            const x = i % width;
            const y = (i - x) / width;
            if (!wrap && levels[i] > heights[i]) {
                const { lowest, lowestHigher, lowestHigherLevel } = neighbourBounds(heights, levels, x, y, width, depth);
                let settled = min(amount, max(fillRoom(heights[i], levels[i], lowest, lowestHigher, lowestHigherLevel) - delta[i], 0));
                if (mask !== null) settled = mulQ16(settled, mask[i]);
                delta[i] += settled;
                amount -= settled;
            }
            if (passOn && amount > 0) {
                const slot = sedimentSlot(heights, levels, x, y, width, depth, wrap);
                if (slot >= 0) {
                    const sent = min(amount, ROUTE_LIMIT);
                    to[i] = sent;
                    amount -= sent;
                    // A receiver lists once: the receiver lists are free to take the next hop's senders.
                    receiverSlots[passed] = slot;
                    receivers[passed++] = i;
                }
            }
            if (amount > 0) keepSuspended(suspended, i, amount, counters);
        }
        [sources, receivers] = [receivers, sources];
        [sourceSlots, receiverSlots] = [receiverSlots, sourceSlots];
        sourceCount = passed;
        [from, to] = [to, from];
    }
}

/**
 * Adds `amount` (> 0) to vertex i's suspended load, saturating at ACCUMULATOR_LIMIT with what passes
 * it counted (so mass stays exact). At most 8 sends of ROUTE_LIMIT arrive onto at most
 * ACCUMULATOR_LIMIT, so no i32 wraps; the bound is unreachable in practice.
 */
export function keepSuspended(suspended: Int32Array, i: number, amount: number, counters: Float64Array): void {
    let total = suspended[i] + amount;
    if (total > ACCUMULATOR_LIMIT) {
        counters[COUNTER_SATURATION_REMOVED] += total - ACCUMULATOR_LIMIT;
        total = ACCUMULATOR_LIMIT;
    }
    suspended[i] = total;
}

/** Zeroes both routing buffers over the batch's extent, so the next batch starts from clean ones. */
export function clearRouted(params: BatchParams, routed: Int32Array, routedNext: Int32Array): void {
    const { width, extentX0, extentY0, extentX1, extentY1 } = params;
    for (let y = extentY0; y < extentY1; y++) {
        routed.fill(0, y * width + extentX0, y * width + extentX1);
        routedNext.fill(0, y * width + extentX0, y * width + extentX1);
    }
}
