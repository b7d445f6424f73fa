/**
 * Assembles each kernel's WGSL: a generated header (constants, the `BatchParams` struct and its
 * binding), the shared helpers, and the kernel itself.
 *
 * Every constant the WGSL shares with TypeScript is written here from the TypeScript value, so
 * there is one source of truth. Shader source is static: only the integer constants below are ever
 * formatted into WGSL, each checked by `wgslInteger` to be a safe integer. No option value (and
 * no string of any kind) reaches shader text: options travel in the params buffer.
 */
import {
    ACCUMULATOR_LIMIT, FOLD_RELIEF_SHIFT, MAX_DISPATCH_BATCHES, MAX_SHARE_SHIFT, ROUTE_LIMIT, SEDIMENT_HOPS, wgslBatchParamsStruct,
} from "../core/batchParams.js";
import { wgslSlotAccessors } from "../core/editBatchParams.js";
import { BRUSH_ENTRY_INTS } from "../core/brush.js";
import { FILL_EPSILON } from "../core/fillLevels.js";
import { INVERSE_SQRT2_Q16 } from "../core/steepestDescent.js";
import {
    COUNTER_DROPLET_STEPS, COUNTER_EDIT_ADDED, COUNTER_EDIT_REMOVED, COUNTER_OUTFLOW, COUNTER_SATURATION_ADDED, COUNTER_SATURATION_REMOVED, COUNTER_SEAM_ADDED,
    COUNTER_SEAM_REMOVED, COUNTER_UPLIFT_ADDED, COUNTER_WATER_ADDED, COUNTER_WATER_EVAPORATED, COUNTER_WATER_OUTFLOW, COUNTER_WATER_REMOVED, COUNTER_WORDS,
} from "../core/counters.js";
import { MAP_LIMIT } from "../core/erosionMaps.js";
import { FIXED_ONE, HEIGHT_MAX_FIXED, HEIGHT_MIN_FIXED, SATURATION_LIMIT, U32_MAX } from "../core/fixedPoint.js";
import { HASH_MULTIPLIER_1, HASH_MULTIPLIER_2 } from "../core/hash.js";
import { FIRST_DIAGONAL_SLOT, OPPOSITE_SLOT, THERMAL_DX, THERMAL_DY, THERMAL_SLOTS } from "../core/thermalDirections.js";
import { GRADIENT_LIMIT } from "../core/cpu/droplets/dropletWalk.js";
import { DRAINAGE_AREA_LIMIT } from "../core/cpu/rivers/mirror/riverAccumulate.js";
import { ROOT_AREA_LIMIT } from "../core/cpu/rivers/mirror/riverErode.js";
import { ANGLE_STEPS, QUARTER_COSINES, QUARTER_TURN } from "../core/localErosion.js";
import { SHADER_SOURCES } from "../generated/shaderSources.generated.js";
import {
    FLUX_LIMIT, GRADIENT_COMPONENT_LIMIT, PIPE_AXIS_Q16, PIPE_DIAGONAL_Q16, SURFACE_DIFFERENCE_LIMIT, WATER_LIMIT, WATER_SEDIMENT_LIMIT,
} from "../core/waterModel.js";
import { SOURCE_ENTRY_INTS } from "../core/waterSources.js";
import { HARDNESS_MAX, HARDNESS_ONE, SOIL_LIMIT, STRATA_STREAM, wgslMaterialAccessors } from "../core/materials.js";
import { CHECKSUM_WORKGROUP_SIZE, LANE_A_START, LANE_B_START } from "../core/checksums/regionChecksums.js";

/** Invocations per workgroup of the droplet kernel (1D, dispatched as 2D rows). */
export const DROPLET_WORKGROUP_SIZE = 64;

/** Side of the square workgroups of the grid kernels. */
export const GRID_WORKGROUP_SIZE = 8;

