/**
 * The WebGPU backend: the simulation state in GPU buffers (`SimulationBuffers`), batches recorded in
 * each operator's dispatch order (its file under `operators/`, its row in `gpuOperators.ts`),
 * uploads and readbacks (`gpuReadback.ts`, the masks in `gpuMasks.ts`). Dispatches are recorded
 * and run at the next `submit()`; a write to a buffer that recorded dispatches read submits them
 * first (the ordering contract of `ComputeDevice`).
 */
import { GpuMaterials } from "./gpuMaterials.js";
import { GpuMasks } from "./gpuMasks.js";
import { readGpuMaps, readGpuState } from "./gpuReadback.js";
import { f32Bits, PARAMS_UNIFORM_BYTES } from "../core/batchParams.js";
import { COUNTER_COUNT, COUNTER_WORDS } from "../core/counters.js";
import { cloneMasks, STATE_GRIDS, type ErosionMasks, type ErosionStateData } from "../core/erosionState.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import type { PlannedBatch } from "../core/schedule.js";
import type { GridRect } from "../core/patches.js";
import { recordTileSeam, type DispatchTarget } from "./batchDispatch.js";
import { GPU_OPERATORS } from "./gpuOperators.js";
import type { GpuOperatorContext } from "./operators/operatorContext.js";
import { GpuBatchPieces } from "./batchPieces.js";
import { GpuRecorder, PARAM_SLOTS } from "./gpuRecorder.js";
import { recordMaterialsTexture, recordRegionChecksums, recordTexturePass, recordVertexPass, recordWaterTexture, type TextureRows } from "./fieldPasses.js";
import { WATER_CARRIED_GRIDS, type WaterGrids } from "../core/waterModel.js";
import type { ComputeBuffer, ComputeDevice } from "./computeDevice.js";
import type { BufferWrite } from "./piecewiseUpload.js";
import { KERNELS, type KernelName } from "./kernelTable.js";
import { SimulationBuffers } from "./simulationBuffers.js";

/** Whether two planned batches belong to one class of one cycle (and may share dispatches). */
function sameClass(a: PlannedBatch, b: PlannedBatch): boolean {
    return a.cycle === b.cycle && a.group === b.group && a.operator === b.operator;
}

/** Runs erosion batches on a `ComputeDevice`. */
export class GpuErosionSimulation {
    /** Fixed-point heights, `i32` per vertex. Other GPU passes (vertex regeneration) may read it. */
    public readonly heights: ComputeBuffer;
    private readonly _buffers: SimulationBuffers;
    private readonly _recorder: GpuRecorder;
    /** The material buffer's grids and fields (bedrock and soil). */
    private readonly _materials: GpuMaterials;
    private readonly _masks: GpuMasks;
    private _brushTable: Int32Array | null = null;
    private _uploadedSources: Int32Array | null = null;
    private _disposed = false;
    /** What an operator's row records with (`GPU_OPERATORS`). */
    private readonly _operatorContext: GpuOperatorContext;
    /** How a river batch is cut into pieces over frames (`runPieces`). */
    public readonly pieces = new GpuBatchPieces();

    /** Use `GpuErosionSimulation.create`, which also compiles the kernels. */
    private constructor(
        public readonly device: ComputeDevice,
        public readonly width: number,
        public readonly depth: number,
        patchSize: number
    ) {
        this._buffers = new SimulationBuffers(device, width, depth, patchSize, PARAM_SLOTS, PARAMS_UNIFORM_BYTES);
        this._recorder = new GpuRecorder(device, this._buffers);
        this._materials = new GpuMaterials(device, this._buffers, this._recorder);
        this._masks = new GpuMasks(this._buffers);
        this.heights = this._buffers.bound("heights");
        this._operatorContext = {
            device,
            width,
            buffers: this._buffers,
            recorder: this._recorder,
            ensureBrush: (table) => this._ensureBrush(table),
            uploadSources: (packed) => this._uploadSources(packed),
            endClass: (target) => this._endClass(target),
        };
    }

