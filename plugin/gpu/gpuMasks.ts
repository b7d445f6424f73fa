/**
 * The masks a GPU simulation holds: which of the schedule's masks are uploaded, and the writes that
 * bring the others over (a new mask is a new array: the schedule hands them out whole).
 */
import { MASKED_OPERATORS, MATERIAL_MASKS, noMasks, type ErosionMasks } from "../core/erosionState.js";
import type { BufferWrite } from "./piecewiseUpload.js";
import type { SimulationBuffers } from "./simulationBuffers.js";

/** The masks uploaded to a simulation's buffers. */
export class GpuMasks {
    private _uploaded: ErosionMasks = noMasks();

    constructor(private readonly _buffers: SimulationBuffers) {}

    /** The masks as last uploaded (what the state read back carries). */
    public get uploaded(): ErosionMasks {
        return this._uploaded;
    }

    /**
     * The writes of the masks that differ from those uploaded (noted as uploaded). The materials'
     * maps have no buffers of their own: they are noted only (the state read back carries them),
     * and the materials write the hardness map into their hardness grid and the soil map into
     * their first soil (`GpuMaterials.prepare`).
     */
    public writes(masks: ErosionMasks): BufferWrite[] {
        const writes: BufferWrite[] = [];
        for (const name of MATERIAL_MASKS) if (masks[name] !== this._uploaded[name]) this._uploaded = { ...this._uploaded, [name]: masks[name] };
        for (const operator of MASKED_OPERATORS) {
            const mask = masks[operator];
            if (mask === this._uploaded[operator]) {
                continue;
            }
            if (mask) {
                writes.push({ buffer: this._buffers.ensureMask(operator), data: mask });
            }
            this._uploaded = { ...this._uploaded, [operator]: mask };
        }
        return writes;
    }
}