/** Binding numbers (group 0) of every storage buffer the kernels use. */
export const BINDINGS = {
    params: 0,
    heights: 1,
    delta: 2,
    suspended: 3,
    counters: 4,
    brush: 5,
    flux: 6,
    positions: 7,
    normals: 8,
    drainageArea: 9,
    areaNext: 10,
    mask: 11,
    mapWater: 12,
    mapWear: 13,
    mapDeposition: 14,
    waterBatch: 15,
    mapsTexture: 16,
    fillLevels: 17,
    levelsNext: 18,
    routed: 19,
    routedNext: 20,
    riverSlots: 21,
    areaTexture: 22,
    waterDepth: 23,
    waterSediment: 24,
    fluxX: 25,
    fluxY: 26,
    fluxD1: 27,
    fluxD2: 28,
    outflowScale: 29,
    waterNext: 30,
    sedimentNext: 31,
    groundChange: 32,
    waterSources: 33,
    waterTexture: 34,
    checksums: 35,
    material: 36,
    materialTexture: 37,
    velocityX: 38,
    velocityY: 39,
} as const;

/** A buffer a kernel binds. */
export type BindingName = keyof typeof BINDINGS;

/** Where a kernel's CPU mirror is: `file` under `plugin/`, and the function `name` there. */
export interface KernelMirror {
    readonly file: string;
    readonly name: string;
}

/** The bindings the kernels declare as uniform buffers (every other buffer is a storage buffer). */
export const UNIFORM_BINDINGS: ReadonlySet<BindingName> = new Set(["params"]);

/** What `KERNELS` says of a kernel. */
export interface KernelSpec {
    /** The buffers it binds, by name (their numbers: `BINDINGS`). */
    readonly bindings: readonly BindingName[];
    /** Whether it adds to the counters (`counters.wgsl` included). */
    readonly counters: boolean;
    /** Files of `shaders/` it includes, after itself. */
    readonly includes?: readonly string[];
    /** Its storage texture, bound by the device. */
    readonly texture?: BindingName;
    /** The file in `shaders/` it is built from, when it shares another kernel's (default: its own name). */
    readonly source?: string;
    /** Two bindings the source's declarations take the other way round (a ping-pong kernel's odd twin). */
    readonly swapped?: readonly [BindingName, BindingName];
    /** WGSL constants the source reads, set per kernel (booleans or integers). */
    readonly constants?: Readonly<Record<string, boolean | number>>;
    /** Its CPU mirror: the file under `plugin/` and the function there that computes the same integers (for the rendering kernels, the same values). */
    readonly mirror: KernelMirror;
}

/**
 * The kernels: each built from one file in `shaders/` (its own name, or `source` where kernels
 * share a file and differ by `swapped` bindings and `constants`: the ping-pong hops and steps),
 * with the buffers it binds, its includes, its storage texture and its CPU mirror (the kernels'
 * tests open each mirror).
 */