    /**
     * Creates the buffers and compiles every kernel (asynchronously; `compiled(done, total)` after
     * each): the pipelines of those a run without `water` does not dispatch in its first frames
     * (ground edits, checksums, the water's passes) in the background after it resolves.
     */
    public static async create(
        device: ComputeDevice, width: number, depth: number, patchSize: number, compiled?: (done: number, total: number) => void, water = true
    ): Promise<GpuErosionSimulation> {
        const simulation = new GpuErosionSimulation(device, width, depth, patchSize);
        // The map passes need a Babylon storage texture; they are prepared on first use.
        const kernels = (Object.keys(KERNELS) as KernelName[]).filter((kernel) => !("texture" in KERNELS[kernel]));
        // The materials' builds too: a run turns them on later if at all (one that starts with them compiles them at their first dispatch).
        const later = kernels.filter(
            (kernel) =>
                kernel === "ground_edit" || kernel.endsWith("_materials") || kernel.startsWith("region_checksums") || (!water && kernel.startsWith("water_"))
        );
        let done = 0;
        compiled?.(0, kernels.length);
        await device.prepareKernels(kernels, () => compiled?.(++done, kernels.length), later);
        return simulation;
    }

    /** Replaces the whole GPU state (heights, suspended sediment, counters) with `state`. */
    public upload(state: ErosionStateData): void {
        for (const { buffer, data } of this.stateWrites(state)) this.device.writeBuffer(buffer, data);
    }

    /**
     * The writes that replace the whole GPU state with `state`, in order (`upload` makes them at
     * once, a start over frames: `writeInPieces`); the masks' and the water's buffers are made or
     * dropped as `state` needs. Nothing may be recorded before they are all made.
     */
    public stateWrites(state: ErosionStateData): BufferWrite[] {
        if (state.width !== this.width || state.depth !== this.depth) {
            throw new RangeError(`upload: the state is ${state.width} x ${state.depth} but the GPU simulation is ${this.width} x ${this.depth}.`);
        }
        this._recorder.beforeWrite();
        const writes: BufferWrite[] = STATE_GRIDS.map((grid) => ({ buffer: this._buffers.bound(grid), data: state[grid] }));
        writes.push(...this._masks.writes(state.masks), ...this._waterWrites(state.water ?? null), ...this._materials.stateWrites(state.materials ?? null));
        writes.push({ buffer: this._buffers.bound("delta"), data: new Int32Array(this.width * this.depth) });
        const counters = new Uint32Array(COUNTER_COUNT * COUNTER_WORDS);
        for (let i = 0; i < COUNTER_COUNT; i++) {
            counters[COUNTER_WORDS * i] = state.counters[i] % 2 ** 32;
            counters[COUNTER_WORDS * i + 1] = Math.floor(state.counters[i] / 2 ** 32);
        }
        writes.push({ buffer: this._buffers.bound("counters"), data: counters });
        return writes;
    }

    /** Records one batch's dispatches. */
    public runBatch(planned: PlannedBatch): void {
        this.runClass([planned]);
    }

    /**
     * Records batches in order; each run of consecutive batches of one class (`PlannedBatch.group`)
     * shares its dispatches. The terrain is the same as batch by batch: a class's batches cannot
     * reach each other.
     */
    public runBatches(batches: readonly PlannedBatch[]): void {
        let start = 0;
        while (start < batches.length) {
            let end = start + 1;
            while (end < batches.length && sameClass(batches[start], batches[end])) {
                end++;
            }
            this.runClass(batches.slice(start, end));
            start = end;
        }
    }

    /** Records batches of one class as one set of dispatches (one workgroup layer per batch). */
    public runClass(batches: readonly PlannedBatch[]): void {
        this._assertLive();
        const first = batches[0];
        if (batches.some((planned) => !sameClass(first, planned))) {
            throw new Error("Internal error: runClass was given batches of more than one class.");
        }
        this._uploadMasks(first.masks);
        this._materials.prepare(first);
        GPU_OPERATORS[first.operator].recordClass(this._operatorContext, batches);
    }

