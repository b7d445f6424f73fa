/**
 * The WebGPU backend: the simulation state in GPU buffers and the dispatch order of one batch.
 *
 * A hydraulic batch is erode_droplets (one invocation per droplet), then the fold over the
 * droplets' reach: clip_delta, SEDIMENT_HOPS hops of the sediment routing (route_sediment, the last
 * route_sediment_last), then over the batch's extent apply_delta, fill_levels and copy_levels. A
 * river batch is river_slots, `stepsPerBatch` x (river_accumulate, copy_area), river_erode,
 * river_uplift, river_settle over its patch, `stepsPerBatch` hops of the sediment routing, then
 * apply_delta, fill_levels and copy_levels over its extent. A thermal batch is `iterations` x
 * (thermal_flux over the patch, thermal_apply over the patch grown by one). On a tileable terrain
 * every batch ends with tile_seam. Dispatches of one submission run in order, so each batch reads
 * the ground the previous one left, exactly as the CPU reference does.
 */
import { BATCH_PARAM_FIELDS, BATCH_PARAMS_STRIDE_BYTES, packBatchParams, type BatchParams } from "../core/batchParams.js";
import { COUNTER_COUNT } from "../core/counters.js";
import { maxPatchVertices } from "../core/patches.js";
import { cloneMasks, MASKED_OPERATORS, noMasks, STATE_GRIDS, type ErosionMasks, type ErosionStateData, type StateGridName } from "../core/erosionState.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import type { PlannedBatch } from "../core/schedule.js";
import type { GridRect } from "../core/patches.js";
import { THERMAL_SLOTS } from "../core/thermalDirections.js";
import type { ComputeBuffer, ComputeDevice } from "./computeDevice.js";
import { DROPLET_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE, KERNELS, type KernelName } from "./shaderLibrary.js";

/**
 * Params slots: each batch recorded before a submit needs its own buffer, because a write lands at
 * once and a second write to one buffer would be what every earlier recorded dispatch reads.
 */
const PARAM_SLOTS = 32;

/** Workgroup counts of a droplet dispatch and the invocations per dispatch row. */
export interface DropletDispatch {
    readonly x: number;
    readonly y: number;
    readonly rowThreads: number;
}

/** Lays `count` invocations out in rows of at most `maxPerDimension` workgroups. */
export function planDropletDispatch(count: number, maxPerDimension: number): DropletDispatch {
    const groups = Math.ceil(count / DROPLET_WORKGROUP_SIZE);
    const x = Math.max(1, Math.min(groups, maxPerDimension));
    return { x, y: Math.max(1, Math.ceil(groups / x)), rowThreads: x * DROPLET_WORKGROUP_SIZE };
}

/** Bytes of one `i32` grid of `width x depth`. */
function gridBytes(width: number, depth: number): number {
    return width * depth * 4;
}

/** Runs erosion batches on a `ComputeDevice`. */
export class GpuErosionSimulation {
    /** Fixed-point heights, `i32` per vertex. Other GPU passes (vertex regeneration) may read it. */
    public readonly heights: ComputeBuffer;
    /** One buffer per grid of the state (`STATE_GRIDS`); `heights` is also the public field above. */
    private readonly _state: Record<StateGridName, ComputeBuffer>;
    private readonly _suspended: ComputeBuffer;
    private readonly _delta: ComputeBuffer;
    private readonly _counters: ComputeBuffer;
    private readonly _drainageArea: ComputeBuffer;
    private readonly _fillLevels: ComputeBuffer;
    private readonly _levelsNext: ComputeBuffer;
    /** The sediment in transit: two grids, the halves its hops alternate between. */
    private readonly _routed: ComputeBuffer;
    /** The drainage area's step before the copy back, and each vertex's river slot of the batch. */
    private readonly _areaNext: ComputeBuffer;
    private readonly _riverSlots: ComputeBuffer;
    private readonly _mapWater: ComputeBuffer;
    private readonly _mapWear: ComputeBuffer;
    private readonly _mapDeposition: ComputeBuffer;
    private readonly _waterBatch: ComputeBuffer;
    /** Stands in for an operator's mask when it has none (the kernels then never read it). */
    private readonly _noMask: ComputeBuffer;
    private readonly _maskBuffers: Record<(typeof MASKED_OPERATORS)[number], ComputeBuffer | null> = { hydraulic: null, thermal: null, rivers: null, uplift: null };
    private _uploadedMasks: ErosionMasks = noMasks();
    private _brush: ComputeBuffer;
    private _flux: ComputeBuffer;
    private readonly _paramSlots: ComputeBuffer[] = [];
    private _slotsUsed = 0;
    private _recorded = false;
    private _brushTable: Int32Array | null = null;
    private readonly _packed = new Int32Array(BATCH_PARAMS_STRIDE_BYTES / 4);
    private _disposed = false;

