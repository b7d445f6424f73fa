/**
 * How the WebGPU backend records each operator, one row per operator (`GPU_OPERATORS`): a class of
 * its batches as dispatches (`GpuErosionSimulation.runClass`), whether it needs the brush table,
 * and how `batchPieces.ts` cuts one of its batches over frames. A table, not if-chains on the
 * operator's name, so a new operator is one row the compiler asks for (`satisfies`).
 */
import { MAX_DISPATCH_BATCHES } from "../core/batchParams.js";
import { EDIT_PARAM_SLOTS } from "../core/editBatchParams.js";
import type { PlannedBatch, PlannedOperator } from "../core/plannedBatch.js";
import { THERMAL_SLOTS } from "../core/thermalDirections.js";
import {
    planDropletDispatch, recordDropletBatch, recordGroundEdit, recordRiverBatch, recordThermalBatch, recordWaterBatch, type DispatchTarget,
} from "./batchDispatch.js";
import type { ComputeDevice } from "./computeDevice.js";
import type { GpuRecorder } from "./gpuRecorder.js";
import { fluxBytes, type SimulationBuffers } from "./simulationBuffers.js";

/** What a row records with: the simulation's device, buffers and recorder, and the few of its steps a row shares. */
export interface GpuOperatorContext {
    /** The device the dispatches run on (its limits size the dispatches). */
    readonly device: ComputeDevice;
    /** Vertices along x of the field. */
    readonly width: number;
    /** The simulation's buffers (grown or made as a row needs: the flux, the water's). */
    readonly buffers: SimulationBuffers;
    /** Where the dispatches are recorded (and a write waits for those that read its buffer). */
    readonly recorder: GpuRecorder;
    /** Uploads the brush table unless it is the one uploaded last. */
    ensureBrush(table: Int32Array): void;
    /** Uploads the packed water sources when they changed. */
    uploadSources(packed: Int32Array): void;
    /** After a class's dispatches: the seam of a tileable terrain, and the record flag. */
    endClass(target: DispatchTarget): void;
}

/** How `batchPieces.ts` cuts a batch into pieces over frames: the river batch's passes, the droplets and their fold, or not at all (null). */
export type GpuCut = "rivers" | "droplets" | null;

/** One operator's row: everything the GPU backend decides by the operator. */
export interface GpuOperatorRow {
    /** Records batches of one class (checked by the caller) as dispatches, the masks and materials already prepared. */
    recordClass(context: GpuOperatorContext, batches: readonly PlannedBatch[]): void;
    /** Whether its kernels read the brush table (uploaded before its pieces are recorded too). */
    readonly brush: boolean;
    /** How a batch of it is cut into pieces. */
    readonly cut: GpuCut;
}

/** Batches in dispatches of as many as one params buffer holds (and z allows), each recorded by `recordChunk` and ended by `endClass`. */
function recordLayers(context: GpuOperatorContext, batches: readonly PlannedBatch[], recordChunk: (chunk: readonly PlannedBatch[]) => DispatchTarget): void {
    const layers = Math.min(MAX_DISPATCH_BATCHES, context.device.maxWorkgroupsPerDimension);
    for (let start = 0; start < batches.length; start += layers) {
        context.endClass(recordChunk(batches.slice(start, start + layers)));
    }
}

/** The droplet kernels: a hydraulic batch's, and a local erosion event's (the same kernels over a disc). */
const droplets: GpuOperatorRow = {
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

/** Each operator's row. */
export const GPU_OPERATORS = {
    thermal: { recordClass: recordThermalClass, brush: false, cut: null },
    // One pass of a step over every batch's patch, as few dispatches as the params allow.
    water: {
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
    },
    edit: { recordClass: (context, batches) => recordEdit(context, batches[0]), brush: false, cut: null },
    hydraulic: droplets,
    local: droplets,
    rivers: {
        recordClass(context, batches) {
            recordLayers(context, batches, (chunk) => {
                const target = context.recorder.target(chunk.map((planned) => ({ ...planned.params })));
                recordRiverBatch(target, batches[0].riverSteps);
                return target;
            });
        },
        brush: false,
        cut: "rivers",
    },
} satisfies Record<PlannedOperator, GpuOperatorRow>;