export const KERNELS = {
    // Two builds of each kernel whose hot loop the materials' rule would slow: without the rule
    // (MATERIALS false, the code folded away) and with it, dispatched by the class's params.
    erode_droplets: {
        bindings: ["params", "heights", "delta", "brush", "counters", "mask", "waterBatch", "material"], counters: true, includes: ["materials"],
        constants: { MATERIALS: false }, mirror: { file: "core/cpu/droplets/erodeDroplets.ts", name: "erodeDroplets" },
    },
    erode_droplets_materials: {
        bindings: ["params", "heights", "delta", "brush", "counters", "mask", "waterBatch", "material"], counters: true, includes: ["materials"],
        source: "erode_droplets", constants: { MATERIALS: true }, mirror: { file: "core/cpu/droplets/erodeDroplets.ts", name: "erodeDroplets" },
    },
    clip_delta: {
        bindings: ["params", "heights", "fillLevels", "delta", "suspended", "routed", "mask", "counters"], counters: true, includes: ["sediment_routing"],
        mirror: { file: "core/cpu/fold/clipDelta.ts", name: "clipDelta" },
    },
    route_sediment: {
        bindings: ["params", "heights", "fillLevels", "routed", "routedNext", "suspended", "delta", "mask", "counters"], counters: true,
        includes: ["route_hop", "sediment_routing"], constants: { PASS_ON: true }, mirror: { file: "core/cpu/fold/routeSediment.ts", name: "routeSediment" },
    },
    route_sediment_odd: {
        bindings: ["params", "heights", "fillLevels", "routed", "routedNext", "suspended", "delta", "mask", "counters"], counters: true,
        includes: ["route_hop", "sediment_routing"], source: "route_sediment", swapped: ["routed", "routedNext"], constants: { PASS_ON: true },
        mirror: { file: "core/cpu/fold/routeSediment.ts", name: "routeSediment" },
    },
    route_sediment_last: {
        bindings: ["params", "heights", "fillLevels", "routed", "routedNext", "suspended", "delta", "mask", "counters"], counters: true,
        includes: ["route_hop", "sediment_routing"], source: "route_sediment", constants: { PASS_ON: false },
        mirror: { file: "core/cpu/fold/routeSediment.ts", name: "routeSediment" },
    },
    route_sediment_last_odd: {
        bindings: ["params", "heights", "fillLevels", "routed", "routedNext", "suspended", "delta", "mask", "counters"], counters: true,
        includes: ["route_hop", "sediment_routing"], source: "route_sediment", swapped: ["routed", "routedNext"], constants: { PASS_ON: false },
        mirror: { file: "core/cpu/fold/routeSediment.ts", name: "routeSediment" },
    },
    apply_delta: {
        bindings: ["params", "heights", "delta", "waterBatch", "mapWater", "mapWear", "mapDeposition", "material", "mask"], counters: false,
        includes: ["maps", "river_rect", "materials"], mirror: { file: "core/cpu/fold/applyDelta.ts", name: "applyDelta" },
    },
    fill_levels: {
        bindings: ["params", "heights", "fillLevels", "levelsNext"], counters: false, includes: ["sediment_routing"],
        mirror: { file: "core/cpu/fold/fillLevels.ts", name: "fillLevelStep" },
    },
    copy_levels: {
        bindings: ["params", "levelsNext", "fillLevels", "routed", "routedNext"], counters: false,
        mirror: { file: "core/cpu/fold/fillLevels.ts", name: "copyLevels" },
    },
    thermal_flux: {
        bindings: ["params", "heights", "flux", "mask", "material"], counters: false, includes: ["materials"], constants: { MATERIALS: false },
        mirror: { file: "core/cpu/thermal/thermalFlux.ts", name: "thermalFlux" },
    },
    thermal_flux_materials: {
        bindings: ["params", "heights", "flux", "mask", "material"], counters: false, includes: ["materials"], source: "thermal_flux",
        constants: { MATERIALS: true }, mirror: { file: "core/cpu/thermal/thermalFlux.ts", name: "thermalFlux" },
    },
    thermal_apply: {
        bindings: ["params", "heights", "flux", "drainageArea", "suspended", "counters", "mapWear", "mapDeposition", "material"], counters: true,
        includes: ["maps", "materials"], mirror: { file: "core/cpu/thermal/thermalApply.ts", name: "thermalApply" },
    },
    river_slots: {
        bindings: ["params", "heights", "fillLevels", "riverSlots"], counters: false, includes: ["river_rect", "sediment_routing"],
        mirror: { file: "core/cpu/rivers/mirror/riverSlots.ts", name: "riverSlots" },
    },
    river_accumulate: {
        bindings: ["params", "riverSlots", "drainageArea", "areaNext"], counters: false, includes: ["river_rect", "area_step"], constants: { ODD_STEP: false },
        mirror: { file: "core/cpu/rivers/mirror/riverAccumulate.ts", name: "riverAreaStep" },
    },
    river_accumulate_odd: {
        bindings: ["params", "riverSlots", "drainageArea", "areaNext"], counters: false, includes: ["river_rect", "area_step"], source: "river_accumulate",
        constants: { ODD_STEP: true }, mirror: { file: "core/cpu/rivers/mirror/riverAccumulate.ts", name: "riverAreaStep" },
    },
    copy_area: {
        bindings: ["params", "areaNext", "drainageArea"], counters: false, includes: ["river_rect"],
        mirror: { file: "core/cpu/rivers/mirror/riverAccumulate.ts", name: "copyArea" },
    },
    river_erode: {
        bindings: ["params", "heights", "fillLevels", "drainageArea", "delta", "suspended", "routed", "mask", "material"], counters: false,
        includes: ["river_rect", "river_power", "sediment_routing", "materials"], mirror: { file: "core/cpu/rivers/mirror/riverErode.ts", name: "riverErode" },
    },
    river_uplift: {
        bindings: ["params", "heights", "delta", "mask", "counters"], counters: true, includes: ["river_rect"],
        mirror: { file: "core/cpu/rivers/mirror/riverErode.ts", name: "riverUplift" },
    },
    river_settle: {
        bindings: ["params", "heights", "fillLevels", "suspended", "routed", "counters"], counters: true, includes: ["river_rect", "sediment_routing"],
        mirror: { file: "core/cpu/rivers/mirror/riverErode.ts", name: "riverSettle" },
    },
    ground_edit: {
        bindings: ["params", "heights", "fillLevels", "delta", "waterSediment", "counters", "material"], counters: true, includes: ["materials"],
        mirror: { file: "core/cpu/edits/applyGroundEdit.ts", name: "applyGroundEdit" },
    },
    tile_seam: {
        bindings: ["params", "heights", "drainageArea", "counters", "material"], counters: true, includes: ["materials"],
        mirror: { file: "core/cpu/fold/tileSeam.ts", name: "tileSeam" },
    },
    water_flux: {
        bindings: ["params", "heights", "waterDepth", "fluxX", "fluxY", "fluxD1", "fluxD2"], counters: false, includes: ["water_common"],
        mirror: { file: "core/cpu/water/waterPipes.ts", name: "waterFlux" },
    },
    water_scale: {
        bindings: ["params", "waterDepth", "fluxX", "fluxY", "fluxD1", "fluxD2", "outflowScale"], counters: false, includes: ["water_common", "water_pipes"],
        mirror: { file: "core/cpu/water/waterPipes.ts", name: "waterScale" },
    },
    water_limit: {
        bindings: ["params", "outflowScale", "fluxX", "fluxY", "fluxD1", "fluxD2"], counters: false, includes: ["water_common"],
        mirror: { file: "core/cpu/water/waterPipes.ts", name: "waterLimit" },
    },
    water_transport: {
        bindings: ["params", "waterDepth", "waterSediment", "fluxX", "fluxY", "fluxD1", "fluxD2", "waterNext", "sedimentNext"], counters: false,
        includes: ["water_common"], mirror: { file: "core/cpu/water/waterTransport.ts", name: "waterTransport" },
    },
    water_erode: {
        bindings: ["params", "heights", "fillLevels", "fluxX", "fluxY", "fluxD1", "fluxD2", "sedimentNext", "groundChange"], counters: false,
        includes: ["water_common", "water_pipes", "sediment_routing"], mirror: { file: "core/cpu/water/waterErode.ts", name: "waterErode" },
    },
    water_depth: {
        bindings: ["params", "waterDepth", "waterSediment", "waterNext", "sedimentNext", "groundChange", "mask", "waterSources", "counters"], counters: true,
        includes: ["water_common"], mirror: { file: "core/cpu/water/waterDepth.ts", name: "waterDepth" },
    },
    water_velocity: {
        bindings: ["params", "waterDepth", "fluxX", "fluxY", "fluxD1", "fluxD2", "velocityX", "velocityY"], counters: false,
        includes: ["water_common", "water_pipes"], mirror: { file: "core/cpu/water/waterVelocity.ts", name: "waterVelocity" },
    },
    water_apply: {
        bindings: ["params", "heights", "groundChange", "outflowScale", "waterSediment", "mapWear", "mapDeposition", "material"], counters: false,
        includes: ["water_common", "maps", "materials"], mirror: { file: "core/cpu/water/waterBatch.ts", name: "waterApply" },
    },
    region_checksums: {
        bindings: ["params", "heights", "suspended", "drainageArea", "fillLevels", "waterDepth", "waterSediment", "fluxX", "checksums"], counters: false,
        includes: ["checksum_mix"], mirror: { file: "core/checksums/regionChecksums.ts", name: "regionChecksums" },
    },
    region_checksums_materials: {
        bindings: ["params", "material", "checksums"], counters: false, includes: ["checksum_mix"],
        mirror: { file: "core/checksums/regionChecksums.ts", name: "regionChecksums" },
    },
    region_checksums_water: {
        bindings: ["params", "fluxY", "fluxD1", "fluxD2", "outflowScale", "waterNext", "sedimentNext", "groundChange", "checksums"], counters: false,
        includes: ["checksum_mix"], mirror: { file: "core/checksums/regionChecksums.ts", name: "regionChecksums" },
    },
    write_vertices: {
        bindings: ["params", "heights", "positions", "normals"], counters: false, mirror: { file: "core/vertexNormals.ts", name: "writeNormalRow" },
    },
    // The maps texture is a storage texture, bound by the device (Babylon only), not a buffer.
    write_maps: {
        bindings: ["params", "heights", "fillLevels", "mapWater", "mapWear", "mapDeposition"], counters: false, includes: ["sediment_routing"],
        texture: "mapsTexture", mirror: { file: "core/erosionMaps.ts", name: "mapsTexels" },
    },
    write_area_map: {
        bindings: ["params", "drainageArea"], counters: false, texture: "areaTexture", mirror: { file: "core/erosionMaps.ts", name: "mapsTexels" },
    },
    init_soil: {
        bindings: ["params", "heights", "material"], counters: false, includes: ["materials"], mirror: { file: "core/materials.ts", name: "writeInitialSoil" },
    },
    hardness_factors: {
        bindings: ["params", "delta", "material"], counters: false, includes: ["materials"],
        mirror: { file: "core/hardnessMap.ts", name: "writeHardnessFactors" },
    },
    write_material_map: {
        bindings: ["params", "heights", "material"], counters: false, includes: ["materials"], texture: "materialTexture",
        mirror: { file: "core/materialMaps.ts", name: "materialTexels" },
    },
    write_water_map: {
        bindings: ["params", "heights", "waterDepth", "velocityX", "velocityY"], counters: false, texture: "waterTexture",
        mirror: { file: "core/waterMaps.ts", name: "waterTexels" },
    },
} as const satisfies Record<string, KernelSpec>;

