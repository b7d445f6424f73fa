/**
 * What a planned batch carries, by its kind: a ground edit's, a local erosion event's, a cycle
 * unit's. `ErosionSchedule.planNext` decides which batch runs next from its position; these build
 * that batch from what the position shares (`SharedPlan`) and the options in force, so the
 * schedule keeps its position and inputs, and the parameters each kind needs are read here.
 */
import { buildBatchParams, buildLocalBatchParams } from "./batchParams.js";
import { brushEntryCount, type BrushCache } from "./brush.js";
import type { CycleUnit } from "./cycleUnits.js";
import { buildEditBatchParams } from "./editBatchParams.js";
import type { GroundEdit } from "./groundEdits.js";
import type { LocalErosionEvent } from "./localErosion.js";
import type { SimulationOptions } from "./options.js";
import type { PlannedBatch } from "./plannedBatch.js";
import { cellScaledOptions, type GridSize } from "./worldScale.js";

/** What every batch planned at one position shares: its place in the cycle and the inputs in force (each kind adds its own). */
export type SharedPlan = Omit<PlannedBatch, "operator" | "edit" | "patch" | "params" | "brush" | "group">;

/** A ground edit's batch: a class of its own (group -id), so an edit never shares a dispatch with anything. */
export function planEditBatch(
    here: SharedPlan, options: Readonly<SimulationOptions>, grid: GridSize, edit: GroundEdit, brush: Int32Array
): PlannedBatch {
    const params = buildEditBatchParams(options, grid, edit, here.cycle);
    const { x0, y0, x1, y1 } = edit.rect;
    return { ...here, operator: "edit", edit, patch: { index: params.patchIndex, x0, y0, x1, y1 }, params, brush, group: -edit.id };
}

/**
 * A local erosion event's batch (the `here.batch`-th of the cycle, its own class): the droplet
 * kernels over its disc with the brush of its own radius (`brushes` builds each radius once).
 */
export function planLocalBatch(
    here: SharedPlan, options: Readonly<SimulationOptions>, grid: GridSize, event: LocalErosionEvent, brushes: BrushCache
): PlannedBatch {
    const brush = brushes.get(cellScaledOptions({ ...options, hydraulic: event.hydraulic }, grid).hydraulic.brushRadius);
    const params = buildLocalBatchParams(options, grid, event, here.batch, here.cycle, brushEntryCount(brush), here.masks);
    return {
        ...here,
        operator: "local",
        patch: { index: params.patchIndex, x0: params.patchX0, y0: params.patchY0, x1: params.patchX1, y1: params.patchY1 },
        params,
        brush,
        group: here.batch,
    };
}

/**
 * A cycle unit's batch (an operator over one patch): its class counted after the cycle's `events`
 * local events, the thermal iterations and river steps as the grid's cell size reads them (`scaled`).
 */
export function planUnitBatch(
    here: SharedPlan, options: Readonly<SimulationOptions>, scaled: Readonly<SimulationOptions>, grid: GridSize, unit: CycleUnit, brush: Int32Array,
    events: number
): PlannedBatch {
    const { operator, patch, group, waterPass, waterStep } = unit;
    const params = buildBatchParams(options, grid, patch, operator, here.cycle, brushEntryCount(brush), here.masks, waterPass, waterStep);
    return {
        ...here,
        operator,
        patch,
        params,
        brush,
        group: events + group,
        thermalIterations: scaled.thermal.iterations,
        riverSteps: scaled.rivers.stepsPerBatch,
    };
}
