/**
 * The river operator on the GPU. A batch is river_slots, `stepsPerBatch` steps alternating
 * river_accumulate and river_accumulate_odd (and copy_area after an odd number), river_erode,
 * river_uplift and river_settle over its patch, then the sediment routing's hops, apply_delta,
 * fill_levels and copy_levels over its extent (`routeAndFoldPasses`, shared with the droplets):
 * the order of the CPU's `runRiverBatch` (`plugin/cpu/cpuBatchRunner.ts`). The passes are a list
 * (`riverPasses`) because `batchPieces.ts` cuts a whole-field batch into bands over frames.
 */
import { riverRect, type BatchParams } from "../../core/batchParams.js";
import type { OperatorMaskName as MaskName } from "../../core/erosionState.js";
import { largestOf, recordGridPass, routeAndFoldPasses, type DispatchTarget, type GridPass } from "../batchDispatch.js";
import type { KernelName } from "../kernelTable.js";
import { recordLayers, type GpuOperatorRow } from "./operatorContext.js";

/** River batches (the order of the CPU's `runRiverBatch`). */
export function recordRiverBatch(target: DispatchTarget, steps: number): void {
    for (const pass of riverPasses(target.entries, steps)) recordGridPass(target, pass);
}

/**
 * A river batch's passes, in order (the seam of a tileable terrain not included): what runs in
 * pieces over several frames when the whole batch would not fit one.
 */
export function riverPasses(entries: readonly BatchParams[], steps: number): GridPass[] {
    const columns = largestOf(entries, (p) => riverRect(p).x1 - p.patchX0);
    const rows = largestOf(entries, (p) => riverRect(p).y1 - p.patchY0);
    const pass = (kernel: KernelName, mask: MaskName | null = null): GridPass => ({ kernel, mask, columns, rows });
    // river_slots covers the rectangle grown by one vertex.
    const passes: GridPass[] = [{ kernel: "river_slots", mask: null, columns: columns + 2, rows: rows + 2 }];
    // The steps alternate between the two area grids; after an odd number the areas are in
    // areaNext, and copy_area brings them back.
    for (let step = 0; step < steps; step++) {
        passes.push(pass(step % 2 === 0 ? "river_accumulate" : "river_accumulate_odd"));
    }
    if (steps % 2 === 1) {
        passes.push(pass("copy_area"));
    }
    passes.push(pass("river_erode", "rivers"), pass("river_uplift", "uplift"), pass("river_settle"));
    return [...passes, ...routeAndFoldPasses(entries, "rivers")];
}

/** The river operator's row (`GPU_OPERATORS`). */
export const RIVER_OPERATOR: GpuOperatorRow = {
    recordClass(context, batches) {
        recordLayers(context, batches, (chunk) => {
            const target = context.recorder.target(chunk.map((planned) => ({ ...planned.params })));
            recordRiverBatch(target, batches[0].riverSteps);
            return target;
        });
    },
    brush: false,
    cut: "rivers",
};
