/**
 * CPU mirror of `shaders/fold/apply_delta.wgsl`: adds the settled change to the heights over the
 * batch's extent, clears the accumulator for the next batch, and records the change in the maps
 * (wear, deposition, and the droplets' water visits of the batch).
 */
import type { BatchParams } from "../../core/batchParams.js";
import { addSaturating, recordChange, type ErosionMaps } from "../../core/erosionMaps.js";
import type { MaterialGrids } from "../../core/materials.js";
import { foldSoil } from "./soilFold.js";

/**
 * heights += delta; delta = 0, over the batch's extent (its region and as far as its sediment was
 * routed). With maps: the change goes into wear or deposition, and the batch's water visits
 * (`waterBatch`, cleared) into the water map. With the materials on, the soil takes the change
 * first (`foldSoil`; `upliftMask`: the uplift map, which a river batch's uplift is scaled by).
 */
export function applyDelta(
    params: BatchParams, heights: Int32Array, delta: Int32Array, maps: ErosionMaps | null = null, waterBatch: Int32Array | null = null,
    materials: MaterialGrids | null = null, upliftMask: Int32Array | null = null
): void {
    const { width, extentX0, extentY0, extentX1, extentY1 } = params;
    if (materials && params.materials !== 0) foldSoil(params, delta, materials.soil, upliftMask);
    if (maps && !waterBatch) {
        const wear = wordsOf(maps.wear);
        const deposition = wordsOf(maps.deposition);
        for (let y = extentY0; y < extentY1; y++) applyDeltaRecording(heights, delta, wear, deposition, y * width + extentX0, y * width + extentX1);
        return;
    }
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

/** A map's u32 counters as the same bits in an Int32Array, so the sums below stay 32-bit integers (a u32 read above 2^31 - 1 is a double in V8). */
export function wordsOf(map: Uint32Array): Int32Array {
    return new Int32Array(map.buffer, map.byteOffset, map.length);
}

/**
 * `applyDelta` with maps and no water visits, for vertices `from`..`to` - 1, recording each
 * change as `recordChange` does without a branch: whether a vertex was lowered or raised is a
 * coin toss the processor mispredicts, so both counters are written, the one that did not change
 * with nothing added. The saturating u32 sum is taken on the counters' bits (`wordsOf`): a carry
 * out of bit 31 (Hacker's Delight 2-13) turns the sum into all ones, MAP_LIMIT. An i32 change's
 * size is at most 2^31, whose bits `0 - change` gives even for -2^31 (a map adds it as a u32).
 */
export function applyDeltaRecording(heights: Int32Array, delta: Int32Array, wear: Int32Array, deposition: Int32Array, from: number, to: number): void {
    for (let i = from; i < to; i++) {
        const change = delta[i];
        heights[i] += change;
        delta[i] = 0;
        const lowering = change >> 31;
        const lowered = (0 - change) & lowering;
        const raised = change & ~lowering;
        const worn = wear[i];
        const wornSum = (worn + lowered) | 0;
        wear[i] = wornSum | (((worn & lowered) | ((worn | lowered) & ~wornSum)) >> 31);
        const laid = deposition[i];
        const laidSum = (laid + raised) | 0;
        deposition[i] = laidSum | (((laid & raised) | ((laid | raised) & ~laidSum)) >> 31);
    }
}