    /** How many pieces `planned` runs in, cut into about `wanted` (`runPieces`, `GpuBatchPieces`): a river or droplet batch's; 1 for any other. */
    public pieceCount(planned: PlannedBatch, wanted = 1): number {
        return this.pieces.count(planned, wanted);
    }

    /** Records pieces `from .. to - 1` of `planned` (a river or droplet batch `pieceCount` cut): any cut gives `runClass`'s integers (`GpuBatchPieces`). */
    public runPieces(planned: PlannedBatch, from: number, to: number): void {
        this._assertLive();
        this._uploadMasks(planned.masks);
        this._materials.prepare(planned);
        if (GPU_OPERATORS[planned.operator].brush) this._ensureBrush(planned.brush);
        this.pieces.record(this._recorder, planned, from, to, this.device.maxWorkgroupsPerDimension);
    }

    /** Uploads the packed water sources when they changed (a change is a new array: the schedule hands them out whole). */
    private _uploadSources(packed: Int32Array): void {
        if (packed === this._uploadedSources) return;
        this._recorder.beforeWrite();
        this.device.writeBuffer(this._buffers.sourcesBuffer(packed.byteLength), packed);
        this._uploadedSources = packed;
    }

    /** Makes the GPU's water that of a state: its grids, or none. */
    /** The writes of the water's grids (its buffers made, or dropped for none). */
    private _waterWrites(water: WaterGrids | null): BufferWrite[] {
        if (!water) {
            if (this._buffers.hasWater) this._buffers.dropWater();
            this._uploadedSources = null;
            return [];
        }
        this._buffers.ensureWater();
        return WATER_CARRIED_GRIDS.map((grid) => ({ buffer: this._buffers.bound(grid), data: water[grid] }));
    }

    /** After a class's dispatches: the seam of a tileable terrain, and the record flag. */
    private _endClass(target: DispatchTarget): void {
        if (target.entries[0].seam !== 0) {
            recordTileSeam(target);
        }
        this._recorder.noteRecorded();
    }

    /**
     * Records the vertex pass (`recordVertexPass`): positions (y) and normals of `rect` (field
     * vertices, inside `window`) into the vertex buffers of the ground that is `window` of the field.
     * @param cellSize distance between neighbouring vertices in local units
     */
    public regenerateVertices(rect: GridRect, window: GridRect, positions: ComputeBuffer, normals: ComputeBuffer, cellSize: number): void {
        this._assertLive();
        recordVertexPass(this._recorder, this._buffers, rect, window, positions, normals, cellSize);
    }

    /** Runs everything recorded so far. */
    public submit(): void {
        this._recorder.submit();
    }

    /** Reads the whole state back (submitting first). `cycle` and `batch` are the caller's position. */
    public async readState(cycle: number, batch: number): Promise<ErosionStateData> {
        this._assertLive();
        this.submit();
        return readGpuState(this.device, this._buffers, this._materials, cloneMasks(this._masks.uploaded), cycle, batch);
    }

    /** Reads the erosion maps back (submitting first). */
    public async readMaps(): Promise<ErosionMaps> {
        this._assertLive();
        this.submit();
        return readGpuMaps(this.device, this._buffers);
    }

    /** Starts the maps again from zero. */
    public resetMaps(): void {
        const zeros = new Uint32Array(this.width * this.depth);
        this.writeMaps({ water: zeros, wear: zeros, deposition: zeros });
    }

    /** Replaces the maps. */
    public writeMaps(maps: ErosionMaps): void {
        this._recorder.beforeWrite();
        this.device.writeBuffer(this._buffers.bound("mapWater"), maps.water);
        this.device.writeBuffer(this._buffers.bound("mapWear"), maps.wear);
        this.device.writeBuffer(this._buffers.bound("mapDeposition"), maps.deposition);
    }