    /** Use `GpuErosionSimulation.create`, which also compiles the kernels. */
    private constructor(
        public readonly device: ComputeDevice,
        public readonly width: number,
        public readonly depth: number,
        patchSize: number
    ) {
        const bytes = gridBytes(width, depth);
        assertBindable(device, "heights", bytes, width, depth);
        this.heights = device.createBuffer("TerrainErosion.heights", bytes);
        this._suspended = device.createBuffer("TerrainErosion.suspended", bytes);
        this._delta = device.createBuffer("TerrainErosion.delta", bytes);
        this._counters = device.createBuffer("TerrainErosion.counters", COUNTER_COUNT * 8);
        this._drainageArea = device.createBuffer("TerrainErosion.drainageArea", bytes);
        this._fillLevels = device.createBuffer("TerrainErosion.fillLevels", bytes);
        this._state = { heights: this.heights, suspended: this._suspended, drainageArea: this._drainageArea, fillLevels: this._fillLevels };
        this._levelsNext = device.createBuffer("TerrainErosion.levelsNext", bytes);
        assertBindable(device, "sediment routing", 2 * bytes, width, depth);
        this._routed = device.createBuffer("TerrainErosion.routed", 2 * bytes);
        this._areaNext = device.createBuffer("TerrainErosion.areaNext", bytes);
        this._riverSlots = device.createBuffer("TerrainErosion.riverSlots", bytes);
        this._mapWater = device.createBuffer("TerrainErosion.mapWater", bytes);
        this._mapWear = device.createBuffer("TerrainErosion.mapWear", bytes);
        this._mapDeposition = device.createBuffer("TerrainErosion.mapDeposition", bytes);
        this._waterBatch = device.createBuffer("TerrainErosion.waterBatch", bytes);
        this._noMask = device.createBuffer("TerrainErosion.noMask", 16);
        this._brush = device.createBuffer("TerrainErosion.brush", 16);
        this._flux = this._createFlux(patchSize);
        for (let slot = 0; slot < PARAM_SLOTS; slot++) {
            this._paramSlots.push(device.createBuffer(`TerrainErosion.params${slot}`, BATCH_PARAMS_STRIDE_BYTES));
        }
    }

    /** Creates the buffers and compiles every kernel. */
    public static async create(device: ComputeDevice, width: number, depth: number, patchSize: number): Promise<GpuErosionSimulation> {
        const simulation = new GpuErosionSimulation(device, width, depth, patchSize);
        // The map passes need a Babylon storage texture; they are prepared on first use.
        await device.prepareKernels((Object.keys(KERNELS) as KernelName[]).filter((kernel) => !("texture" in KERNELS[kernel])));
        return simulation;
    }

    /** Replaces the whole GPU state (heights, suspended sediment, counters) with `state`. */
    public upload(state: ErosionStateData): void {
        if (state.width !== this.width || state.depth !== this.depth) {
            throw new RangeError(`upload: the state is ${state.width} x ${state.depth} but the GPU simulation is ${this.width} x ${this.depth}.`);
        }
        this._beforeWrite();
        for (const grid of STATE_GRIDS) {
            this.device.writeBuffer(this._state[grid], state[grid]);
        }
        this._uploadMasks(state.masks);
        this.device.writeBuffer(this._delta, new Int32Array(this.width * this.depth));
        const counters = new Uint32Array(COUNTER_COUNT * 2);
        for (let i = 0; i < COUNTER_COUNT; i++) {
            counters[2 * i] = state.counters[i] % 2 ** 32;
            counters[2 * i + 1] = Math.floor(state.counters[i] / 2 ** 32);
        }
        this.device.writeBuffer(this._counters, counters);
    }

