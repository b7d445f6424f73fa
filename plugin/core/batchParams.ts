/**
 * The integers one batch runs with, derived from the options, the grid, the patch and the cycle.
 *
 * Both backends run a batch from the same `BatchParams`: the CPU kernels read the fields by name,
 * the GPU backend packs them into an `i32` storage buffer whose WGSL struct is generated from
 * `BATCH_PARAM_FIELDS`, so the two layouts cannot drift. Every float option is quantised here,
 * once, in JavaScript doubles, so the kernels see only integers.
 */
import { FIXED_ONE, quantiseQ16 } from "./fixedPoint.js";
import { cellScaledOptions, type GridSize } from "./worldScale.js";
import type { ErosionOptions } from "./options.js";
import { expandRect, type GridRect, type OperatorName, type Patch } from "./patches.js";
import { discCells, LOCAL_PATCH_BASE, type LocalErosionEvent } from "./localErosion.js";
import type { MaskName, OperatorMaskName } from "./erosionState.js";
import { MATERIAL_PARAM_FIELDS, materialParams, type MaterialParamName } from "./materialParams.js";

export { MATERIAL_PARAM_FIELDS, materialParams, type MaterialParamName } from "./materialParams.js";

/** Most of the drop below a cell (or rise above it) one step may cut (fill): 1/4, as a right shift. */
export const MAX_SHARE_SHIFT = 2;

/**
 * Most of its local relief a cell's height may move in one fold, as a right shift (1/8): a cut goes
 * at most an eighth of the way down to its lowest neighbour, a fill at most an eighth of the way up
 * to its lowest neighbour (a pit) or its highest (any other cell). Measured on 128^2 noise and cone
 * terrains at 10k droplets a batch: a quarter let single cells swing back by up to 1.14 m (1.1% of
 * the relief) between consecutive batches; an eighth kept every swing under 0.65 m.
 */
export const FOLD_RELIEF_SHIFT = 3;

/**
 * Most sediment one vertex passes downhill in one fold (2^27 - 1 fixed-point units, just under 2048
 * cells of height): eight neighbours' worth added to a suspended value of at most ACCUMULATOR_LIMIT
 * still fits an `i32`.
 */
export const ROUTE_LIMIT = 2 ** 27 - 1;

/**
 * Vertices sediment a droplet fold does not settle may move down in one fold, through ground where it
 * cannot settle (a river batch moves its load as many vertices as it propagates drainage area).
 */
export const SEDIMENT_HOPS = 4;

/**
 * Bound on the sum of all changes a batch writes to one cell's accumulator (2^30 - 1 fixed-point
 * units): each droplet step's write is capped so that `dropletsPerBatch * maxSteps` capped writes
 * stay inside it, and the fold adds suspended sediment (also bounded by it) without overflowing.
 */
export const ACCUMULATOR_LIMIT = 2 ** 30 - 1;

