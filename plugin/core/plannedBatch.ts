/**
 * A batch the schedule planned (`ErosionSchedule.planNext`): what a backend needs to run it, and
 * where in its cycle it stands.
 */
import type { BatchParams } from "./batchParams.js";
import type { ErosionMasks } from "./erosionState.js";
import type { GroundEdit } from "./groundEdits.js";
import type { HardnessMapRef } from "./hardnessMap.js";
import { OPERATOR_ORDER, type OperatorName, type Patch } from "./patches.js";

/** What a planned batch runs: an erosion operator, "local" for a local erosion event (droplet kernels over a disc), or "edit" for a ground edit. */
export type PlannedOperator = OperatorName | "local" | "edit";

/**
 * Every `PlannedOperator`, once: the keys each backend's operator table (`CPU_OPERATORS`,
 * `GPU_OPERATORS`, the frame budget's work units) must have, checked by a test beyond the
 * compiler's `satisfies` (which cannot see a row the type lacks too).
 */
export const PLANNED_OPERATORS: readonly PlannedOperator[] = [...OPERATOR_ORDER, "local", "edit"];

/** One batch, ready to run. */
export interface PlannedBatch {
    /** The operator, "local" for a local erosion event (droplet kernels over a disc), or "edit" for a ground edit. */
    readonly operator: PlannedOperator;
    /** The ground edit an "edit" batch applies. */
    readonly edit?: GroundEdit;
    readonly patch: Patch;
    readonly params: BatchParams;
    /** Brush table for the cycle's brush radius. */
    readonly brush: Int32Array;
    /** Cycle the batch belongs to (completed cycles before it). */
    readonly cycle: number;
    /** Position of the batch in its cycle. */
    readonly batch: number;
    /**
     * The batch's class in its cycle: consecutive batches with the same group cannot reach each
     * other, so a backend may run them in one dispatch, in any order, or spread over frames.
     */
    readonly group: number;
    /** Thermal relaxation steps this batch runs (thermal batches only). */
    readonly thermalIterations: number;
    /** Drainage-area propagation steps this batch runs (river batches only). */
    readonly riverSteps: number;
    /** Masks in force for the cycle (the same object for the whole cycle). */
    readonly masks: ErosionMasks;
    /** The soil every vertex starts with (fixed point) if the batch runs the materials and finds none yet (`materials.initialSoil`). */
    readonly initialSoil?: number;
    /** The slope (Q16) at which that soil falls to none (`materials.initialSoilSlope`; 0: the same everywhere). */
    readonly initialSoilSlope?: number;
    /** The hardness map in force (`masks.hardness`) and its scale, named by a stamp, for the materials' hardness grid; null or absent without one. */
    readonly hardnessMap?: HardnessMapRef | null;
    /** The water sources in force, packed for the kernels (`packWaterSources`; the same object while they do not change). */
    readonly waterSources: Int32Array;
}
