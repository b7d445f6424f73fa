/**
 * CPU mirror of `shaders/thermal/thermal_apply.wgsl`: each vertex of the patch grown by one gives what its
 * flux slots say and receives what its neighbours' slots send it. Reads only flux, so no vertex
 * is written by two threads and none reads a height another writes. What a river channel receives
 * (drainage area at least `channelArea`) joins its load (`suspended`) instead of raising its bed.
 *
 * Speed: with 8 neighbours, a vertex whose 8 neighbours all lie in the patch and in the field takes
 * a straight-line path (its sources' slots at fixed offsets, no outflow); every other vertex the
 * general one. Both compute the same integers, in the same vertex order.
 */
import { ACCUMULATOR_LIMIT, type BatchParams } from "../../core/batchParams.js";
import { COUNTER_OUTFLOW, COUNTER_SATURATION_ADDED, COUNTER_SATURATION_REMOVED } from "../../core/counters.js";
import { HEIGHT_MIN_FIXED } from "../../core/fixedPoint.js";
import { THERMAL_DX, THERMAL_DY, THERMAL_SLOTS } from "../../core/thermalDirections.js";
import { recordChange, type ErosionMaps } from "../../core/erosionMaps.js";
import { soilAfter, vertexHardness, weatheredSoil, type MaterialGrids } from "../../core/materials.js";
import { uniformHardness } from "../fold/soilFold.js";

/** The grids the channel rule reads and writes. */
export interface ChannelGrids {
    readonly drainageArea: Int32Array;
    readonly suspended: Int32Array;
}

/** What one vertex gives (its own slots) and receives (its neighbours' slots pointing here), any vertex. */
function exchangeAt(params: BatchParams, flux: Int32Array, counters: Float64Array, x: number, y: number): { change: number; received: number } {
    const { width, depth, patchX0, patchY0, patchX1, patchY1, neighbours } = params;
    const patchWidth = patchX1 - patchX0;
    let change = 0;
    let received = 0;
    if (x >= patchX0 && y >= patchY0 && x < patchX1 && y < patchY1) {
        const slot = ((y - patchY0) * patchWidth + (x - patchX0)) * THERMAL_SLOTS;
        for (let k = 0; k < neighbours; k++) {
            const given = flux[slot + k];
            change -= given;
            const nx = x + THERMAL_DX[k];
            const ny = y + THERMAL_DY[k];
            if (nx < 0 || ny < 0 || nx >= width || ny >= depth) {
                counters[COUNTER_OUTFLOW] += given;
            }
        }
    }
    for (let k = 0; k < neighbours; k++) {
        // The neighbour whose slot k points here.
        const sx = x - THERMAL_DX[k];
        const sy = y - THERMAL_DY[k];
        if (sx >= patchX0 && sy >= patchY0 && sx < patchX1 && sy < patchY1) {
            received += flux[((sy - patchY0) * patchWidth + (sx - patchX0)) * THERMAL_SLOTS + k];
        }
    }
    return { change, received };
}

/**
 * Applies one thermal step's flux over the batch's region (patch grown by one vertex); the net
 * change goes into the maps, and with the materials on (`params.materials` and `materialGrids`)
 * into the soil (`soilAfter`), which then weathers out of the rock at the patch's vertices
 * (`weatheredSoil`, with `params.weathering`).
 */
export function thermalApply(
    params: BatchParams, heights: Int32Array, flux: Int32Array, counters: Float64Array, maps: ErosionMaps | null, channel: ChannelGrids,
    materialGrids: MaterialGrids | null = null
): void {
    const { width, depth, regionX0, regionY0, regionX1, regionY1, patchX0, patchY0, patchX1, patchY1, channelArea } = params;
    const patchWidth = patchX1 - patchX0;
    const drainageArea = channel.drainageArea;
    const suspended = channel.suspended;
    const materials = params.materials !== 0 ? materialGrids : null;
    const soil = materials?.soil ?? null;
    const weathers = materials !== null && params.weathering !== 0;
    const uniform = weathers ? uniformHardness(params, materials) : 0;
    // Vertices whose 8 neighbours are all in the patch (their sources) and in the field (no outflow).
    const fast = params.neighbours === 8;
    const innerX0 = Math.max(patchX0 + 1, 1);
    const innerX1 = Math.min(patchX1 - 1, width - 1);
    const innerY0 = Math.max(patchY0 + 1, 1);
    const innerY1 = Math.min(patchY1 - 1, depth - 1);
    const row = patchWidth * THERMAL_SLOTS;
    for (let y = regionY0; y < regionY1; y++) {
        const inner = fast && y >= innerY0 && y < innerY1;
        for (let x = regionX0; x < regionX1; x++) {
            let change: number;
            let received: number;
            if (inner && x >= innerX0 && x < innerX1) {
                const s = ((y - patchY0) * patchWidth + (x - patchX0)) * THERMAL_SLOTS;
                change = -(flux[s] + flux[s + 1] + flux[s + 2] + flux[s + 3] + flux[s + 4] + flux[s + 5] + flux[s + 6] + flux[s + 7]);
                // Slot k of the neighbour at (x - dx_k, y - dy_k) points here.
                received =
                    flux[s - THERMAL_SLOTS] +
                    flux[s + THERMAL_SLOTS + 1] +
                    flux[s - row + 2] +
                    flux[s + row + 3] +
                    flux[s - row - THERMAL_SLOTS + 4] +
                    flux[s - row + THERMAL_SLOTS + 5] +
                    flux[s + row - THERMAL_SLOTS + 6] +
                    flux[s + row + THERMAL_SLOTS + 7];
            } else {
                const exchange = exchangeAt(params, flux, counters, x, y);
                change = exchange.change;
                received = exchange.received;
            }
            const i = y * width + x;
            if (channelArea > 0 && drainageArea[i] >= channelArea && received > 0) {
                let load = suspended[i] + received;
                if (load > ACCUMULATOR_LIMIT) {
                    counters[COUNTER_SATURATION_REMOVED] += load - ACCUMULATOR_LIMIT;
                    load = ACCUMULATOR_LIMIT;
                }
                suspended[i] = load;
            } else {
                change += received;
            }
            const before = heights[i];
            let height = before + change;
            if (height < HEIGHT_MIN_FIXED) {
                counters[COUNTER_SATURATION_ADDED] += HEIGHT_MIN_FIXED - height;
                height = HEIGHT_MIN_FIXED;
            }
            if (maps) {
                recordChange(maps, i, height - before);
            }
            if (soil) soil[i] = soilAfter(soil[i], height - before);
            heights[i] = height;
            // Soil production, once a step at each vertex of the patch (the region's ring belongs to its neighbours' patches).
            // Soil as deep as `soilDepth` does not weather (`weatheredSoil`): no hardness needed there.
            if (weathers && x >= patchX0 && y >= patchY0 && x < patchX1 && y < patchY1 && soil![i] < params.soilDepth)
                soil![i] = weatheredSoil(
                    soil![i], params.weathering, params.soilDepth, uniform !== 0 ? uniform : vertexHardness(params, heights, materials, i, x, y)
                );
        }
    }
}