/** Field names of the batch parameter block, in buffer order. Each is one `i32`. */
export const BATCH_PARAM_FIELDS = [
    "width",
    "depth",
    // Droplet spawn rectangle: continuous positions in [spawnX0, spawnX1) x [spawnY0, spawnY1) cells.
    "spawnX0",
    "spawnY0",
    "spawnX1",
    "spawnY1",
    // Vertices a batch may change: for a hydraulic batch the spawn rectangle grown by the walk's
    // reach (the fold runs over it), for a river batch its patch (less the repeated last column and
    // row of a tileable terrain), for a thermal batch the patch grown by one (the thermal apply).
    "regionX0",
    "regionY0",
    "regionX1",
    "regionY1",
    // Vertices whose heights and fill levels a batch may change (apply_delta, fill_levels and
    // copy_levels run over it): the region grown by the sediment routing's hops (clipped to the field;
    // on a tileable terrain's torus, the whole width or depth once the hops reach across the seam).
    "extentX0",
    "extentY0",
    "extentX1",
    "extentY1",
    // The patch itself (thermal flux runs over it).
    "patchX0",
    "patchY0",
    "patchX1",
    "patchY1",
    "seed",
    "cycle",
    "patchIndex",
    "dropletCount",
    "dispatchRowThreads",
    "maxSteps",
    "inertia",
    "capacity",
    "minSlope",
    "erosion",
    "deposition",
    "waterRetained",
    "gravity",
    "initialWater",
    "initialSpeed",
    "minWater",
    "brushRadius",
    "brushCount",
    "depositAtEnd",
    "share",
    "stepCap",
    "talus",
    "talusDiagonal",
    "thermalRate",
    "neighbours",
    "openBoundary",
    // Local erosion (erodeAt): 1 to spawn droplets in the disc below instead of the spawn rectangle.
    "spawnDisc",
    // Disc centre and radius, Q16 cells.
    "discCentreX",
    "discCentreY",
    "discRadius",
    // How many hops of the sediment routing the batch runs (SEDIMENT_HOPS for a droplet fold, the
    // propagation steps for a river batch, 0 for thermal).
    "routeHops",
    // 1 where the operator has a mask (the kernels then read it), else 0.
    "hydraulicMasked",
    "thermalMasked",
    "riversMasked",
    "upliftMasked",
    // 1 where the mask of the batch's operator (hydraulic for a fold, rivers for a river batch) is
    // set: the sediment routing scales what settles by it.
    "routeMasked",
    // River erosion: K (Q16 per cycle), transport capacity (Q16), deposition fraction (Q16), uplift
    // (Q16 cells a cycle).
    "riverErosion",
    "riverCapacity",
    "riverDeposition",
    "riverUplift",
    // Drainage area (cells) from which a vertex is a channel whose deposits join the river's load;
    // 0 when the rivers are off or the rule is.
    "channelArea",
    // 1 on every batch of a tileable terrain (at least 3 x 3): its last column and row are made
    // equal to the first again after the batch (tile_seam).
    "seam",
    // 1 on a river batch of a tileable terrain: its kernels and its sediment wrap across the seam
    // (the torus of period (width - 1) x (depth - 1)).
    "wrap",
    // Rendering only (the vertex pass): the cell size in local units as the bits of an f32.
    "cellSizeBits",
    // GPU only (0 on the CPU): where a dispatch starts within its batch. For a thermal batch, where
    // its flux starts in the flux buffer, which holds one patch's flux for each batch of the
    // dispatch; for a grid pass of a whole-field batch run in pieces (`GpuErosionSimulation.runPieces`),
    // the first row of the band of rows the dispatch covers, counted from the pass's own first row.
    "dispatchOffset",
    // Shallow water: which pass of the step a water batch runs (WATER_PASSES). A water batch's other
    // options have their own names (WATER_PARAM_SLOTS) in slots of droplet fields, so the block
    // stays at 64 fields and one params buffer holds 256 batches.
    "waterPass",
] as const;

/**
 * A water batch's options, each by its own name, and the droplet field whose slot it travels in
 * (droplet and water batches never share a dispatch). The CPU's water kernels read them through
 * `waterParams`, the WGSL ones through the accessors `wgslWaterParamAccessors` generates (for
 * example `waterRain()`), so neither names a droplet field.
 */
export const WATER_PARAM_SLOTS = {
    /** Transport capacity factor (Q16). */
    waterCapacity: "capacity",
    /** Smallest slope the capacity uses (Q16). */
    waterMinSlope: "minSlope",
    /** Fraction of the capacity deficit picked up a step (Q16). */
    waterDissolving: "erosion",
    /** Fraction of the surplus laid down a step (Q16). */
    waterDeposition: "deposition",
    /** Water kept after evaporation, a step (Q16: one minus the evaporation). */
    waterKept: "waterRetained",
    /** Flow kept against friction, a step (Q16: one minus the friction). */
    waterFlowKept: "inertia",
    /** Rain a step (Q16 cells of water). */
    waterRain: "initialWater",
    /** 1 where water leaves through the field's edges, else 0. */
    waterOpenEdges: "openBoundary",
    /** 1 where the rain mask is set, else 0. */
    waterRainMasked: "routeMasked",
} as const;

/** Name of one water batch option. */
export type WaterParamName = keyof typeof WATER_PARAM_SLOTS;

/** A water batch's options by their own names. */
export type WaterParams = Record<WaterParamName, number>;

/** Name of one batch parameter (the uniform block's and the materials'). */
export type BatchParamName = (typeof BATCH_PARAM_FIELDS)[number] | MaterialParamName;

/** The integers one batch runs with (all fit in an `i32`; `seed` is a u32 stored bit for bit). */
export type BatchParams = Record<BatchParamName, number>;

/** The water options of a water batch's `params`, by their own names. */
export function waterParams(params: BatchParams): WaterParams {
    const named = {} as WaterParams;
    for (const name of Object.keys(WATER_PARAM_SLOTS) as WaterParamName[]) {
        named[name] = params[WATER_PARAM_SLOTS[name]];
    }
    return named;
}

