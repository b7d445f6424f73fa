/**
 * The thermal operator on the GPU. A batch is `iterations` x (thermal_flux over the patch,
 * thermal_apply over the patch grown by one), the order of the CPU reference
 * (`plugin/cpu/cpuBatchRunner.ts`); its flux buffer is sized here, by the class at hand.
 */
import { MAX_DISPATCH_BATCHES } from "../../core/batchParams.js";
import type { PlannedBatch } from "../../core/plannedBatch.js";
import { THERMAL_SLOTS } from "../../core/thermalDirections.js";
import { gridGroups, largest, record, type DispatchTarget } from "../batchDispatch.js";
import { fluxBytes } from "../simulationBuffers.js";
import type { GpuOperatorContext, GpuOperatorRow } from "./operatorContext.js";

/** Thermal batches: `iterations` relaxation steps, each a flux pass over the patch and an apply pass over it grown by one. */
export function recordThermalBatch(target: DispatchTarget, iterations: number): void {
    const [px, py] = gridGroups(largest(target, (p) => p.patchX1 - p.patchX0), largest(target, (p) => p.patchY1 - p.patchY0));
    const [rx, ry] = gridGroups(largest(target, (p) => p.regionX1 - p.regionX0), largest(target, (p) => p.regionY1 - p.regionY0));
    for (let step = 0; step < iterations; step++) {
        record(target, target.entries[0].materials !== 0 ? "thermal_flux_materials" : "thermal_flux", px, py, "thermal");
        record(target, "thermal_apply", rx, ry);
    }
}

/**
 * Thermal batches: the flux buffer holds one patch's flux per batch of a dispatch, so a class
 * is cut into as few dispatches as the adapter's binding limit allows.
 */
function recordThermalClass(context: GpuOperatorContext, batches: readonly PlannedBatch[]): void {
    const { device, buffers } = context;
    const side = Math.max(...batches.map(({ params }) => Math.max(params.patchX1 - params.patchX0, params.patchY1 - params.patchY0)));
    const patchVertices = side * side;
    const perDispatch = Math.max(
        1, Math.min(MAX_DISPATCH_BATCHES, device.maxWorkgroupsPerDimension, Math.floor(device.maxStorageBufferBindingSize / fluxBytes(patchVertices)))
    );
    for (let start = 0; start < batches.length; start += perDispatch) {
        const chunk = batches.slice(start, start + perDispatch);
        const entries = chunk.map((planned, layer) => ({ ...planned.params, dispatchOffset: layer * patchVertices * THERMAL_SLOTS }));
        // Sized for the dispatch at hand (the first of a class is its largest), not for the
        // most the binding allows: a small field's classes need a few patches' flux.
        if (!buffers.fluxFits(chunk.length * patchVertices)) {
            context.recorder.beforeWrite();
            buffers.replaceFlux(chunk.length * patchVertices, side, chunk.length);
        }
        const target = context.recorder.target(entries);
        recordThermalBatch(target, chunk[0].thermalIterations);
        context.endClass(target);
    }
}

/** The thermal operator's row (`GPU_OPERATORS`). */
export const THERMAL_OPERATOR: GpuOperatorRow = { recordClass: recordThermalClass, brush: false, cut: null };
