/**
 * The storage buffers of one `GpuErosionSimulation`: the list of what a grid needs and how large
 * each is (`gpuBufferNeeds`, also for callers that check a ground against an adapter before creating
 * anything), and the buffers themselves, created from that list, labelled, found by the binding the
 * kernels know them by, counted and destroyed in one place.
 */
import { COUNTER_COUNT, COUNTER_WORDS } from "../core/counters.js";
import { MASKED_OPERATORS, type OperatorMaskName } from "../core/erosionState.js";
import { maxPatchVertices } from "../core/patches.js";
import { THERMAL_SLOTS } from "../core/thermalDirections.js";
import type { ComputeBuffer, ComputeDevice } from "./computeDevice.js";
import type { BindingName } from "./kernelBindings.js";
import { WATER_CARRIED_GRIDS, type WaterGridName, type WaterViewGridName } from "../core/waterModel.js";
import { MATERIAL_GRIDS } from "../core/materialGrids.js";
import { MATERIAL_PARAM_FIELDS } from "../core/batchParams.js";

/** Bytes of one `i32` grid of `width x depth`. */
export function gridBytes(width: number, depth: number): number {
    return width * depth * 4;
}

/** Bytes of the thermal flux of a patch of `vertices` vertices: `THERMAL_SLOTS` `i32`s each. */
export function fluxBytes(vertices: number): number {
    return vertices * THERMAL_SLOTS * 4;
}

/** Bytes of the counters: `COUNTER_WORDS` `u32`s each. */
export const COUNTER_BYTES = COUNTER_COUNT * COUNTER_WORDS * 4;

/**
 * Bytes a stand-in buffer takes: bound where a kernel declares a buffer it will not read (no mask,
 * an empty brush), since a binding cannot be empty.
 */
const STAND_IN_BYTES = 16;

/** One storage buffer a grid needs: what it is, how the kernels bind it, and its size. */
export interface GpuBufferNeed {
    /** What error messages call it ("heights", "sediment routing", ...). */
    readonly what: string;
    /** The binding the kernels know it by. */
    readonly binding: BindingName;
    /** Size in bytes, at creation (the brush and the thermal flux grow when a batch needs more). */
    readonly bytes: number;
    /** Vertices per row and rows of the grid it holds, as error messages name them. */
    readonly width: number;
    readonly depth: number;
    /**
     * Who creates it: the simulation, or the ground, whose own vertex buffers the vertex pass writes
     * (bound, never created, by the simulation).
     */
    readonly owner: "simulation" | "ground";
}

/**
 * The storage buffers a `width x depth` grid eroded on the GPU binds, with their sizes: the
 * simulation's, then the ground's positions and normals (which the vertex pass writes). Every one
 * must fit the adapter's `maxStorageBufferBindingSize`; in this order, the first that does not is
 * the one an error should name (the heights before any other grid of the same size). Besides these,
 * the simulation holds 32 uniform params slots of `PARAMS_UNIFORM_BYTES` (64 KiB: up to
 * `MAX_DISPATCH_BATCHES` batches a dispatch), and one grid per mask once a mask is set. The thermal
 * flux grows to one patch's flux per batch of a dispatch.
 * @param patchSize the options' `patchSize` (the thermal flux holds the largest patch)
 */
export function gpuBufferNeeds(width: number, depth: number, patchSize: number): GpuBufferNeed[] {
    const grid = gridBytes(width, depth);
    const simulation = (what: string, binding: BindingName, bytes: number) => ({ what, binding, bytes, width, depth, owner: "simulation" as const });
    return [
        simulation("heights", "heights", grid),
        simulation("suspended sediment", "suspended", grid),
        simulation("delta", "delta", grid),
        simulation("drainage area", "drainageArea", grid),
        simulation("fill levels", "fillLevels", grid),
        simulation("next fill levels", "levelsNext", grid),
        simulation("next drainage area", "areaNext", grid),
        simulation("river slots", "riverSlots", grid),
        simulation("water map", "mapWater", grid),
        simulation("wear map", "mapWear", grid),
        simulation("deposition map", "mapDeposition", grid),
        simulation("batch water", "waterBatch", grid),
        // The two grids the sediment routing's hops alternate between: two bindings, since one
        // buffer of both is over the default 128 MiB binding from about 4096 x 4096.
        simulation("sediment routing", "routed", grid),
        simulation("next sediment routing", "routedNext", grid),
        simulation("counters", "counters", COUNTER_BYTES),
        simulation("brush", "brush", STAND_IN_BYTES),
        { what: "vertex positions", binding: "positions", bytes: width * depth * 12, width, depth, owner: "ground" },
        { what: "vertex normals", binding: "normals", bytes: width * depth * 12, width, depth, owner: "ground" },
        // A patch is at most patchSize + 1 vertices a side.
        {
            what: "thermal flux",
            binding: "flux",
            bytes: fluxBytes(maxPatchVertices(patchSize)),
            width: patchSize + 1,
            depth: patchSize + 1,
            owner: "simulation",
        },
    ];
}