/** `water`'s options in their slots of a batch's fields. */
function waterSlots(water: WaterParams): Partial<BatchParams> {
    const slots: Partial<BatchParams> = {};
    for (const name of Object.keys(WATER_PARAM_SLOTS) as WaterParamName[]) {
        slots[WATER_PARAM_SLOTS[name]] = water[name];
    }
    return slots;
}

/** The batch parameters that are columns of the field (moved together when a batch runs on part of it). */
export const COLUMN_FIELDS = ["spawnX0", "spawnX1", "regionX0", "regionX1", "extentX0", "extentX1", "patchX0", "patchX1"] as const;

/** The batch parameters that are rows of the field. */
export const ROW_FIELDS = ["spawnY0", "spawnY1", "regionY0", "regionY1", "extentY0", "extentY1", "patchY0", "patchY1"] as const;

/**
 * Bytes one packed `BatchParams` occupies: its i32 fields padded to a multiple of 16 bytes, the
 * element stride an array of structs needs in a uniform buffer (the WGSL struct carries the padding).
 */
export const BATCH_PARAMS_ENTRY_BYTES = Math.ceil((BATCH_PARAM_FIELDS.length * 4) / 16) * 16;

/**
 * Bytes of one uniform params buffer: WebGPU's guaranteed `maxUniformBufferBindingSize`. The params
 * are a uniform buffer, not a storage one, so they leave every kernel its 8 storage bindings.
 */
export const PARAMS_UNIFORM_BYTES = 65536;

/** Batches one dispatch can run (one params entry each): a larger class takes several dispatches. */
export const MAX_DISPATCH_BATCHES = Math.floor(PARAMS_UNIFORM_BYTES / BATCH_PARAMS_ENTRY_BYTES);

/** Number of the distance a droplet batch can reach beyond its spawn rectangle, in cells. */
export function dropletReach(maxSteps: number, brushRadius: number): number {
    return maxSteps + brushRadius + 1;
}

export type { GridSize } from "./worldScale.js";

const q16 = quantiseQ16;

/**
 * Builds the parameters of one batch.
 * @param options resolved options in force for the batch's cycle
 * @param grid the field's size
 * @param patch the patch the batch runs on
 * @param operator which operator runs
 * @param cycle index of the cycle, counted from 0 since the state's start
 * @param brushCount entries in the brush table for `options.hydraulic.brushRadius`
 * @param masks which operators have a mask
 */
