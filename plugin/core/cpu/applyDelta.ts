/**
 * CPU mirror of `shaders/apply_delta.wgsl`: adds the settled change to the heights over the
 * batch's extent, clears the accumulator for the next batch, and records the change in the maps
 * (wear, deposition, and the droplets' water visits of the batch).
 */
import type { BatchParams } from "../batchParams.js";
import { addSaturating, recordChange, type ErosionMaps } from "../erosionMaps.js";

/**
 * heights += delta; delta = 0, over the batch's extent (its region and as far as its sediment was
 * routed). With maps: the change goes into wear or deposition, and the batch's water visits
 * (`waterBatch`, cleared) into the water map.
 */
export function applyDelta(params: BatchParams, heights: Int32Array, delta: Int32Array, maps: ErosionMaps | null = null, waterBatch: Int32Array | null = null): void {
    const { width, extentX0, extentY0, extentX1, extentY1 } = params;
    for (let y = extentY0; y < extentY1; y++) {
        for (let i = y * width + extentX0, end = y * width + extentX1; i < end; i++) {
            const change = delta[i];
            heights[i] += change;
            delta[i] = 0;
            if (maps) {
                recordChange(maps, i, change);
                if (waterBatch) {
                    addSaturating(maps.water, i, waterBatch[i]);
                    waterBatch[i] = 0;
                }
            }
        }
    }
}