/**
 * The CPU mirrors of what the shaders share and of a kernel's helpers, beyond `KERNELS`' one
 * function per kernel: for each file in `shaders/` (a kernel or an included file), the functions
 * and constants in `plugin/` that compute the same values. The kernels' tests open each one.
 */
export const SHADER_MIRRORS: Readonly<Record<string, readonly KernelMirror[]>> = {
    common: [
        { file: "core/fixedPoint.ts", name: "mulQ16" },
        { file: "core/fixedPoint.ts", name: "mulQ16Sat" },
        { file: "core/fixedPoint.ts", name: "sqrtQ16" },
        { file: "core/hash.ts", name: "hash4" },
        { file: "core/steepestDescent.ts", name: "neighbourAt" },
    ],
    counters: [{ file: "core/counters.ts", name: "COUNTER_NAMES" }],
    maps: [{ file: "core/erosionMaps.ts", name: "recordChange" }],
    materials: [
        { file: "core/materials.ts", name: "soilAfter" },
        { file: "core/materials.ts", name: "rockTaken" },
        { file: "core/materials.ts", name: "hardnessOf" },
        { file: "core/materials.ts", name: "bedHardness" },
        { file: "core/materials.ts", name: "vertexHardness" },
        { file: "core/materials.ts", name: "thermalMaterialAmount" },
        { file: "core/materials.ts", name: "materialCut" },
        { file: "core/materials.ts", name: "rockThreshold" },
    ],
    apply_delta: [{ file: "core/cpu/fold/soilFold.ts", name: "nominalUplift" }],
    sediment_routing: [
        { file: "core/steepestDescent.ts", name: "sedimentSlot" },
        { file: "core/steepestDescent.ts", name: "riverSlot" },
        { file: "core/settling.ts", name: "fillRoom" },
    ],
    route_hop: [{ file: "core/cpu/fold/routeSediment.ts", name: "routeSediment" }],
    copy_levels: [{ file: "core/cpu/fold/routeSediment.ts", name: "clearRouted" }],
    river_rect: [{ file: "core/batchParams.ts", name: "riverRect" }],
    area_step: [{ file: "core/cpu/rivers/mirror/riverAccumulate.ts", name: "riverAreaStep" }],
    river_power: [{ file: "core/cpu/rivers/mirror/riverErode.ts", name: "riverErosionAt" }],
    river_erode: [{ file: "core/cpu/rivers/mirror/riverErode.ts", name: "riverErosionAt" }],
    erode_droplets: [
        { file: "core/localErosion.ts", name: "discDirection" },
        { file: "core/cpu/droplets/dropletMaterials.ts", name: "MaterialCuts" },
    ],
    water_common: [
        { file: "core/waterModel.ts", name: "truncMulQ16" },
        { file: "core/waterModel.ts", name: "fractionQ16" },
        { file: "core/waterModel.ts", name: "hypotenuse" },
        { file: "core/cpu/water/waterErode.ts", name: "dischargeAt" },
    ],
    water_pipes: [
        { file: "core/cpu/water/waterPipes.ts", name: "outflowAt" },
        { file: "core/cpu/water/waterErode.ts", name: "flowVector" },
        { file: "core/cpu/water/waterVelocity.ts", name: "flowThrough" },
    ],
    water_velocity: [{ file: "core/cpu/water/waterVelocity.ts", name: "waterVelocityAt" }],
    write_maps: [{ file: "core/erosionMaps.ts", name: "drainageDirections" }],
    checksum_mix: [
        { file: "core/checksums/regionChecksums.ts", name: "mixWord" },
        { file: "core/checksums/regionChecksums.ts", name: "regionGrid" },
    ],
};

