/**
 * CPU mirror of `shaders/flow_accumulate.wgsl`: one propagation step of the upstream counts over a
 * patch (Jacobi: every vertex reads the counts as they were before the step). A vertex's count is
 * itself plus the counts of the neighbours that drain into it, so a chain of n cells is counted in
 * full after n steps; the counts persist between batches and cycles, and keep converging as the
 * heights change. Counts are `i32`, saturating at 2^30 (seed 004's one-byte channel stopped at 255).
 */
import type { BatchParams } from "../batchParams.js";
import { neighbourIndex, receiverOf } from "../flowRouting.js";

/** Largest upstream count kept (2^30). */
export const FLOW_COUNT_LIMIT = 2 ** 30;

/** Writes next counts for the patch's vertices into `next` (same indexing as `counts`). */
export function flowAccumulate(params: BatchParams, heights: Int32Array, counts: Int32Array, next: Int32Array): void {
    const { width, depth, patchX0, patchY0, patchX1, patchY1, flowNeighbours } = params;
    const wrap = params.flowWrap !== 0;
    for (let y = patchY0; y < patchY1; y++) {
        for (let x = patchX0; x < patchX1; x++) {
            const i = y * width + x;
            let total = 1;
            for (let k = 0; k < flowNeighbours; k++) {
                const n = neighbourIndex(x, y, k, width, depth, wrap);
                if (n < 0) continue;
                const nx = n % width;
                const ny = (n - nx) / width;
                if (receiverOf(heights, nx, ny, width, depth, flowNeighbours, wrap) === i) {
                    total = Math.min(total + counts[n], FLOW_COUNT_LIMIT);
                }
            }
            next[i] = total;
        }
    }
}

/** CPU mirror of `shaders/flow_copy.wgsl`: the step's counts become the counts, over the patch. */
export function flowCopy(params: BatchParams, next: Int32Array, counts: Int32Array): void {
    const { width, patchX0, patchY0, patchX1, patchY1 } = params;
    for (let y = patchY0; y < patchY1; y++) {
        for (let i = y * width + patchX0, end = y * width + patchX1; i < end; i++) {
            counts[i] = next[i];
        }
    }
}