    /** Records one batch's dispatches. */
    public runBatch(planned: PlannedBatch): void {
        this._assertLive();
        const params = { ...planned.params };
        this._uploadMasks(planned.masks);
        let slot: ComputeBuffer;
        if (planned.operator === "hydraulic" || planned.operator === "local") {
            this._ensureBrush(planned.brush);
            const dispatch = planDropletDispatch(params.dropletCount, this.device.maxWorkgroupsPerDimension);
            params.dispatchRowThreads = dispatch.rowThreads;
            slot = this._writeParams(params);
            this.device.dispatch("erode_droplets", { params: slot, heights: this.heights, delta: this._delta, brush: this._brush, counters: this._counters, mask: this._mask("hydraulic"), waterBatch: this._waterBatch }, dispatch.x, dispatch.y);
            const [rx, ry] = this._gridGroups(params.regionX1 - params.regionX0, params.regionY1 - params.regionY0);
            this.device.dispatch("clip_delta", { params: slot, heights: this.heights, fillLevels: this._fillLevels, delta: this._delta, suspended: this._suspended, routed: this._routed, mask: this._mask("hydraulic"), counters: this._counters }, rx, ry);
            this._routeAndFold(slot, params, false);
        } else if (planned.operator === "rivers") {
            slot = this._writeParams(params);
            this._runRivers(planned, slot, params);
        } else {
            this._ensureFlux(params);
            slot = this._writeParams(params);
            const [px, py] = this._gridGroups(params.patchX1 - params.patchX0, params.patchY1 - params.patchY0);
            const [rx, ry] = this._gridGroups(params.regionX1 - params.regionX0, params.regionY1 - params.regionY0);
            for (let step = 0; step < planned.thermalIterations; step++) {
                this.device.dispatch("thermal_flux", { params: slot, heights: this.heights, flux: this._flux, mask: this._mask("thermal") }, px, py);
                this.device.dispatch("thermal_apply", { params: slot, heights: this.heights, flux: this._flux, drainageArea: this._drainageArea, suspended: this._suspended, counters: this._counters, mapWear: this._mapWear, mapDeposition: this._mapDeposition }, rx, ry);
            }
        }
        if (params.seam !== 0) {
            this.device.dispatch("tile_seam", { params: slot, heights: this.heights, drainageArea: this._drainageArea, counters: this._counters }, Math.ceil((this.width + this.depth) / DROPLET_WORKGROUP_SIZE), 1);
        }
        this._recorded = true;
    }

    /** A river batch's dispatches (the order is the CPU's `runRiverBatch`). */
    private _runRivers(planned: PlannedBatch, slot: ComputeBuffer, params: BatchParams): void {
        const wrap = params.wrap !== 0;
        const x1 = wrap ? Math.min(params.patchX1, this.width - 1) : params.patchX1;
        const y1 = wrap ? Math.min(params.patchY1, this.depth - 1) : params.patchY1;
        const [px, py] = this._gridGroups(x1 - params.patchX0, y1 - params.patchY0);
        const [sx, sy] = this._gridGroups(x1 - params.patchX0 + 2, y1 - params.patchY0 + 2);
        this.device.dispatch("river_slots", { params: slot, heights: this.heights, fillLevels: this._fillLevels, riverSlots: this._riverSlots }, sx, sy);
        for (let step = 0; step < planned.riverSteps; step++) {
            this.device.dispatch("river_accumulate", { params: slot, riverSlots: this._riverSlots, drainageArea: this._drainageArea, areaNext: this._areaNext }, px, py);
            this.device.dispatch("copy_area", { params: slot, areaNext: this._areaNext, drainageArea: this._drainageArea }, px, py);
        }
        this.device.dispatch("river_erode", { params: slot, heights: this.heights, fillLevels: this._fillLevels, drainageArea: this._drainageArea, delta: this._delta, suspended: this._suspended, routed: this._routed, mask: this._mask("rivers") }, px, py);
        this.device.dispatch("river_uplift", { params: slot, heights: this.heights, delta: this._delta, mask: this._mask("uplift"), counters: this._counters }, px, py);
        this.device.dispatch("river_settle", { params: slot, heights: this.heights, fillLevels: this._fillLevels, suspended: this._suspended, routed: this._routed, counters: this._counters }, px, py);
        this._routeAndFold(slot, params, true);
    }

