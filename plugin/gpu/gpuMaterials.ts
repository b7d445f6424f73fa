/**
 * The WebGPU side of bedrock and soil (`plugin/core/materials.ts`): the material buffer's grids made
 * the first time a batch runs the materials (as the CPU backend makes them), uploaded and read back
 * with the state, and the materials' batch fields written after the grids whenever a class's
 * fields differ from those written last (a class's batches share them: one cycle's options), and
 * the hardness grid written from the hardness map where it changed (`hardnessMap.ts`).
 */
import type { ErosionStateData } from "../core/erosionState.js";
import {
    createMaterialGrids, writeSoilMap, MATERIAL_GRIDS, materialParamsOffset, packMaterialParams, packMaterials, unpackMaterials, type MaterialGrids,
} from "../core/materials.js";
import { blankBatchParams } from "../core/batchParams.js";
import { writeHardnessFactors } from "../core/hardnessMap.js";
import { gridGroups, record } from "./batchDispatch.js";
import type { PlannedBatch } from "../core/schedule.js";
import type { ComputeDevice } from "./computeDevice.js";
import type { GpuRecorder } from "./gpuRecorder.js";
import type { BufferWrite } from "./piecewiseUpload.js";
import type { SimulationBuffers } from "./simulationBuffers.js";

/** The materials of one GPU simulation. */
export class GpuMaterials {
    /** The materials' batch fields last written after the grids (null: none yet, or a state was uploaded since). */
    private _fields: Int32Array | null = null;
    /** The hardness map's stamp the hardness grid was last written from (`hardnessMap.ts`; -1: unknown, as after an upload). */
    private _hardnessStamp = -1;

    constructor(
        private readonly _device: ComputeDevice,
        private readonly _buffers: SimulationBuffers,
        private readonly _recorder: GpuRecorder
    ) {}

    private get _cells(): number {
        return this._buffers.width * this._buffers.depth;
    }

    /** The writes of a state's materials (their buffer made, or dropped for none). */
    public stateWrites(materials: MaterialGrids | null): BufferWrite[] {
        this._hardnessStamp = -1;
        if (!materials) {
            this._buffers.dropMaterials();
            return [];
        }
        this._buffers.ensureMaterials();
        this._fields = null;
        return [{ buffer: this._buffers.bound("material"), data: packMaterials(materials) }];
    }

    /**
     * Before `planned`'s dispatches: the materials made (`planned.initialSoil` of soil everywhere,
     * or the soil map's share of it) if it runs them first, and its fields written where they
     * changed.
     */
    public prepare(planned: PlannedBatch): void {
        if (!this._buffers.hasMaterials) {
            if (planned.params.materials === 0) return;
            this._recorder.beforeWrite();
            this._buffers.ensureMaterials();
            const grids = createMaterialGrids(this._cells, planned.initialSoil ?? 0);
            if (planned.masks.soil) writeSoilMap(grids.soil, planned.initialSoil ?? 0, planned.masks.soil);
            this._device.writeBuffer(this._buffers.bound("material"), packMaterials(grids));
            this._fields = null;
            if ((planned.initialSoilSlope ?? 0) > 0) this._recordInitialSoil(planned.initialSoilSlope!);
            // Fresh grids have hardness factor 1 everywhere: as no map makes them.
            this._hardnessStamp = 0;
        }
        if (planned.params.materials !== 0) this._writeHardnessMap(planned);
        const fields = packMaterialParams(planned.params);
        const written = this._fields;
        if (written && fields.every((value, k) => value === written[k])) return;
        this._recorder.beforeWrite();
        this._device.writeBuffer(this._buffers.bound("material"), fields, materialParamsOffset(this._cells) * 4);
        this._fields = fields;
    }

    /** Records `init_soil`: the soil just written thinned by slope (`writeInitialSoil` on the CPU). */
    private _recordInitialSoil(limit: number): void {
        const { width, depth } = this._buffers;
        const [gx, gy] = gridGroups(width, depth);
        record(this._recorder.target([{ ...blankBatchParams(width, depth), regionX1: limit }]), "init_soil", gx, gy);
        this._recorder.noteRecorded();
    }

    /**
     * The hardness grid written from the batch's hardness map where the map or its scale changed
     * (`prepareMaterials` on the CPU): the factors through the accumulator into `hardness_factors`,
     * which keeps the rock ground edits placed.
     */
    private _writeHardnessMap(planned: PlannedBatch): void {
        const stamp = planned.hardnessMap?.stamp ?? 0;
        if (stamp === this._hardnessStamp) return;
        const factors = new Int32Array(this._cells);
        writeHardnessFactors(stamp === 0 ? null : planned.masks.hardness, planned.hardnessMap?.scale ?? 0, factors);
        this._recorder.beforeWrite();
        this._device.writeBuffer(this._buffers.bound("delta"), factors);
        const { width, depth } = this._buffers;
        const [gx, gy] = gridGroups(width, depth);
        record(this._recorder.target([blankBatchParams(width, depth)]), "hardness_factors", gx, gy);
        this._recorder.noteRecorded();
        this._hardnessStamp = stamp;
    }

    /** Reads the materials' grids back (after a submit), or null where they have never run. */
    public async read(): Promise<ErosionStateData["materials"]> {
        if (!this._buffers.hasMaterials) return null;
        const words = await this._device.readBuffer(this._buffers.bound("material"), 0, this._cells * 4 * MATERIAL_GRIDS.length);
        return unpackMaterials(new Int32Array(words), this._cells);
    }
}
