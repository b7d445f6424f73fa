/**
 * CPU mirror of `shaders/apply_delta.wgsl`: adds the clipped change to the heights over the
 * batch's region and clears the accumulator for the next batch.
 */
import type { BatchParams } from "../batchParams.js";

/** heights += delta; delta = 0, over the batch's region. */
export function applyDelta(params: BatchParams, heights: Int32Array, delta: Int32Array): void {
    const { width, regionX0, regionY0, regionX1, regionY1 } = params;
    for (let y = regionY0; y < regionY1; y++) {
        for (let i = y * width + regionX0, end = y * width + regionX1; i < end; i++) {
            heights[i] += delta[i];
            delta[i] = 0;
        }
    }
}