    /** Compiles the maps-texture passes (Babylon devices only). */
    public prepareMapsTexture(): Promise<void> {
        return this.device.prepareKernels(["write_maps", "write_area_map", "write_water_map", "write_material_map"]);
    }

    /**
     * Records the pass that writes the shallow water into `texture` (a Babylon RGBA32F storage texture
     * of width x depth; layout in `waterTexels`), `cellSize` the ground's cell size in local units;
     * `rows` of it only when given (each texture pass: `recordTexturePass`).
     */
    public writeWaterTexture(texture: unknown, cellSize: number, rows?: TextureRows): void {
        this._assertLive();
        recordWaterTexture(this._recorder, this._buffers, texture, cellSize, rows);
    }

    /**
     * Records the pass that writes the soil and rock into `texture` (a Babylon RGBA32F storage
     * texture of width x depth; layout in `materialTexels`), `rows` of it only when given.
     */
    public writeMaterialsTexture(texture: unknown, cellSize: number, rows?: TextureRows): void {
        this._assertLive();
        recordMaterialsTexture(this._recorder, this._buffers, texture, cellSize, rows);
    }

    /** Records the pass that writes the drainage area (cells) into `texture` (a Babylon R32F storage texture of width x depth). */
    public writeAreaTexture(texture: unknown, rows?: TextureRows): void {
        this._assertLive();
        recordTexturePass(this._recorder, this._buffers, "write_area_map", texture, {}, {}, rows);
    }

    /**
     * Records the pass that writes the maps into `texture` (a Babylon RGBA32F storage texture of
     * width x depth): water, wear and deposition in local units (`cellSize` is the ground's cell size
     * in them), and the drainage direction as the river operator routes it (across the seam when `tileable`).
     */
    public writeMapsTexture(texture: unknown, tileable: boolean, cellSize: number, rows?: TextureRows): void {
        this._assertLive();
        recordTexturePass(
            this._recorder, this._buffers, "write_maps", texture,
            { cellSizeBits: f32Bits(cellSize), wrap: tileable && this.width > 2 && this.depth > 2 ? 1 : 0 }, {}, rows
        );
    }

    /** Uploads whichever masks changed. */
    private _uploadMasks(masks: ErosionMasks): void {
        const writes = this._masks.writes(masks);
        if (writes.length > 0) this._recorder.beforeWrite();
        for (const { buffer, data } of writes) this.device.writeBuffer(buffer, data);
    }

    /**
     * The region checksums of the state after everything issued so far (`regionChecksums`: regions
     * of `size` vertices), computed on the device: 8 bytes a region come back, not the grids.
     */
    public async regionChecksums(size: number): Promise<Uint32Array> {
        this._assertLive();
        const { checksums, bytes } = recordRegionChecksums(this._recorder, this._buffers, size);
        return new Uint32Array(await this.device.readBuffer(checksums, 0, bytes));
    }

    /** Reads a rectangle of rows of the heights back (submitting first): rows `y0 .. y1 - 1`, all columns. */
    public async readHeightRows(y0: number, y1: number): Promise<Int32Array> {
        this._assertLive();
        this.submit();
        return new Int32Array(await this.device.readBuffer(this.heights, y0 * this.width * 4, (y1 - y0) * this.width * 4));
    }

    /** Frees every buffer this simulation created. Safe to call twice. */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        this._buffers.dispose();
    }

    /** Number of GPU buffers this simulation holds (for leak tests). */
    public get bufferCount(): number {
        return this._disposed ? 0 : this._buffers.all().length;
    }

    private _assertLive(): void {
        if (this._disposed) {
            throw new Error("GpuErosionSimulation: used after dispose().");
        }
    }

    private _ensureBrush(table: Int32Array): void {
        if (this._brushTable === table) {
            return;
        }
        this._recorder.beforeWrite();
        this._buffers.growBrush(table.byteLength);
        if (table.length > 0) {
            this.device.writeBuffer(this._buffers.bound("brush"), table);
        }
        this._brushTable = table;
    }
}
