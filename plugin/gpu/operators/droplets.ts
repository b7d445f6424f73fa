/**
 * The droplet operators on the GPU: a hydraulic batch's droplets, and a local erosion event's (the
 * same kernels over a disc). A batch is erode_droplets (one invocation per droplet), then the fold
 * over the droplets' reach: clip_delta, then the sediment routing's hops, apply_delta, fill_levels
 * and copy_levels over the batch's extent (`recordRouteAndFold`, shared with the rivers). The
 * order is the CPU reference's (`plugin/cpu/cpuBatchRunner.ts`).
 */
import type { BatchParams } from "../../core/batchParams.js";
import { gridGroups, largest, planDropletDispatch, record, recordRouteAndFold, type DispatchTarget, type DropletDispatch } from "../batchDispatch.js";
import { recordLayers, type GpuOperatorRow } from "./operatorContext.js";

/**
 * The droplet kernel's build for a class: with the materials' rule where they are on (the same for
 * every batch of a class), without it (its code folded away: on SwiftShader it made the walk over
 * four times slower even where it never ran) otherwise.
 */
export function dropletKernel(params: BatchParams): "erode_droplets" | "erode_droplets_materials" {
    return params.materials !== 0 ? "erode_droplets_materials" : "erode_droplets";
}

/** Droplet batches (hydraulic or a local event): the droplets, then the fold over their reach. */
export function recordDropletBatch(target: DispatchTarget, dispatch: DropletDispatch): void {
    record(target, dropletKernel(target.entries[0]), dispatch.x, dispatch.y, "hydraulic");
    const [rx, ry] = gridGroups(largest(target, (p) => p.regionX1 - p.regionX0), largest(target, (p) => p.regionY1 - p.regionY0));
    record(target, "clip_delta", rx, ry, "hydraulic");
    recordRouteAndFold(target, "hydraulic");
}

/** The droplet kernels' row: the hydraulic operator's and the local events' (`GPU_OPERATORS`). */
export const DROPLET_OPERATOR: GpuOperatorRow = {
    recordClass(context, batches) {
        recordLayers(context, batches, (chunk) => {
            const entries = chunk.map((planned) => ({ ...planned.params }));
            context.ensureBrush(batches[0].brush);
            const dispatch = planDropletDispatch(Math.max(...entries.map((params) => params.dropletCount)), context.device.maxWorkgroupsPerDimension);
            for (const params of entries) {
                params.dispatchRowThreads = dispatch.rowThreads;
            }
            const target = context.recorder.target(entries);
            recordDropletBatch(target, dispatch);
            return target;
        });
    },
    brush: true,
    cut: "droplets",
};
