/**
 * The shallow water operator on the GPU: a batch is one pass of a water step (`WATER_PASSES`
 * order) over its patch, the class's sources uploaded first.
 */
import { gridGroups, largest, record, type DispatchTarget } from "../batchDispatch.js";
import type { KernelName } from "../kernelTable.js";
import { recordLayers, type GpuOperatorRow } from "./operatorContext.js";

/** The kernel of each water pass (`WATER_PASSES` order). */
const WATER_KERNELS = [
    "water_flux",
    "water_scale",
    "water_limit",
    "water_transport",
    "water_erode",
    "water_depth",
    "water_apply",
] as const satisfies readonly KernelName[];

/**
 * Water batches: one pass of a water step over each batch's patch (the rain mask for the depth
 * pass, then the velocity the maps read, `water_velocity`, while the pipes hold the step's flows).
 */
export function recordWaterBatch(target: DispatchTarget, pass: number): void {
    const kernel = WATER_KERNELS[pass];
    if (!kernel) {
        throw new Error(`Internal error: water pass ${pass} does not exist.`);
    }
    const [px, py] = gridGroups(largest(target, (p) => p.patchX1 - p.patchX0), largest(target, (p) => p.patchY1 - p.patchY0));
    record(target, kernel, px, py, kernel === "water_depth" ? "rain" : null);
    if (kernel === "water_depth") record(target, "water_velocity", px, py);
}

/** The water operator's row (`GPU_OPERATORS`): one pass of a step over every batch's patch, as few dispatches as the params allow. */
export const WATER_OPERATOR: GpuOperatorRow = {
    recordClass(context, batches) {
        context.buffers.ensureWater();
        context.uploadSources(batches[0].waterSources);
        recordLayers(context, batches, (chunk) => {
            const target = context.recorder.target(chunk.map((planned) => planned.params));
            recordWaterBatch(target, batches[0].params.waterPass);
            return target;
        });
    },
    brush: false,
    cut: null,
};