    /** The hops of the sediment routing, then apply_delta, fill_levels and copy_levels, over the batch's extent. */
    private _routeAndFold(slot: ComputeBuffer, params: BatchParams, rivers: boolean): void {
        const [ex, ey] = this._gridGroups(params.extentX1 - params.extentX0, params.extentY1 - params.extentY0);
        const mask = this._mask(rivers ? "rivers" : "hydraulic");
        for (let hop = 1; hop <= params.routeHops; hop++) {
            const odd = hop % 2 === 0;
            const kernel = hop < params.routeHops ? (odd ? "route_sediment_odd" : "route_sediment") : odd ? "route_sediment_last_odd" : "route_sediment_last";
            this.device.dispatch(kernel, { params: slot, heights: this.heights, fillLevels: this._fillLevels, routed: this._routed, suspended: this._suspended, delta: this._delta, mask, counters: this._counters }, ex, ey);
        }
        this.device.dispatch("apply_delta", { params: slot, heights: this.heights, delta: this._delta, waterBatch: this._waterBatch, mapWater: this._mapWater, mapWear: this._mapWear, mapDeposition: this._mapDeposition }, ex, ey);
        this.device.dispatch("fill_levels", { params: slot, heights: this.heights, fillLevels: this._fillLevels, levelsNext: this._levelsNext }, ex, ey);
        this.device.dispatch("copy_levels", { params: slot, levelsNext: this._levelsNext, fillLevels: this._fillLevels, routed: this._routed }, ex, ey);
    }

    /**
     * Records the vertex pass: positions (y) and normals of `rect` regenerated from the heights,
     * written into the given buffers (a ground's own vertex buffers).
     * @param cellSize distance between neighbouring vertices in local units
     */
    public regenerateVertices(rect: GridRect, positions: ComputeBuffer, normals: ComputeBuffer, cellSize: number): void {
        this._assertLive();
        const params = emptyParams(this.width, this.depth);
        params.regionX0 = rect.x0;
        params.regionY0 = rect.y0;
        params.regionX1 = rect.x1;
        params.regionY1 = rect.y1;
        params.cellSizeBits = floatBits(cellSize);
        const slot = this._writeParams(params);
        const [rx, ry] = this._gridGroups(rect.x1 - rect.x0, rect.y1 - rect.y0);
        this.device.dispatch("write_vertices", { params: slot, heights: this.heights, positions, normals }, rx, ry);
        this._recorded = true;
    }

    /** Runs everything recorded so far. */
    public submit(): void {
        this.device.submit();
        this._recorded = false;
        this._slotsUsed = 0;
    }

    /** Reads the whole state back (submitting first). `cycle` and `batch` are the caller's position. */
    public async readState(cycle: number, batch: number): Promise<ErosionStateData> {
        this._assertLive();
        this.submit();
        const bytes = gridBytes(this.width, this.depth);
        const [counters, ...grids] = await Promise.all([this.device.readBuffer(this._counters, 0, COUNTER_COUNT * 8), ...STATE_GRIDS.map((grid) => this.device.readBuffer(this._state[grid], 0, bytes))]);
        const words = new Uint32Array(counters);
        const counterValues = new Float64Array(COUNTER_COUNT);
        for (let i = 0; i < COUNTER_COUNT; i++) {
            counterValues[i] = words[2 * i] + words[2 * i + 1] * 2 ** 32;
        }
        const state = { width: this.width, depth: this.depth, cycle, batch, masks: cloneMasks(this._uploadedMasks), counters: counterValues } as ErosionStateData;
        STATE_GRIDS.forEach((grid, index) => (state[grid] = new Int32Array(grids[index])));
        return state;
    }

