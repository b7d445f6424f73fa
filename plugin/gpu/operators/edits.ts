/**
 * Ground edits on the GPU: an edit is a class of one, its amounts written into the accumulator
 * under its rectangle, then ground_edit over it and its fill-level steps over its extent.
 */
import { EDIT_PARAM_SLOTS } from "../../core/editBatchParams.js";
import type { PlannedBatch } from "../../core/plannedBatch.js";
import { gridGroups, largest, record, type DispatchTarget } from "../batchDispatch.js";
import type { ComputeBuffer } from "../computeDevice.js";
import type { GpuOperatorContext, GpuOperatorRow } from "./operatorContext.js";

/** A ground edit: one pass over its rectangle (the batch's region), then its fill-level steps over its extent (`settleEditLevels`). */
export function recordGroundEdit(target: DispatchTarget, levelSteps: number, waterSediment: ComputeBuffer): void {
    const [rx, ry] = gridGroups(largest(target, (p) => p.regionX1 - p.regionX0), largest(target, (p) => p.regionY1 - p.regionY0));
    record(target, "ground_edit", rx, ry, null, { waterSediment });
    const [ex, ey] = gridGroups(largest(target, (p) => p.extentX1 - p.extentX0), largest(target, (p) => p.extentY1 - p.extentY0));
    for (let step = 0; step < levelSteps; step++) {
        record(target, "fill_levels", ex, ey);
        record(target, "copy_levels", ex, ey);
    }
}

/**
 * A ground edit (a class of one): its amounts written into the accumulator's rows under its
 * rectangle (all zero between batches; the kernel clears them again), then `ground_edit`.
 */
function recordEdit(context: GpuOperatorContext, planned: PlannedBatch): void {
    const { device, buffers, recorder, width } = context;
    const edit = planned.edit!;
    const { x0, y0, x1, y1 } = edit.rect;
    const columns = x1 - x0;
    recorder.beforeWrite();
    if (edit.sediment) buffers.ensureWater();
    const amounts = Int32Array.from(edit.amounts);
    const delta = buffers.bound("delta");
    for (let y = y0; y < y1; y++) {
        device.writeBuffer(delta, amounts.subarray((y - y0) * columns, (y - y0 + 1) * columns), (y * width + x0) * 4);
    }
    const target = recorder.target([planned.params]);
    // Without water (and so without a sediment edit) a stand-in the kernel never touches.
    recordGroundEdit(target, planned.params[EDIT_PARAM_SLOTS.editLevelSteps], buffers.hasWater ? buffers.bound("waterSediment") : buffers.noMask);
    context.endClass(target);
}

/** The ground edits' row (`GPU_OPERATORS`): an edit's class holds it alone. */
export const EDIT_OPERATOR: GpuOperatorRow = { recordClass: (context, batches) => recordEdit(context, batches[0]), brush: false, cut: null };
