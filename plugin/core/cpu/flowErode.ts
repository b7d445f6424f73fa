/**
 * CPU mirror of `shaders/flow_erode.wgsl`: flow-accumulation erosion of one patch (seed 004).
 *
 * Each vertex with a strictly lower neighbour cuts material and hands it to that neighbour: the
 * more water gathers above it (the 3 x 3 average of the upstream counts, seed 004's blurred count),
 * the more it cuts: rate x count metres a batch, as seed 004 has it ("the more tributaries a point
 * has, the more elevation is eroded away"). The material goes down the drainage network one vertex a
 * batch: hillslopes feed the valleys, and channels cut where they steepen. Seed 004 warns that this gouges ever-deeper
 * ruts; here a vertex never cuts more than drop / (2 x neighbours) to its receiver, so it can never
 * sink below the vertex it drains into, a channel cannot deepen below its own outlet, and, as with
 * thermal erosion, no vertex receives enough from its donors to rise above them. Changes go into `delta` (atomically on the GPU); `flowApply` folds
 * them in. Mass is exact: every cut lands on a receiver inside the field.
 */
import type { BatchParams } from "../batchParams.js";
import { neighbourIndex, receiverOf } from "../flowRouting.js";
import { mulQ16 } from "../fixedPoint.js";

/**
 * Adds each patch vertex's cut to `delta` (negative there, positive at its receiver). With a mask
 * (Q16 per vertex) the cut is scaled by the smaller of the two vertices' masks.
 */
export function flowErode(params: BatchParams, heights: Int32Array, counts: Int32Array, delta: Int32Array, mask: Int32Array | null = null): void {
    const { width, depth, patchX0, patchY0, patchX1, patchY1, flowNeighbours, flowRate, flowSlopeShift } = params;
    const wrap = params.flowWrap !== 0;
    for (let y = patchY0; y < patchY1; y++) {
        for (let x = patchX0; x < patchX1; x++) {
            const i = y * width + x;
            const receiver = receiverOf(heights, x, y, width, depth, flowNeighbours, wrap);
            if (receiver < 0) continue;
            // Seed 004's blurred count: the average over the vertex and its 8 neighbours.
            let sum = counts[i];
            let cells = 1;
            for (let k = 0; k < 8; k++) {
                const n = neighbourIndex(x, y, k, width, depth, wrap);
                if (n >= 0) {
                    sum += counts[n];
                    cells++;
                }
            }
            const blurred = Math.floor(sum / cells);
            const drop = heights[i] - heights[receiver];
            // rate x count saturates at the i32 limit (the min with the drop takes it from there).
            let cut = Math.min(drop >> flowSlopeShift, Math.min(flowRate * blurred, 2147483647));
            if (mask !== null) {
                cut = mulQ16(cut, Math.min(mask[i], mask[receiver]));
            }
            if (cut > 0) {
                delta[i] -= cut;
                delta[receiver] += cut;
            }
        }
    }
}