/** Throws a clear error when a buffer of `bytes` cannot be bound on this device. */
export function assertBindable(device: ComputeDevice, what: string, bytes: number, width: number, depth: number): void {
    if (bytes > device.maxStorageBufferBindingSize) {
        throw new RangeError(
            `The ${what} buffer of a ${width} x ${depth} grid needs ${bytes} bytes, more than this ` +
                `adapter's maxStorageBufferBindingSize of ${device.maxStorageBufferBindingSize} bytes. ` +
                `Use a smaller ground, or create the WebGPU engine with a larger limit (WebGPUEngine option deviceDescriptor: ` +
                    `{ requiredLimits: { maxStorageBufferBindingSize } }, up to the adapter's own limit), or use backend: "cpu".`
        );
    }
}

/** The buffers a simulation creates at once, by binding. */
type OwnedBinding =
    "heights" | "suspended" | "delta" | "drainageArea" | "fillLevels" | "levelsNext" | "areaNext" | "riverSlots" | "mapWater" | "mapWear" | "mapDeposition" |
    "waterBatch" | "routed" | "routedNext" | "counters" | "brush" | "flux";

/** Labels of the buffers whose label is not `TerrainErosion.<binding>`. */
const LABELS: Partial<Record<OwnedBinding, string>> = { flux: "thermalFlux" };

/** Every buffer one simulation owns. */
export class SimulationBuffers {
    private readonly _owned = {} as Record<OwnedBinding, ComputeBuffer>;
    /** Stands in for an operator's mask when it has none (the kernels then never read it). */
    public readonly noMask: ComputeBuffer;
    private readonly _masks: Record<OperatorMaskName, ComputeBuffer | null> = { hydraulic: null, thermal: null, rivers: null, uplift: null, rain: null };
    /** One uniform params buffer per dispatch set recorded before a submit (see `GpuErosionSimulation`). */
    public readonly paramSlots: ComputeBuffer[] = [];
    /**
     * The water's grids (`WATER_CARRIED_GRIDS`, one buffer each: its state and the velocity it
     * carries) and the packed sources: created the first time water runs or a state with water is
     * uploaded (twelve grids: 805 MB at 4097^2, which a terrain that never rains does not pay for).
     */
    private _water: Record<WaterGridName | WaterViewGridName, ComputeBuffer> | null = null;
    private _sources: ComputeBuffer | null = null;
    /**
     * The materials' grids in one buffer (`MATERIAL_GRIDS` one after the other: the soil, then the
     * hardness factor) and their batch fields after them, made the first time they run or a state
     * with them is uploaded; until then a zeroed stand-in of its own (never bound beside the mask
     * stand-in, so no buffer is bound twice), whose `materials()` reads 0.
     */
    private _material: ComputeBuffer | null = null;
    private readonly _noMaterial: ComputeBuffer;

    /**
     * Checks that every buffer of `gpuBufferNeeds` the simulation owns can be bound (a `RangeError`
     * naming the first that cannot), then creates them and `paramSlots` uniform params buffers of `paramBytes`.
     */
    constructor(
        private readonly _device: ComputeDevice,
        public readonly width: number,
        public readonly depth: number,
        patchSize: number,
        paramSlots: number,
        paramBytes: number
    ) {
        const owned = gpuBufferNeeds(width, depth, patchSize).filter((need) => need.owner === "simulation");
        for (const need of owned) {
            assertBindable(_device, need.what, need.bytes, need.width, need.depth);
        }
        for (const need of owned) {
            this._owned[need.binding as OwnedBinding] = _device.createBuffer(label(need.binding as OwnedBinding), need.bytes);
        }
        this.noMask = _device.createBuffer("TerrainErosion.noMask", STAND_IN_BYTES);
        this._noMaterial = _device.createBuffer("TerrainErosion.noMaterial", STAND_IN_BYTES);
        for (let slot = 0; slot < paramSlots; slot++) {
            this.paramSlots.push(_device.createBuffer(`TerrainErosion.params${slot}`, paramBytes, "uniform"));
        }
    }

    /** Whether the water's buffers exist. */
    public get hasWater(): boolean {
        return this._water !== null;
    }

    /** Creates the water's buffers (zeroed: dry ground) if they do not exist; each is checked to be bindable. */
    public ensureWater(): void {
        if (this._water) return;
        const bytes = gridBytes(this.width, this.depth);
        assertBindable(this._device, "water", bytes, this.width, this.depth);
        const water = {} as Record<WaterGridName | WaterViewGridName, ComputeBuffer>;
        for (const grid of WATER_CARRIED_GRIDS) {
            water[grid] = this._device.createBuffer(`TerrainErosion.${grid}`, bytes);
        }
        this._water = water;
        this._sources = this._device.createBuffer("TerrainErosion.waterSources", STAND_IN_BYTES);
    }

    /** Destroys the water's buffers (a state without water was uploaded). */
    public dropWater(): void {
        for (const buffer of this._waterBuffers()) {
            this._device.destroyBuffer(buffer);
        }
        this._water = null;
        this._sources = null;
    }

