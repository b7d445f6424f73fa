/**
 * CPU mirror of `shaders/route_sediment.wgsl`: one hop of the sediment the fold did not settle.
 * The WGSL gathers (each vertex adds what its neighbours send it); this scatters, which adds the
 * same integers.
 */
import { ACCUMULATOR_LIMIT, ROUTE_LIMIT, SEDIMENT_HOPS, type BatchParams } from "../batchParams.js";
import { COUNTER_SATURATION_REMOVED } from "../counters.js";
import { expandRect, type GridRect } from "../patches.js";
import { sedimentSlot } from "../steepestDescent.js";
import { THERMAL_DX, THERMAL_DY } from "../thermalDirections.js";

/** The vertices hop `hop` sends from (the batch's region grown by hop - 1) and to (grown by hop). */
export function routeHopRects(params: BatchParams, hop: number): { from: GridRect; to: GridRect } {
    const region = { x0: params.regionX0, y0: params.regionY0, x1: params.regionX1, y1: params.regionY1 };
    return { from: expandRect(region, hop - 1, params.width, params.depth), to: expandRect(region, hop, params.width, params.depth) };
}

/**
 * Hop `params.routeHop` (1..SEDIMENT_HOPS): each vertex of the `from` rectangle sends what `from`
 * holds one vertex along `sedimentSlot`. A receiver on dry ground that drains passes it on in the
 * next hop (`to`, at most ROUTE_LIMIT; the rest waits in its `suspended`); any other receiver, and
 * every receiver on the last hop, keeps it in `suspended`.
 */
export function routeSedimentHop(params: BatchParams, heights: Int32Array, levels: Int32Array, from: Int32Array, to: Int32Array, suspended: Int32Array, counters: Float64Array): void {
    const { width, depth } = params;
    const rects = routeHopRects(params, params.routeHop);
    const target = rects.to;
    for (let y = target.y0; y < target.y1; y++) to.fill(0, y * width + target.x0, y * width + target.x1);
    const source = rects.from;
    const lastHop = params.routeHop >= SEDIMENT_HOPS;
    for (let y = source.y0; y < source.y1; y++) {
        for (let x = source.x0; x < source.x1; x++) {
            const amount = from[y * width + x];
            if (amount <= 0) continue;
            const slot = sedimentSlot(heights, levels, x, y, width, depth);
            const rx = x + THERMAL_DX[slot];
            const ry = y + THERMAL_DY[slot];
            const r = ry * width + rx;
            if (!lastHop && levels[r] <= heights[r] && sedimentSlot(heights, levels, rx, ry, width, depth) >= 0) {
                to[r] += amount;
            } else {
                suspended[r] += amount;
            }
        }
    }
    // At most 8 sends of ROUTE_LIMIT onto at most ACCUMULATOR_LIMIT: no i32 wraps, and what passes
    // the accumulator's bound (unreachable in practice) is counted, so mass stays exact.
    for (let y = target.y0; y < target.y1; y++) {
        for (let i = y * width + target.x0, end = y * width + target.x1; i < end; i++) {
            if (to[i] > ROUTE_LIMIT) {
                suspended[i] += to[i] - ROUTE_LIMIT;
                to[i] = ROUTE_LIMIT;
            }
            if (suspended[i] > ACCUMULATOR_LIMIT) {
                counters[COUNTER_SATURATION_REMOVED] += suspended[i] - ACCUMULATOR_LIMIT;
                suspended[i] = ACCUMULATOR_LIMIT;
            }
        }
    }
}