    /** Reads the erosion maps back (submitting first). */
    public async readMaps(): Promise<ErosionMaps> {
        this._assertLive();
        this.submit();
        const bytes = gridBytes(this.width, this.depth);
        const [water, wear, deposition] = await Promise.all([this._mapWater, this._mapWear, this._mapDeposition].map((buffer) => this.device.readBuffer(buffer, 0, bytes)));
        return { water: new Uint32Array(water), wear: new Uint32Array(wear), deposition: new Uint32Array(deposition) };
    }

    /** Starts the maps again from zero. */
    public resetMaps(): void {
        this._beforeWrite();
        const zeros = new Uint32Array(this.width * this.depth);
        for (const buffer of [this._mapWater, this._mapWear, this._mapDeposition]) {
            this.device.writeBuffer(buffer, zeros);
        }
    }

    /** Compiles the maps-texture passes (Babylon devices only). */
    public prepareMapsTexture(): Promise<void> {
        return this.device.prepareKernels(["write_maps", "write_area_map"]);
    }

    /** Records the pass that writes the drainage area (cells) into `texture` (a Babylon R32F storage texture of width x depth). */
    public writeAreaTexture(texture: unknown): void {
        this._assertLive();
        const slot = this._writeParams(emptyParams(this.width, this.depth));
        const [gx, gy] = this._gridGroups(this.width, this.depth);
        this.device.dispatch("write_area_map", { params: slot, drainageArea: this._drainageArea }, gx, gy, texture);
        this._recorded = true;
    }

    /**
     * Records the pass that writes the maps into `texture` (a Babylon RGBA32F storage texture of
     * width x depth): water, wear and deposition in local units (`cellSize` is the ground's cell size
     * in them), and the drainage direction as the river operator routes it (across the seam when `tileable`).
     */
    public writeMapsTexture(texture: unknown, tileable: boolean, cellSize: number): void {
        this._assertLive();
        const params = emptyParams(this.width, this.depth);
        params.cellSizeBits = floatBits(cellSize);
        params.wrap = tileable && this.width > 2 && this.depth > 2 ? 1 : 0;
        const slot = this._writeParams(params);
        const [gx, gy] = this._gridGroups(this.width, this.depth);
        this.device.dispatch("write_maps", { params: slot, heights: this.heights, fillLevels: this._fillLevels, mapWater: this._mapWater, mapWear: this._mapWear, mapDeposition: this._mapDeposition }, gx, gy, texture);
        this._recorded = true;
    }

    private _mask(operator: (typeof MASKED_OPERATORS)[number]): ComputeBuffer {
        return this._maskBuffers[operator] ?? this._noMask;
    }

    /** Uploads whichever masks changed (a new mask is a new array: the schedule hands them out whole). */
    private _uploadMasks(masks: ErosionMasks): void {
        for (const operator of MASKED_OPERATORS) {
            const mask = masks[operator];
            if (mask === this._uploadedMasks[operator]) {
                continue;
            }
            this._beforeWrite();
            if (mask) {
                this._maskBuffers[operator] ??= this.device.createBuffer(`TerrainErosion.${operator}Mask`, gridBytes(this.width, this.depth));
                this.device.writeBuffer(this._maskBuffers[operator]!, mask);
            }
            this._uploadedMasks = { ...this._uploadedMasks, [operator]: mask };
        }
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
        const masks = MASKED_OPERATORS.map((operator) => this._maskBuffers[operator]).filter((buffer): buffer is ComputeBuffer => buffer !== null);
        for (const buffer of [this.heights, this._suspended, this._delta, this._counters, this._drainageArea, this._areaNext, this._riverSlots, this._fillLevels, this._levelsNext, this._routed, this._mapWater, this._mapWear, this._mapDeposition, this._waterBatch, this._noMask, ...masks, this._brush, this._flux, ...this._paramSlots]) {
            this.device.destroyBuffer(buffer);
        }
        this._paramSlots.length = 0;
    }