export function buildBatchParams(options: Readonly<ErosionOptions>, grid: GridSize, patch: Patch, operator: OperatorName, cycle: number, brushCount: number, masks: Readonly<Record<OperatorMaskName, unknown>> = { hydraulic: null, thermal: null, rivers: null, uplift: null, rain: null }, waterPass = 0): BatchParams {
    const { width, depth } = grid;
    const scaledOptions = cellScaledOptions(options, grid);
    const hydraulic = scaledOptions.hydraulic;
    const thermal = scaledOptions.thermal;
    const spawn: GridRect = { x0: patch.x0, y0: patch.y0, x1: Math.min(patch.x1, width - 1), y1: Math.min(patch.y1, depth - 1) };
    const wrap = operator === "rivers" && options.tileable && width > 2 && depth > 2;
    // A water batch changes only its patch (each pass one Jacobi step's part), so its region and
    // extent are the patch.
    const region = operator === "water" ? patch : operator === "hydraulic" ? expandRect(spawn, dropletReach(hydraulic.maxSteps, hydraulic.brushRadius), width, depth) : operator === "rivers" ? { x0: patch.x0, y0: patch.y0, x1: wrap ? Math.min(patch.x1, width - 1) : patch.x1, y1: wrap ? Math.min(patch.y1, depth - 1) : patch.y1 } : expandRect(patch, 1, width, depth);
    const interiorCells = (spawn.x1 - spawn.x0) * (spawn.y1 - spawn.y0);
    const routeHops = operator === "rivers" ? scaledOptions.rivers.stepsPerBatch : operator === "thermal" || operator === "water" ? 0 : SEDIMENT_HOPS;
    const extentX = extentSpan(region.x0, region.x1, routeHops, width, wrap);
    const extentY = extentSpan(region.y0, region.y1, routeHops, depth, wrap);
    const walkSteps = hydraulic.dropletsPerBatch * hydraulic.maxSteps;
    const rate = (thermal.rate / (2 * thermal.neighbours)) * FIXED_ONE;
    // The integer options below are `| 0`: an options object can hold an integer as a double
    // (V8 keeps a field's numbers as doubles once one of them was), and a double field here makes
    // every kernel that reads it work in floating point (the river walk's keys and levels did, with
    // conversions at every vertex).
    const params: BatchParams = {
        width,
        depth,
        spawnX0: spawn.x0,
        spawnY0: spawn.y0,
        spawnX1: spawn.x1,
        spawnY1: spawn.y1,
        regionX0: region.x0,
        regionY0: region.y0,
        regionX1: region.x1,
        regionY1: region.y1,
        extentX0: extentX.start,
        extentY0: extentY.start,
        extentX1: extentX.end,
        extentY1: extentY.end,
        patchX0: patch.x0,
        patchY0: patch.y0,
        patchX1: patch.x1,
        patchY1: patch.y1,
        seed: options.seed | 0,
        cycle: cycle | 0,
        patchIndex: patch.index,
        dropletCount: hydraulic.dropletsPerBatch,
        dispatchRowThreads: 0,
        maxSteps: hydraulic.maxSteps,
        inertia: q16(hydraulic.inertia),
        capacity: q16(hydraulic.capacity),
        minSlope: q16(hydraulic.minSlope),
        erosion: q16(hydraulic.erosion),
        deposition: q16(hydraulic.deposition),
        waterRetained: FIXED_ONE - q16(hydraulic.evaporation),
        gravity: q16(hydraulic.gravity),
        initialWater: q16(hydraulic.initialWater),
        initialSpeed: q16(hydraulic.initialSpeed),
        minWater: q16(hydraulic.minWater),
        brushRadius: hydraulic.brushRadius | 0,
        brushCount,
        depositAtEnd: hydraulic.endOfWalk === "deposit" ? 1 : 0,
        // The share: the part of one cell's rainfall a droplet carries, at most one cell's
        // (docs/simulation.md, "What one batch may move"). It counts the walk in the options' own
        // steps, so a walk that featureSize lengthens carries as much per step as it did ("Units").
        share: Math.min(FIXED_ONE, Math.floor((interiorCells * FIXED_ONE) / (hydraulic.dropletsPerBatch * options.hydraulic.maxSteps))),
        stepCap: Math.max(1, Math.floor(ACCUMULATOR_LIMIT / walkSteps)),
        talus: q16(thermal.talus),
        talusDiagonal: q16(thermal.talus * Math.SQRT2),
        thermalRate: Math.floor(rate),
        neighbours: thermal.neighbours,
        openBoundary: thermal.boundary === "open" ? 1 : 0,
        spawnDisc: 0,
        discCentreX: 0,
        discCentreY: 0,
        discRadius: 0,
        routeHops: routeHops | 0,
        hydraulicMasked: masks.hydraulic ? 1 : 0,
        thermalMasked: masks.thermal ? 1 : 0,
        riversMasked: masks.rivers ? 1 : 0,
        upliftMasked: masks.uplift ? 1 : 0,
        routeMasked: (operator === "rivers" ? masks.rivers : operator === "hydraulic" ? masks.hydraulic : null) ? 1 : 0,
        riverErosion: q16(options.rivers.erosion),
        riverCapacity: q16(options.rivers.capacity),
        riverDeposition: q16(options.rivers.deposition),
        // A river batch's only: the fold takes it out of the soil's change (`nominalUplift`).
        riverUplift: operator === "rivers" ? q16(options.rivers.uplift) : 0,
        // With the materials' channel soil, slopes' debris stays on the channel's bed: no vertex is a channel to thermal.
        channelArea: options.rivers.enabled && !(options.materials.enabled && options.materials.channelSoil) ? options.rivers.channelArea | 0 : 0,
        seam: options.tileable && width > 2 && depth > 2 ? 1 : 0,
        wrap: wrap ? 1 : 0,
        cellSizeBits: 0,
        dispatchOffset: 0,
        waterPass,
        ...materialParams(options, thermal.talus),
    };
    if (operator === "water") {
        const water = options.water;
        Object.assign(
            params,
            waterSlots({
                waterCapacity: q16(water.capacity),
                waterMinSlope: q16(water.minSlope),
                waterDissolving: q16(water.dissolving),
                waterDeposition: q16(water.deposition),
                waterKept: FIXED_ONE - q16(water.evaporation),
                waterFlowKept: FIXED_ONE - q16(water.friction),
                waterRain: q16(water.rain),
                waterOpenEdges: water.boundary === "open" ? 1 : 0,
                waterRainMasked: masks.rain ? 1 : 0,
            })
        );
    }
    return params;
}

/**
 * The parameters of a local erosion event's batch: the cycle's options with the event's droplet
 * options, droplets spawned over the event's disc (clipped to the field), the share from the disc's
 * area, the fold over the disc's bounding box grown by the walk's reach.
 * @param eventIndex position of the event among the cycle's events
 */
