/**
 * Where a GPU simulation's dispatches are recorded: the params slots each dispatch reads its
 * batches' params from, and the ordering rule of `ComputeDevice` (a write lands at once, so a
 * write to a buffer that recorded dispatches read submits them first).
 */
import { BATCH_PARAMS_ENTRY_BYTES, MAX_DISPATCH_BATCHES, packBatchParams, PARAMS_UNIFORM_BYTES, type BatchParams } from "../core/batchParams.js";
import type { DispatchTarget } from "./batchDispatch.js";
import type { ComputeDevice } from "./computeDevice.js";
import type { SimulationBuffers } from "./simulationBuffers.js";

/**
 * Params slots: each class recorded before a submit needs its own buffer, because a write lands at
 * once and a second write to one buffer would be what every earlier recorded dispatch reads.
 */
export const PARAM_SLOTS = 32;

/** Records dispatches onto a device, into params slots of a simulation's buffers. */
export class GpuRecorder {
    private _slotsUsed = 0;
    private _recorded = false;
    private readonly _packed = new Int32Array(PARAMS_UNIFORM_BYTES / 4);

    constructor(
        private readonly _device: ComputeDevice,
        private readonly _buffers: SimulationBuffers
    ) {}

    /** Notes that dispatches were recorded since the last submit. */
    public noteRecorded(): void {
        this._recorded = true;
    }

    /** Runs everything recorded so far. */
    public submit(): void {
        this._device.submit();
        this._recorded = false;
        this._slotsUsed = 0;
    }

    /** Before overwriting a buffer that recorded dispatches read: run them first. */
    public beforeWrite(): void {
        if (this._recorded) {
            this.submit();
        }
    }

    /** Writes the batches' params into the next free slot (submitting first when none is free); dispatches go there. */
    public target(entries: readonly BatchParams[]): DispatchTarget {
        if (entries.length > MAX_DISPATCH_BATCHES) {
            throw new Error(`Internal error: ${entries.length} batches in one dispatch; a params buffer holds ${MAX_DISPATCH_BATCHES}.`);
        }
        if (this._slotsUsed === PARAM_SLOTS) {
            this.submit();
        }
        const slot = this._buffers.paramSlots[this._slotsUsed++];
        const stride = BATCH_PARAMS_ENTRY_BYTES / 4;
        this._packed.fill(0, 0, entries.length * stride);
        entries.forEach((params, index) => packBatchParams(params, this._packed, index * stride));
        this._device.writeBuffer(slot, this._packed.subarray(0, entries.length * stride));
        return { device: this._device, buffers: this._buffers, slot, entries };
    }
}
