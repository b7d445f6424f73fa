/**
 * CPU mirror of `shaders/fold/tile_seam.wgsl`: on a tileable terrain the last column and row repeat the
 * first; after every batch they are made equal to them again (droplets and thermal treat the edges
 * as edges and may have moved them; the river operator never writes them), and what that adds or
 * removes is counted, so mass stays exact.
 */
import type { BatchParams } from "../../core/batchParams.js";
import { COUNTER_SEAM_ADDED, COUNTER_SEAM_REMOVED } from "../../core/counters.js";

/** Copies column 0 into column width - 1 and row 0 into row depth - 1 (heights and drainage area, and the soil with the materials on). */
export function tileSeam(params: BatchParams, heights: Int32Array, area: Int32Array, counters: Float64Array, soil: Int32Array | null = null): void {
    const { width, depth } = params;
    const copy = (from: number, to: number) => {
        const change = heights[from] - heights[to];
        if (change > 0) counters[COUNTER_SEAM_ADDED] += change;
        else counters[COUNTER_SEAM_REMOVED] -= change;
        heights[to] = heights[from];
        area[to] = area[from];
        if (soil && params.materials !== 0) soil[to] = soil[from];
    };
    for (let y = 0; y < depth - 1; y++) copy(y * width, y * width + width - 1);
    for (let x = 0; x < width; x++) copy(x === width - 1 ? 0 : x, (depth - 1) * width + x);
}