/** A kernel's name (its file in `shaders/` without `.wgsl`). */
export type KernelName = keyof typeof KERNELS;

function wgslInteger(value: number): string {
    if (!Number.isSafeInteger(value) || Math.abs(value) > 2 ** 32) {
        throw new Error(`Internal error: ${value} is not an integer that may be written into WGSL.`);
    }
    return String(value);
}

function i32Const(name: string, value: number): string {
    return `const ${name}: i32 = ${wgslInteger(value)};`;
}

function u32Const(name: string, value: number): string {
    return `const ${name}: u32 = ${wgslInteger(value)}u;`;
}

function i32Array(name: string, values: readonly number[]): string {
    return `const ${name} = array<i32, ${values.length}>(${values.map(wgslInteger).join(", ")});`;
}

/**
 * The generated header every kernel starts with: every constant the WGSL shares with TypeScript
 * (a kernel writes none of their values out again: `test/unit/gpu/shaderConstants.test.ts`), the
 * `BatchParams` struct and its binding.
 */
export function shaderHeader(): string {
    return [
        "// Generated by plugin/gpu/shaderLibrary.ts from the TypeScript constants.",
        i32Const("FIXED_ONE", FIXED_ONE),
        i32Const("SATURATION_LIMIT", SATURATION_LIMIT),
        u32Const("U32_MAX", U32_MAX),
        i32Const("HEIGHT_MIN_FIXED", HEIGHT_MIN_FIXED),
        i32Const("HEIGHT_MAX_FIXED", HEIGHT_MAX_FIXED),
        i32Const("ACCUMULATOR_LIMIT", ACCUMULATOR_LIMIT),
        u32Const("MAX_SHARE_SHIFT", MAX_SHARE_SHIFT),
        i32Const("ROUTE_LIMIT", ROUTE_LIMIT),
        i32Const("SEDIMENT_HOPS", SEDIMENT_HOPS),
        i32Const("FILL_EPSILON", FILL_EPSILON),
        i32Const("INVERSE_SQRT2_Q16", INVERSE_SQRT2_Q16),
        u32Const("FOLD_RELIEF_SHIFT", FOLD_RELIEF_SHIFT),
        u32Const("COUNTER_OUTFLOW", COUNTER_OUTFLOW),
        u32Const("COUNTER_SATURATION_REMOVED", COUNTER_SATURATION_REMOVED),
        u32Const("COUNTER_SATURATION_ADDED", COUNTER_SATURATION_ADDED),
        u32Const("COUNTER_DROPLET_STEPS", COUNTER_DROPLET_STEPS),
        u32Const("COUNTER_UPLIFT_ADDED", COUNTER_UPLIFT_ADDED),
        u32Const("COUNTER_SEAM_ADDED", COUNTER_SEAM_ADDED),
        u32Const("COUNTER_EDIT_ADDED", COUNTER_EDIT_ADDED),
        u32Const("COUNTER_EDIT_REMOVED", COUNTER_EDIT_REMOVED),
        u32Const("COUNTER_SEAM_REMOVED", COUNTER_SEAM_REMOVED),
        u32Const("COUNTER_WATER_ADDED", COUNTER_WATER_ADDED),
        u32Const("COUNTER_WATER_EVAPORATED", COUNTER_WATER_EVAPORATED),
        u32Const("COUNTER_WATER_OUTFLOW", COUNTER_WATER_OUTFLOW),
        u32Const("COUNTER_WATER_REMOVED", COUNTER_WATER_REMOVED),
        u32Const("COUNTER_WORDS", COUNTER_WORDS),
        i32Const("PIPE_AXIS_Q16", PIPE_AXIS_Q16),
        i32Const("PIPE_DIAGONAL_Q16", PIPE_DIAGONAL_Q16),
        i32Const("FLUX_LIMIT", FLUX_LIMIT),
        i32Const("WATER_LIMIT", WATER_LIMIT),
        i32Const("WATER_SEDIMENT_LIMIT", WATER_SEDIMENT_LIMIT),
        i32Const("SURFACE_DIFFERENCE_LIMIT", SURFACE_DIFFERENCE_LIMIT),
        i32Const("GRADIENT_COMPONENT_LIMIT", GRADIENT_COMPONENT_LIMIT),
        i32Const("SOURCE_ENTRY_INTS", SOURCE_ENTRY_INTS),
        i32Const("HARDNESS_ONE", HARDNESS_ONE),
        i32Const("HARDNESS_MAX", HARDNESS_MAX),
        i32Const("SOIL_LIMIT", SOIL_LIMIT),
        u32Const("STRATA_STREAM", STRATA_STREAM),
        u32Const("MAP_LIMIT", MAP_LIMIT),
        u32Const("HASH_MULTIPLIER_1", HASH_MULTIPLIER_1),
        u32Const("HASH_MULTIPLIER_2", HASH_MULTIPLIER_2),
        i32Const("GRADIENT_LIMIT", GRADIENT_LIMIT),
        i32Const("BRUSH_ENTRY_INTS", BRUSH_ENTRY_INTS),
        i32Const("THERMAL_SLOTS", THERMAL_SLOTS),
        i32Const("FIRST_DIAGONAL_SLOT", FIRST_DIAGONAL_SLOT),
        i32Const("DRAINAGE_AREA_LIMIT", DRAINAGE_AREA_LIMIT),
        u32Const("ROOT_AREA_LIMIT", ROOT_AREA_LIMIT),
        i32Const("ANGLE_STEPS", ANGLE_STEPS),
        i32Const("QUARTER_TURN", QUARTER_TURN),
        i32Array("QUARTER_COSINES", QUARTER_COSINES),
        i32Array("THERMAL_DX", THERMAL_DX),
        i32Array("THERMAL_DY", THERMAL_DY),
        i32Array("OPPOSITE_SLOT", OPPOSITE_SLOT),
        u32Const("DROPLET_WORKGROUP_SIZE", DROPLET_WORKGROUP_SIZE),
        u32Const("GRID_WORKGROUP_SIZE", GRID_WORKGROUP_SIZE),
        u32Const("LANE_A_START", LANE_A_START),
        u32Const("CHECKSUM_WORKGROUP_SIZE", CHECKSUM_WORKGROUP_SIZE),
        u32Const("LANE_B_START", LANE_B_START),
        wgslBatchParamsStruct(),
        // One entry per batch of the dispatch (the independent batches of a class run as one
        // dispatch, the batch in the workgroup's z); every kernel copies its entry first thing. A
        // uniform buffer, so the storage bindings (8 a kernel by default) are all the kernels'.
        `@group(0) @binding(BINDING_PARAMS) var<uniform> batchParams: array<BatchParams, ${wgslInteger(MAX_DISPATCH_BATCHES)}>;`,
        "var<private> params: BatchParams;",
        wgslSlotAccessors(),
        "",
    ].join("\n");
}

