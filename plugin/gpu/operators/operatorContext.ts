/**
 * What an operator's row (`plugin/gpu/operators/`: droplets, rivers, thermal, water, edits) records
 * with, and what it is: the context `GpuErosionSimulation` hands it (the device, the buffers, the
 * recorder and the few of the simulation's steps a row shares), not the whole simulation, so an
 * operator's file reads only what its dispatches need.
 */
import { MAX_DISPATCH_BATCHES } from "../../core/batchParams.js";
import type { PlannedBatch } from "../../core/plannedBatch.js";
import type { DispatchTarget } from "../batchDispatch.js";
import type { ComputeDevice } from "../computeDevice.js";
import type { GpuRecorder } from "../gpuRecorder.js";
import type { SimulationBuffers } from "../simulationBuffers.js";

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
export function recordLayers(
    context: GpuOperatorContext, batches: readonly PlannedBatch[], recordChunk: (chunk: readonly PlannedBatch[]) => DispatchTarget
): void {
    const layers = Math.min(MAX_DISPATCH_BATCHES, context.device.maxWorkgroupsPerDimension);
    for (let start = 0; start < batches.length; start += layers) {
        context.endClass(recordChunk(batches.slice(start, start + layers)));
    }
}