export function buildLocalBatchParams(options: Readonly<ErosionOptions>, grid: GridSize, event: LocalErosionEvent, eventIndex: number, cycle: number, brushCount: number, masks: Readonly<Record<MaskName, unknown>>): BatchParams {
    const { width, depth } = grid;
    const reachCells = Math.ceil(event.radius / FIXED_ONE);
    const cx = Math.floor(event.centreX / FIXED_ONE);
    const cy = Math.floor(event.centreY / FIXED_ONE);
    const box: Patch = {
        index: LOCAL_PATCH_BASE + eventIndex,
        x0: Math.min(width - 2, Math.max(0, cx - reachCells)),
        y0: Math.min(depth - 2, Math.max(0, cy - reachCells)),
        x1: Math.max(1, Math.min(width - 1, cx + reachCells + 2)),
        y1: Math.max(1, Math.min(depth - 1, cy + reachCells + 2)),
    };
    const params = buildBatchParams({ ...options, hydraulic: { ...event.hydraulic, enabled: true, dropletsPerBatch: event.droplets } }, grid, box, "hydraulic", cycle, brushCount, masks);
    const walkSteps = event.droplets * event.hydraulic.maxSteps;
    params.spawnDisc = 1;
    params.discCentreX = event.centreX;
    params.discCentreY = event.centreY;
    params.discRadius = event.radius;
    params.share = Math.min(FIXED_ONE, Math.floor((discCells(event.radius) * FIXED_ONE) / walkSteps));
    return params;
}

/**
 * A region's span along one axis grown by `margin`: clipped to [0, size), or on a torus (`wrap`) the
 * whole axis once the grown span reaches past an edge (the real vertices it covers either way).
 */
function extentSpan(start: number, end: number, margin: number, size: number, wrap: boolean): { start: number; end: number } {
    if (wrap && (start - margin < 0 || end + margin > size - 1)) return { start: 0, end: size };
    return { start: Math.max(0, start - margin), end: Math.min(size, end + margin) };
}

/** The vertices a batch may change (its extent), as a rectangle. */
export function batchExtent(params: BatchParams): GridRect {
    return { x0: params.extentX0, y0: params.extentY0, x1: params.extentX1, y1: params.extentY1 };
}

/**
 * The vertices a river batch erodes: its patch, less the repeated last column and row of a tileable
 * terrain. The one rule for it: the CPU's river kernels, the WGSL's `riverRect` (river_rect.wgsl)
 * and the GPU's dispatch sizes all come from here.
 */
export function riverRect(params: BatchParams): GridRect {
    const wrap = params.wrap !== 0;
    return { x0: params.patchX0, y0: params.patchY0, x1: wrap ? Math.min(params.patchX1, params.width - 1) : params.patchX1, y1: wrap ? Math.min(params.patchY1, params.depth - 1) : params.patchY1 };
}

/** Params with every field 0 but the grid's size: what the passes over the whole field (vertices, map textures) start from. */
export function blankBatchParams(width: number, depth: number): BatchParams {
    const params = {} as BatchParams;
    for (const field of [...BATCH_PARAM_FIELDS, ...MATERIAL_PARAM_FIELDS]) {
        params[field] = 0;
    }
    params.width = width;
    params.depth = depth;
    return params;
}

const floatScratch = new Float32Array(1);
const floatScratchBits = new Int32Array(floatScratch.buffer);

/** The bits of `value` as an f32, as an i32: how a float (rendering only) travels in the i32 params block. */
export function f32Bits(value: number): number {
    floatScratch[0] = value;
    return floatScratchBits[0];
}

/** Writes `params` into `target` at `offsetInts` (an `i32` index), in `BATCH_PARAM_FIELDS` order. */
export function packBatchParams(params: BatchParams, target: Int32Array, offsetInts = 0): void {
    for (let i = 0; i < BATCH_PARAM_FIELDS.length; i++) {
        target[offsetInts + i] = params[BATCH_PARAM_FIELDS[i]];
    }
}

/** The WGSL declaration of `BatchParams`, generated from `BATCH_PARAM_FIELDS`, padded to `BATCH_PARAMS_ENTRY_BYTES`. */
export function wgslBatchParamsStruct(): string {
    const padding = Array.from({ length: BATCH_PARAMS_ENTRY_BYTES / 4 - BATCH_PARAM_FIELDS.length }, (_, i) => `padding${i}`);
    return `struct BatchParams {\n${[...BATCH_PARAM_FIELDS, ...padding].map((name) => `    ${name}: i32,`).join("\n")}\n}\n`;
}