    /** Number of GPU buffers this simulation holds (for leak tests). */
    public get bufferCount(): number {
        return this._disposed ? 0 : 17 + this._paramSlots.length + MASKED_OPERATORS.filter((operator) => this._maskBuffers[operator] !== null).length;
    }

    private _assertLive(): void {
        if (this._disposed) {
            throw new Error("GpuErosionSimulation: used after dispose().");
        }
    }

    /** Before overwriting a buffer that recorded dispatches read: run them first. */
    private _beforeWrite(): void {
        if (this._recorded) {
            this.submit();
        }
    }

    private _writeParams(params: BatchParams): ComputeBuffer {
        if (this._slotsUsed === PARAM_SLOTS) {
            this.submit();
        }
        const slot = this._paramSlots[this._slotsUsed++];
        this._packed.fill(0);
        packBatchParams(params, this._packed);
        this.device.writeBuffer(slot, this._packed.subarray(0, BATCH_PARAM_FIELDS.length));
        return slot;
    }

    private _ensureBrush(table: Int32Array): void {
        if (this._brushTable === table) {
            return;
        }
        this._beforeWrite();
        const bytes = Math.max(16, table.byteLength);
        if (this._brush.byteLength < bytes) {
            this.device.destroyBuffer(this._brush);
            this._brush = this.device.createBuffer("TerrainErosion.brush", bytes);
        }
        if (table.length > 0) {
            this.device.writeBuffer(this._brush, table);
        }
        this._brushTable = table;
    }

    private _createFlux(patchSize: number): ComputeBuffer {
        const bytes = maxPatchVertices(patchSize) * THERMAL_SLOTS * 4;
        assertBindable(this.device, "thermal flux", bytes, patchSize + 1, patchSize + 1);
        return this.device.createBuffer("TerrainErosion.thermalFlux", bytes);
    }

    private _ensureFlux(params: BatchParams): void {
        const needed = (params.patchX1 - params.patchX0) * (params.patchY1 - params.patchY0) * THERMAL_SLOTS * 4;
        if (this._flux.byteLength >= needed) {
            return;
        }
        this._beforeWrite();
        this.device.destroyBuffer(this._flux);
        this._flux = this._createFlux(Math.max(params.patchX1 - params.patchX0, params.patchY1 - params.patchY0));
    }

    private _gridGroups(columns: number, rows: number): [number, number] {
        return [Math.max(1, Math.ceil(columns / GRID_WORKGROUP_SIZE)), Math.max(1, Math.ceil(rows / GRID_WORKGROUP_SIZE))];
    }
}

function emptyParams(width: number, depth: number): BatchParams {
    const params = {} as BatchParams;
    for (const field of BATCH_PARAM_FIELDS) {
        params[field] = 0;
    }
    params.width = width;
    params.depth = depth;
    return params;
}

const floatScratch = new Float32Array(1);
const floatScratchBits = new Int32Array(floatScratch.buffer);

/** The bits of `value` as an f32, as an i32 (how a float travels in the i32 params block). */
function floatBits(value: number): number {
    floatScratch[0] = value;
    return floatScratchBits[0];
}

/** Throws a clear error when a buffer of `bytes` cannot be bound on this device. */
export function assertBindable(device: ComputeDevice, what: string, bytes: number, width: number, depth: number): void {
    if (bytes > device.maxStorageBufferBindingSize) {
        throw new RangeError(
            `The ${what} buffer of a ${width} x ${depth} grid needs ${bytes} bytes, more than this adapter's maxStorageBufferBindingSize of ${device.maxStorageBufferBindingSize} bytes. ` +
                `Use a smaller ground, or create the WebGPU engine with a larger limit (WebGPUEngine option deviceDescriptor: { requiredLimits: { maxStorageBufferBindingSize } }, up to the adapter's own limit), or use backend: "cpu".`
        );
    }
}
