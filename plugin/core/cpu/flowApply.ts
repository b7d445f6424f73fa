/**
 * CPU mirror of `shaders/flow_apply.wgsl`: folds a flow batch's changes into the heights over the
 * patch grown by one vertex (wrapping across the edges of a tiling terrain) and clears the
 * accumulator. The region arrives in "virtual" coordinates that may run past the edges when the
 * terrain wraps; a region as wide as the field covers each column once.
 */
import type { BatchParams } from "../batchParams.js";
import { recordChange, type ErosionMaps } from "../erosionMaps.js";

/** heights += delta; delta = 0 over the flow batch's region; the change goes into the maps. */
export function flowApply(params: BatchParams, heights: Int32Array, delta: Int32Array, maps: ErosionMaps | null = null): void {
    const { width, depth, regionX0, regionY0, regionX1, regionY1 } = params;
    for (let vy = regionY0; vy < regionY1; vy++) {
        const y = (vy + depth) % depth;
        for (let vx = regionX0; vx < regionX1; vx++) {
            const i = y * width + ((vx + width) % width);
            const change = delta[i];
            heights[i] += change;
            delta[i] = 0;
            if (maps) {
                recordChange(maps, i, change);
            }
        }
    }
}
