/**
 * The layout of a batch's integers (`BatchParams`): the uniform block's fields in buffer order
 * (the WGSL struct is generated from them), the water's slots in it, the fields that are columns
 * and rows of the field, the limits the kernels share, and packing a batch into the block.
 * `batchParams.ts` derives the values from the options.
 */
import { MATERIAL_PARAM_FIELDS, type MaterialParamName } from "./materialParams.js";

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

/** Largest gradient component a droplet uses, in fixed-point units per cell (2^30). */
export const GRADIENT_LIMIT = 2 ** 30;

/** Largest drainage area kept, in cells (2^30). */
export const DRAINAGE_AREA_LIMIT = 2 ** 30;

/** Largest sqrt(drainage area) stream power uses (2^15 - 1), so sqrt(A) x 2^16 stays an i32 in WGSL. */
export const ROOT_AREA_LIMIT = 2 ** 15 - 1;

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
    /** Which pipes may carry the one-unit push this step: 0 the x pipes, 1 the y pipes, 2 the diagonals (`unitPushPipesOf`). */
    waterUnitPipes: "initialSpeed",
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
export function waterSlots(water: WaterParams): Partial<BatchParams> {
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
