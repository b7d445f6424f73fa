/**
 * CPU mirror of `shaders/edits/ground_edit.wgsl`: a ground edit's integers applied to the heights over
 * its rectangle, the fill levels kept at or above the new heights, and what it added and removed
 * counted (`COUNTER_EDIT_ADDED`, `COUNTER_EDIT_REMOVED`), so the mass balance stays exact.
 */
import type { BatchParams } from "../../core/batchParams.js";
import { EDIT_PARAM_SLOTS } from "../../core/editBatchParams.js";
import { COUNTER_EDIT_ADDED, COUNTER_EDIT_REMOVED } from "../../core/counters.js";
import type { ErosionStateData } from "../../core/erosionState.js";
import type { FoldScratch } from "../droplets/foldDroplets.js";
import { copyLevels, fillLevelStep } from "../fold/fillLevels.js";
import { mulQ16 } from "../../core/fixedPoint.js";
import { addedHeight, type GroundEdit } from "../../core/groundEdits.js";
import { WATER_SEDIMENT_LIMIT } from "../../core/waterModel.js";
import { placedRockFactor, soilAfter, type MaterialGrids } from "../../core/materials.js";

/** The height a "level" edit gives a vertex: its share of the way to the target, truncated toward the height. */
export function levelledHeight(height: number, target: number, share: number): number {
    const gap = target - height;
    return height + (gap >= 0 ? mulQ16(gap, share) : -mulQ16(-gap, share));
}

/**
 * Applies `edit` to `heights` and `levels` (row-major, `width` vertices a row); adds to `counters`.
 * For an edit that keeps its material as sediment, what it removes joins `waterSediment` (up to
 * `WATER_SEDIMENT_LIMIT` a vertex; the rest is counted removed). With `materials` (on), a raise lays
 * down soil, or with the edit's `rock` raises the rock under the soil and makes it that hardness
 * (`placedRockFactor`); a cut takes the soil first (`soilAfter`).
 */
export function applyGroundEdit(
    edit: GroundEdit, width: number, heights: Int32Array, levels: Int32Array, counters: Float64Array, waterSediment: Int32Array | null = null,
    materials: MaterialGrids | null = null
): void {
    const { rect, amounts, target } = edit;
    const levelling = edit.mode === "level";
    const soil = materials?.soil ?? null;
    const rockFactor = materials && edit.rock !== undefined ? placedRockFactor(edit.rock) : 0;
    const columns = rect.x1 - rect.x0;
    for (let y = rect.y0; y < rect.y1; y++) {
        for (let x = rect.x0; x < rect.x1; x++) {
            const i = y * width + x;
            const amount = amounts[(y - rect.y0) * columns + (x - rect.x0)];
            const height = heights[i];
            const next = levelling ? levelledHeight(height, target, amount) : addedHeight(height, amount);
            heights[i] = next;
            if (rockFactor !== 0 && next > height) materials!.hardness[i] = rockFactor;
            else if (soil) soil[i] = soilAfter(soil[i], next - height);
            if (next > height) {
                counters[COUNTER_EDIT_ADDED] += next - height;
            } else if (waterSediment && edit.sediment) {
                const kept = Math.min(height - next, WATER_SEDIMENT_LIMIT - waterSediment[i]);
                waterSediment[i] += kept;
                counters[COUNTER_EDIT_REMOVED] += height - next - kept;
            } else {
                counters[COUNTER_EDIT_REMOVED] += height - next;
            }
            if (levels[i] < next) levels[i] = next;
        }
    }
}

/**
 * After an edit, the fill levels over its extent take `editLevelSteps` Jacobi steps (`fill_levels`
 * then `copy_levels` on the GPU): a level stays an upper bound and comes down to a dug canal's bed
 * or a pit's spill from the levels around the extent, one vertex of distance a step.
 */
export function settleEditLevels(params: BatchParams, state: ErosionStateData, scratch: FoldScratch): void {
    for (let step = 0; step < params[EDIT_PARAM_SLOTS.editLevelSteps]; step++) {
        fillLevelStep(params, state.heights, state.fillLevels, scratch.levelsNext, scratch.levels);
        copyLevels(params, scratch.levelsNext, state.fillLevels);
    }
}