/** `drainageArea` -> `DRAINAGE_AREA`: how a binding's name is spelled in a `BINDING_<NAME>` token. */
function tokenName(binding: string): string {
    return binding.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
}

/**
 * Replaces `BINDING_<NAME>` tokens with the binding numbers of `BINDINGS`; the two `swapped`
 * bindings each take the other's number, so the source's declaration of one reads the other's buffer.
 */
function resolveBindings(source: string, swapped?: readonly [BindingName, BindingName]): string {
    return source.replace(/\bBINDING_([A-Z0-9_]+)\b/g, (token, name: string) => {
        const key = (Object.keys(BINDINGS) as BindingName[]).find((binding) => tokenName(binding) === name);
        if (!key) {
            throw new Error(`Internal error: shader uses unknown binding ${token}.`);
        }
        const bound = swapped?.[0] === key ? swapped[1] : swapped?.[1] === key ? swapped[0] : key;
        return wgslInteger(BINDINGS[bound]);
    });
}

/** The file in `shaders/` (without `.wgsl`) a kernel is built from. */
export function kernelFile(kernel: KernelName): string {
    const spec: KernelSpec = KERNELS[kernel];
    return spec.source ?? kernel;
}

/** Complete WGSL of a kernel: header, its constants, helpers, counters (if it reports), the kernel. */
export function kernelSource(kernel: KernelName): string {
    const spec: KernelSpec = KERNELS[kernel];
    const constants = Object.entries(spec.constants ?? {}).map(([name, value]) =>
        (typeof value === "boolean" ? `const ${name}: bool = ${value};` : i32Const(name, value))
    );
    const parts = [shaderHeader(), ...constants, SHADER_SOURCES.common];
    if (spec.counters) {
        parts.push(SHADER_SOURCES.counters);
    }
    // Includes use bindings the kernel declares, so they go after it (WGSL is order-independent at module scope).
    parts.push(SHADER_SOURCES[kernelFile(kernel) as keyof typeof SHADER_SOURCES]);
    for (const include of spec.includes ?? []) {
        parts.push(SHADER_SOURCES[include as keyof typeof SHADER_SOURCES]);
        // The materials' batch fields live after the material buffer's grids, read by generated accessors.
        if (include === "materials") parts.push(wgslMaterialAccessors());
    }
    return resolveBindings(parts.join("\n"), spec.swapped);
}

/** Babylon `bindingsMapping` of a kernel. */
export function kernelBindingsMapping(kernel: KernelName): Record<string, { group: number; binding: number }> {
    const mapping: Record<string, { group: number; binding: number }> = {};
    const spec: KernelSpec = KERNELS[kernel];
    for (const name of [...spec.bindings, ...(spec.texture ? [spec.texture] : [])]) {
        mapping[name] = { group: 0, binding: BINDINGS[name] };
    }
    return mapping;
}