    /** The packed water sources' buffer, at least `bytes` long (a new, empty one if it was shorter). */
    public sourcesBuffer(bytes: number): ComputeBuffer {
        this.ensureWater();
        if ((this._sources as ComputeBuffer).byteLength < bytes) {
            this._device.destroyBuffer(this._sources as ComputeBuffer);
            this._sources = this._device.createBuffer("TerrainErosion.waterSources", bytes);
        }
        return this._sources as ComputeBuffer;
    }

    private _waterBuffers(): ComputeBuffer[] {
        return this._water ? [...Object.values(this._water), this._sources as ComputeBuffer] : [];
    }

    /** Whether the materials' buffer exists. */
    public get hasMaterials(): boolean {
        return this._material !== null;
    }

    /** Creates the materials' buffer (checked to be bindable) if it does not exist; true if it was made now (its contents are then to be written). */
    public ensureMaterials(): boolean {
        if (this._material) return false;
        // The grids, then the materials' batch fields (`materialParamsOffset`).
        const bytes = gridBytes(this.width, this.depth) * MATERIAL_GRIDS.length + MATERIAL_PARAM_FIELDS.length * 4;
        assertBindable(this._device, "materials", bytes, this.width, this.depth);
        this._material = this._device.createBuffer("TerrainErosion.material", bytes);
        return true;
    }

    /** Destroys the materials' buffer (a state without them was uploaded). */
    public dropMaterials(): void {
        if (this._material) this._device.destroyBuffer(this._material);
        this._material = null;
    }

    /** The buffer a kernel binds as `binding` (not params, a mask, or the ground's vertex buffers, which each dispatch names). */
    public bound(binding: BindingName): ComputeBuffer {
        if (binding === "material") {
            return this._material ?? this._noMaterial;
        }
        if (binding === "waterSources" && this._sources) {
            return this._sources;
        }
        if (this._water && binding in this._water) {
            return this._water[binding as WaterGridName | WaterViewGridName];
        }
        const buffer = this._owned[binding as OwnedBinding];
        if (!buffer) {
            throw new Error(`Internal error: the simulation has no buffer for binding "${binding}".`);
        }
        return buffer;
    }

    /** The mask buffer of `operator`, or the stand-in when it has none. */
    public mask(operator: OperatorMaskName): ComputeBuffer {
        return this._masks[operator] ?? this.noMask;
    }

    /** The mask buffer of `operator`, created (one grid) on first use. */
    public ensureMask(operator: OperatorMaskName): ComputeBuffer {
        return (this._masks[operator] ??= this._device.createBuffer(`TerrainErosion.${operator}Mask`, gridBytes(this.width, this.depth)));
    }

    /** The region checksums' buffer, at least `bytes` long (made, or made again larger, on demand). */
    public checksums(bytes: number): ComputeBuffer {
        if (!this._checksums || this._checksums.byteLength < bytes) {
            if (this._checksums) this._device.destroyBuffer(this._checksums);
            this._checksums = this._device.createBuffer("TerrainErosion.checksums", bytes);
        }
        return this._checksums;
    }

    private _checksums: ComputeBuffer | null = null;

    /** Makes the brush at least `bytes` long: a new, empty buffer if it was shorter. */
    public growBrush(bytes: number): void {
        if (this._owned.brush.byteLength < bytes) {
            this._recreate("brush", bytes);
        }
    }

    /** Whether the thermal flux holds `vertices` vertices' flux. */
    public fluxFits(vertices: number): boolean {
        return this._owned.flux.byteLength >= fluxBytes(vertices);
    }

    /**
     * A new thermal flux for `vertices` vertices (the patches of `batches` batches of up to
     * `patchSide` vertices a side; checked to be bindable).
     */
    public replaceFlux(vertices: number, patchSide: number, batches: number): void {
        const bytes = fluxBytes(vertices);
        assertBindable(this._device, `thermal flux (${batches} patches)`, bytes, patchSide, patchSide);
        this._recreate("flux", bytes);
    }

    private _recreate(binding: "brush" | "flux", bytes: number): void {
        this._device.destroyBuffer(this._owned[binding]);
        this._owned[binding] = this._device.createBuffer(label(binding), bytes);
    }

    /** Every buffer held now: what `dispose` destroys and `GpuErosionSimulation.bufferCount` counts. */
    public all(): ComputeBuffer[] {
        const masks = MASKED_OPERATORS.map((operator) => this._masks[operator]).filter((buffer): buffer is ComputeBuffer => buffer !== null);
        return [
            ...Object.values(this._owned),
            this.noMask,
            this._noMaterial,
            ...masks,
            ...this.paramSlots,
            ...this._waterBuffers(),
            ...(this._material ? [this._material] : []),
            ...(this._checksums ? [this._checksums] : []),
        ];
    }

    /** Destroys every buffer. */
    public dispose(): void {
        for (const buffer of this.all()) {
            this._device.destroyBuffer(buffer);
        }
        this.paramSlots.length = 0;
        this._water = null;
        this._sources = null;
        this._material = null;
    }
}

function label(binding: OwnedBinding): string {
    return `TerrainErosion.${LABELS[binding] ?? binding}`;
}
