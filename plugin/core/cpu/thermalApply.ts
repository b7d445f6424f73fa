/**
 * CPU mirror of `shaders/thermal_apply.wgsl`: each vertex of the patch grown by one gives what its
 * flux slots say and receives what its neighbours' slots send it. Reads only flux, so no vertex
 * is written by two threads and none reads a height another writes. What a river channel receives
 * (drainage area at least `channelArea`) joins its load (`suspended`) instead of raising its bed.
 */
import { ACCUMULATOR_LIMIT, type BatchParams } from "../batchParams.js";
import { COUNTER_OUTFLOW, COUNTER_SATURATION_ADDED, COUNTER_SATURATION_REMOVED } from "../counters.js";
import { HEIGHT_MIN_FIXED } from "../fixedPoint.js";
import { THERMAL_DX, THERMAL_DY, THERMAL_SLOTS } from "../thermalDirections.js";
import { recordChange, type ErosionMaps } from "../erosionMaps.js";

/** The grids the channel rule reads and writes. */
export interface ChannelGrids {
    readonly drainageArea: Int32Array;
    readonly suspended: Int32Array;
}

/** Applies one thermal step's flux over the batch's region (patch grown by one vertex); the net change goes into the maps. */
export function thermalApply(params: BatchParams, heights: Int32Array, flux: Int32Array, counters: Float64Array, maps: ErosionMaps | null, channel: ChannelGrids): void {
    const { width, depth, regionX0, regionY0, regionX1, regionY1, patchX0, patchY0, patchX1, patchY1, neighbours } = params;
    const patchWidth = patchX1 - patchX0;
    for (let y = regionY0; y < regionY1; y++) {
        for (let x = regionX0; x < regionX1; x++) {
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
            const i = y * width + x;
            if (params.channelArea > 0 && channel.drainageArea[i] >= params.channelArea && received > 0) {
                let load = channel.suspended[i] + received;
                if (load > ACCUMULATOR_LIMIT) {
                    counters[COUNTER_SATURATION_REMOVED] += load - ACCUMULATOR_LIMIT;
                    load = ACCUMULATOR_LIMIT;
                }
                channel.suspended[i] = load;
            } else {
                change += received;
            }
            let height = heights[i] + change;
            if (height < HEIGHT_MIN_FIXED) {
                counters[COUNTER_SATURATION_ADDED] += HEIGHT_MIN_FIXED - height;
                height = HEIGHT_MIN_FIXED;
            }
            if (maps) {
                recordChange(maps, i, height - heights[i]);
            }
            heights[i] = height;
        }
    }
}
