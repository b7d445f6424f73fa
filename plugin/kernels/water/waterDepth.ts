/**
 * CPU mirror of `shaders/water/water_depth.wgsl`, the water step's sixth pass, over the batch's patch:
 * each vertex's water and sediment for the next step, from the exchange (pass 4) and what the
 * water cut or laid down (pass 5), then rain and sources, the open edges and evaporation. Touches
 * only its own vertex.
 *
 * Balances, to the unit, in every kernel: water stored = waterAdded - waterEvaporated -
 * waterOutflow - waterRemoved; and the material: ground + suspended + the water's sediment +
 * outflow (+ saturation) is constant (`conservedMass`).
 */
import { waterParams, type BatchParams } from "../../core/batchParams.js";
import {
    COUNTER_OUTFLOW, COUNTER_SATURATION_REMOVED, COUNTER_WATER_ADDED, COUNTER_WATER_EVAPORATED, COUNTER_WATER_OUTFLOW, COUNTER_WATER_REMOVED,
} from "../../core/counters.js";
import { mulQ16 } from "../../core/fixedPoint.js";
import { PIPE_AXIS_Q16, PIPE_DIAGONAL_Q16, WATER_LIMIT, WATER_SEDIMENT_LIMIT, type WaterGrids } from "../../core/waterModel.js";
import { sourceInputAt } from "../../core/waterSources.js";

/**
 * The Q16 fraction of its water an edge vertex loses over an open edge each step: one axis pipe's
 * conductance per missing axis neighbour, one diagonal pipe's per missing diagonal neighbour (the
 * ground beyond the edge continues level, dry). At most 7/16 (a corner), so never all of it.
 */
export function openEdgeFraction(x: number, y: number, width: number, depth: number): number {
    const missingX = (x === 0 ? 1 : 0) + (x === width - 1 ? 1 : 0);
    const missingY = (y === 0 ? 1 : 0) + (y === depth - 1 ? 1 : 0);
    if (missingX + missingY === 0) return 0;
    const presentX = 2 - missingX;
    const presentY = 2 - missingY;
    const missingDiagonals = 4 - presentX * presentY;
    return (missingX + missingY) * PIPE_AXIS_Q16 + missingDiagonals * PIPE_DIAGONAL_Q16;
}

/**
 * Pass 6: water and sediment of the patch's vertices for the next step (the exchange's grids,
 * read for the last time, cleared); counters updated.
 */
export function waterDepth(params: BatchParams, grids: WaterGrids, rainMask: Int32Array | null, sources: Int32Array, counters: Float64Array): void {
    const { width, depth, patchX0, patchY0, patchX1, patchY1 } = params;
    const { waterRain, waterKept: waterRemaining, waterOpenEdges: waterOpen } = waterParams(params);
    const { waterDepth: water, waterSediment: sediment, waterNext, sedimentNext, groundChange: delta } = grids;
    for (let y = patchY0; y < patchY1; y++) {
        for (let x = patchX0; x < patchX1; x++) {
            const i = y * width + x;
            let depthNow = waterNext[i];
            let load = sedimentNext[i] - delta[i];
            const input = (rainMask ? mulQ16(waterRain, rainMask[i]) : waterRain) + sourceInputAt(sources, x, y);
            depthNow += input;
            counters[COUNTER_WATER_ADDED] += input;
            if (depthNow > WATER_LIMIT) {
                counters[COUNTER_WATER_REMOVED] += depthNow - WATER_LIMIT;
                depthNow = WATER_LIMIT;
            }
            if (waterOpen !== 0) {
                const fraction = openEdgeFraction(x, y, width, depth);
                if (fraction > 0) {
                    const waterOut = mulQ16(depthNow, fraction);
                    const sedimentOut = mulQ16(load, fraction);
                    depthNow -= waterOut;
                    load -= sedimentOut;
                    counters[COUNTER_WATER_OUTFLOW] += waterOut;
                    counters[COUNTER_OUTFLOW] += sedimentOut;
                }
            }
            const evaporated = depthNow - mulQ16(depthNow, waterRemaining);
            depthNow -= evaporated;
            counters[COUNTER_WATER_EVAPORATED] += evaporated;
            if (load > WATER_SEDIMENT_LIMIT) {
                counters[COUNTER_SATURATION_REMOVED] += load - WATER_SEDIMENT_LIMIT;
                load = WATER_SEDIMENT_LIMIT;
            }
            water[i] = depthNow;
            // What the water cut or laid down is still in transit until the apply pass moves it
            // between the ground and the water, so it is kept in the water's sediment until then:
            // the material balance holds between any two passes.
            sediment[i] = load + delta[i];
            waterNext[i] = 0;
            sedimentNext[i] = 0;
        }
    }
}
