/**
 * The kernels as data: each kernel's workgroup shape and the buffers it binds, reads and writes
 * (`KERNELS`; the binding numbers and WGSL types every kernel shares are in `kernelBindings.ts`),
 * and where each kernel's CPU mirror is (`SHADER_MIRRORS`). `shaderLibrary.ts` assembles the WGSL
 * from it, the binding declarations included (no file in `shaders/` declares one); the GPU
 * simulation, the dispatch counts and the mirror tests read it.
 */
import type { BindingName } from "./kernelBindings.js";

/** Invocations per workgroup of the droplet kernel (1D, dispatched as 2D rows). */
export const DROPLET_WORKGROUP_SIZE = 64;

/** Side of the square workgroups of the grid kernels. */
export const GRID_WORKGROUP_SIZE = 8;

/** Where a kernel's CPU mirror is: `file` under `plugin/`, and the function `name` there. */
export interface KernelMirror {
    readonly file: string;
    readonly name: string;
}

/** What `KERNELS` says of a kernel. */
export interface KernelSpec {
    /** The buffers it binds, by name (their numbers: `BINDINGS`), each declared for it in this order. */
    readonly bindings: readonly BindingName[];
    /** The storage buffers of `bindings` it declares `read_write` (every other one `read`; the counters always `read_write`). */
    readonly writes: readonly BindingName[];
    /** The storage buffers of `bindings` it adds to with atomics (declared `array<atomic<...>>`, `read_write`), beyond the counters. */
    readonly atomics?: readonly BindingName[];
    /** The WGSL variables of bindings whose variable is not named after the binding. */
    readonly names?: Readonly<Partial<Record<BindingName, string>>>;
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
 * The WGSL variables of the sediment routing's hop (route_hop.wgsl): it reads `routedFrom` and writes
 * `routedTo`, which are `routed` and `routedNext`, the other way round in the odd kernels (`swapped`).
 */
const ROUTE_HOP_NAMES = { routed: "routedFrom", routedNext: "routedTo" } as const;

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
        writes: ["material"], atomics: ["delta", "waterBatch"],
        constants: { MATERIALS: false }, mirror: { file: "kernels/droplets/erodeDroplets.ts", name: "erodeDroplets" },
    },
    erode_droplets_materials: {
        bindings: ["params", "heights", "delta", "brush", "counters", "mask", "waterBatch", "material"], counters: true, includes: ["materials"],
        writes: ["material"], atomics: ["delta", "waterBatch"],
        source: "erode_droplets", constants: { MATERIALS: true }, mirror: { file: "kernels/droplets/erodeDroplets.ts", name: "erodeDroplets" },
    },
    clip_delta: {
        bindings: ["params", "heights", "fillLevels", "delta", "suspended", "routed", "mask", "counters"], counters: true, includes: ["sediment_routing"],
        writes: ["delta", "suspended", "routed"],
        mirror: { file: "kernels/fold/clipDelta.ts", name: "clipDelta" },
    },
    route_sediment: {
        bindings: ["params", "heights", "fillLevels", "routed", "routedNext", "suspended", "delta", "mask", "counters"], counters: true,
        writes: ["routed", "routedNext", "suspended", "delta"], names: ROUTE_HOP_NAMES,
        includes: ["route_hop", "sediment_routing"], constants: { PASS_ON: true }, mirror: { file: "kernels/fold/routeSediment.ts", name: "routeSediment" },
    },
    route_sediment_odd: {
        bindings: ["params", "heights", "fillLevels", "routed", "routedNext", "suspended", "delta", "mask", "counters"], counters: true,
        writes: ["routed", "routedNext", "suspended", "delta"], names: ROUTE_HOP_NAMES,
        includes: ["route_hop", "sediment_routing"], source: "route_sediment", swapped: ["routed", "routedNext"], constants: { PASS_ON: true },
        mirror: { file: "kernels/fold/routeSediment.ts", name: "routeSediment" },
    },
    route_sediment_last: {
        bindings: ["params", "heights", "fillLevels", "routed", "routedNext", "suspended", "delta", "mask", "counters"], counters: true,
        writes: ["routed", "routedNext", "suspended", "delta"], names: ROUTE_HOP_NAMES,
        includes: ["route_hop", "sediment_routing"], source: "route_sediment", constants: { PASS_ON: false },
        mirror: { file: "kernels/fold/routeSediment.ts", name: "routeSediment" },
    },
    route_sediment_last_odd: {
        bindings: ["params", "heights", "fillLevels", "routed", "routedNext", "suspended", "delta", "mask", "counters"], counters: true,
        writes: ["routed", "routedNext", "suspended", "delta"], names: ROUTE_HOP_NAMES,
        includes: ["route_hop", "sediment_routing"], source: "route_sediment", swapped: ["routed", "routedNext"], constants: { PASS_ON: false },
        mirror: { file: "kernels/fold/routeSediment.ts", name: "routeSediment" },
    },
    apply_delta: {
        bindings: ["params", "heights", "delta", "waterBatch", "mapWater", "mapWear", "mapDeposition", "material", "mask"], counters: false,
        writes: ["heights", "delta", "waterBatch", "mapWater", "mapWear", "mapDeposition", "material"],
        includes: ["maps", "river_rect", "materials"], mirror: { file: "kernels/fold/applyDelta.ts", name: "applyDelta" },
    },
    fill_levels: {
        bindings: ["params", "heights", "fillLevels", "levelsNext"], counters: false, includes: ["sediment_routing"],
        writes: ["levelsNext"],
        mirror: { file: "kernels/fold/fillLevels.ts", name: "fillLevelStep" },
    },
    copy_levels: {
        bindings: ["params", "levelsNext", "fillLevels", "routed", "routedNext"], counters: false,
        writes: ["fillLevels", "routed", "routedNext"],
        mirror: { file: "kernels/fold/fillLevels.ts", name: "copyLevels" },
    },
    thermal_flux: {
        bindings: ["params", "heights", "flux", "mask", "material"], counters: false, includes: ["materials"], constants: { MATERIALS: false },
        writes: ["flux", "material"],
        mirror: { file: "kernels/thermal/thermalFlux.ts", name: "thermalFlux" },
    },
    thermal_flux_materials: {
        bindings: ["params", "heights", "flux", "mask", "material"], counters: false, includes: ["materials"], source: "thermal_flux",
        writes: ["flux", "material"],
        constants: { MATERIALS: true }, mirror: { file: "kernels/thermal/thermalFlux.ts", name: "thermalFlux" },
    },
    thermal_apply: {
        bindings: ["params", "heights", "flux", "drainageArea", "suspended", "counters", "mapWear", "mapDeposition", "material"], counters: true,
        writes: ["heights", "suspended", "mapWear", "mapDeposition", "material"],
        includes: ["maps", "materials"], mirror: { file: "kernels/thermal/thermalApply.ts", name: "thermalApply" },
    },
    river_slots: {
        bindings: ["params", "heights", "fillLevels", "riverSlots"], counters: false, includes: ["river_rect", "sediment_routing"],
        writes: ["riverSlots"],
        mirror: { file: "kernels/rivers/mirror/riverSlots.ts", name: "riverSlots" },
    },
    // Both areas read_write: area_step.wgsl writes whichever of the two this step steps into.
    river_accumulate: {
        bindings: ["params", "riverSlots", "drainageArea", "areaNext"], counters: false, includes: ["river_rect", "area_step"], constants: { ODD_STEP: false },
        writes: ["drainageArea", "areaNext"],
        mirror: { file: "kernels/rivers/mirror/riverAccumulate.ts", name: "riverAreaStep" },
    },
    river_accumulate_odd: {
        bindings: ["params", "riverSlots", "drainageArea", "areaNext"], counters: false, includes: ["river_rect", "area_step"], source: "river_accumulate",
        writes: ["drainageArea", "areaNext"],
        constants: { ODD_STEP: true }, mirror: { file: "kernels/rivers/mirror/riverAccumulate.ts", name: "riverAreaStep" },
    },
    copy_area: {
        bindings: ["params", "areaNext", "drainageArea"], counters: false, includes: ["river_rect"],
        writes: ["drainageArea"],
        mirror: { file: "kernels/rivers/mirror/riverAccumulate.ts", name: "copyArea" },
    },
    river_erode: {
        bindings: ["params", "heights", "fillLevels", "drainageArea", "delta", "suspended", "routed", "mask", "material"], counters: false,
        writes: ["delta", "suspended", "routed", "material"],
        includes: ["river_rect", "river_power", "sediment_routing", "materials"], mirror: { file: "kernels/rivers/mirror/riverErode.ts", name: "riverErode" },
    },
    river_uplift: {
        bindings: ["params", "heights", "delta", "mask", "counters"], counters: true, includes: ["river_rect"],
        writes: ["delta"],
        mirror: { file: "kernels/rivers/mirror/riverErode.ts", name: "riverUplift" },
    },
    river_settle: {
        bindings: ["params", "heights", "fillLevels", "suspended", "routed", "counters"], counters: true, includes: ["river_rect", "sediment_routing"],
        writes: ["suspended", "routed"],
        mirror: { file: "kernels/rivers/mirror/riverErode.ts", name: "riverSettle" },
    },
    ground_edit: {
        bindings: ["params", "heights", "fillLevels", "delta", "waterSediment", "counters", "material"], counters: true, includes: ["materials"],
        writes: ["heights", "fillLevels", "delta", "waterSediment", "material"],
        mirror: { file: "kernels/edits/applyGroundEdit.ts", name: "applyGroundEdit" },
    },
    tile_seam: {
        bindings: ["params", "heights", "drainageArea", "counters", "material"], counters: true, includes: ["materials"],
        writes: ["heights", "drainageArea", "material"],
        mirror: { file: "kernels/fold/tileSeam.ts", name: "tileSeam" },
    },
    water_flux: {
        bindings: ["params", "heights", "waterDepth", "fluxX", "fluxY", "fluxD1", "fluxD2"], counters: false, includes: ["water_common"],
        writes: ["fluxX", "fluxY", "fluxD1", "fluxD2"],
        mirror: { file: "kernels/water/waterPipes.ts", name: "waterFlux" },
    },
    water_scale: {
        bindings: ["params", "waterDepth", "fluxX", "fluxY", "fluxD1", "fluxD2", "outflowScale"], counters: false, includes: ["water_common", "water_pipes"],
        writes: ["outflowScale"],
        mirror: { file: "kernels/water/waterPipes.ts", name: "waterScale" },
    },
    water_limit: {
        bindings: ["params", "outflowScale", "fluxX", "fluxY", "fluxD1", "fluxD2"], counters: false, includes: ["water_common"],
        writes: ["fluxX", "fluxY", "fluxD1", "fluxD2"],
        mirror: { file: "kernels/water/waterPipes.ts", name: "waterLimit" },
    },
    water_transport: {
        bindings: ["params", "waterDepth", "waterSediment", "fluxX", "fluxY", "fluxD1", "fluxD2", "waterNext", "sedimentNext"], counters: false,
        writes: ["waterNext", "sedimentNext"],
        includes: ["water_common"], mirror: { file: "kernels/water/waterTransport.ts", name: "waterTransport" },
    },
    water_erode: {
        bindings: ["params", "heights", "fillLevels", "fluxX", "fluxY", "fluxD1", "fluxD2", "sedimentNext", "groundChange"], counters: false,
        writes: ["groundChange"],
        includes: ["water_common", "water_pipes", "sediment_routing"], mirror: { file: "kernels/water/waterErode.ts", name: "waterErode" },
    },
    water_depth: {
        bindings: ["params", "waterDepth", "waterSediment", "waterNext", "sedimentNext", "groundChange", "mask", "waterSources", "counters"], counters: true,
        writes: ["waterDepth", "waterSediment", "waterNext", "sedimentNext"],
        includes: ["water_common"], mirror: { file: "kernels/water/waterDepth.ts", name: "waterDepth" },
    },
    water_velocity: {
        bindings: ["params", "waterDepth", "fluxX", "fluxY", "fluxD1", "fluxD2", "velocityX", "velocityY"], counters: false,
        writes: ["velocityX", "velocityY"],
        includes: ["water_common", "water_pipes"], mirror: { file: "core/waterVelocity.ts", name: "waterVelocity" },
    },
    water_apply: {
        bindings: ["params", "heights", "groundChange", "outflowScale", "waterSediment", "mapWear", "mapDeposition", "material"], counters: false,
        writes: ["heights", "groundChange", "outflowScale", "waterSediment", "mapWear", "mapDeposition", "material"],
        includes: ["water_common", "maps", "materials"], mirror: { file: "kernels/water/waterBatch.ts", name: "waterApply" },
    },
    region_checksums: {
        bindings: ["params", "heights", "suspended", "drainageArea", "fillLevels", "waterDepth", "waterSediment", "fluxX", "checksums"], counters: false,
        writes: ["checksums"],
        includes: ["checksum_mix"], mirror: { file: "core/checksums/regionChecksums.ts", name: "regionChecksums" },
    },
    region_checksums_materials: {
        bindings: ["params", "material", "checksums"], counters: false, includes: ["checksum_mix"],
        writes: ["checksums"],
        mirror: { file: "core/checksums/regionChecksums.ts", name: "regionChecksums" },
    },
    region_checksums_water: {
        bindings: ["params", "fluxY", "fluxD1", "fluxD2", "outflowScale", "waterNext", "sedimentNext", "groundChange", "checksums"], counters: false,
        writes: ["checksums"],
        includes: ["checksum_mix"], mirror: { file: "core/checksums/regionChecksums.ts", name: "regionChecksums" },
    },
    write_vertices: {
        bindings: ["params", "heights", "positions", "normals"], counters: false, mirror: { file: "core/vertexNormals.ts", name: "writeNormalRow" },
        writes: ["positions", "normals"],
    },
    // The maps texture is a storage texture, bound by the device (Babylon only), not a buffer.
    write_maps: {
        bindings: ["params", "heights", "fillLevels", "mapWater", "mapWear", "mapDeposition"], counters: false, includes: ["sediment_routing"],
        writes: [],
        texture: "mapsTexture", mirror: { file: "core/erosionMaps.ts", name: "mapsTexels" },
    },
    write_area_map: {
        bindings: ["params", "drainageArea"], counters: false, texture: "areaTexture", mirror: { file: "core/erosionMaps.ts", name: "mapsTexels" },
        writes: [],
    },
    init_soil: {
        bindings: ["params", "heights", "material"], counters: false, includes: ["materials"], mirror: { file: "core/materials.ts", name: "writeInitialSoil" },
        writes: ["material"],
    },
    hardness_factors: {
        bindings: ["params", "delta", "material"], counters: false, includes: ["materials"],
        writes: ["delta", "material"],
        mirror: { file: "core/hardnessMap.ts", name: "writeHardnessFactors" },
    },
    write_material_map: {
        bindings: ["params", "heights", "material"], counters: false, includes: ["materials"], texture: "materialTexture",
        writes: ["material"],
        mirror: { file: "core/materialMaps.ts", name: "materialTexels" },
    },
    write_water_map: {
        bindings: ["params", "heights", "waterDepth", "velocityX", "velocityY"], counters: false, texture: "waterTexture",
        writes: [],
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
    apply_delta: [{ file: "kernels/fold/soilFold.ts", name: "nominalUplift" }],
    sediment_routing: [
        { file: "core/steepestDescent.ts", name: "sedimentSlot" },
        { file: "core/steepestDescent.ts", name: "riverSlot" },
        { file: "core/settling.ts", name: "fillRoom" },
    ],
    route_hop: [{ file: "kernels/fold/routeSediment.ts", name: "routeSediment" }],
    copy_levels: [{ file: "kernels/fold/routeSediment.ts", name: "clearRouted" }],
    river_rect: [{ file: "core/batchParams.ts", name: "riverRect" }],
    area_step: [{ file: "kernels/rivers/mirror/riverAccumulate.ts", name: "riverAreaStep" }],
    river_power: [{ file: "kernels/rivers/mirror/riverErode.ts", name: "riverErosionAt" }],
    river_erode: [{ file: "kernels/rivers/mirror/riverErode.ts", name: "riverErosionAt" }],
    erode_droplets: [
        { file: "core/localErosion.ts", name: "discDirection" },
        { file: "kernels/droplets/dropletMaterials.ts", name: "MaterialCuts" },
    ],
    water_common: [
        { file: "core/waterModel.ts", name: "truncMulQ16" },
        { file: "core/waterModel.ts", name: "fractionQ16" },
        { file: "core/waterModel.ts", name: "hypotenuse" },
        { file: "kernels/water/waterErode.ts", name: "dischargeAt" },
    ],
    water_pipes: [
        { file: "kernels/water/waterPipes.ts", name: "outflowAt" },
        { file: "core/waterVelocity.ts", name: "flowVector" },
        { file: "core/waterVelocity.ts", name: "flowThrough" },
    ],
    water_velocity: [{ file: "core/waterVelocity.ts", name: "waterVelocityAt" }],
    write_maps: [{ file: "core/erosionMaps.ts", name: "drainageDirections" }],
    checksum_mix: [
        { file: "core/checksums/regionChecksums.ts", name: "mixWord" },
        { file: "core/checksums/regionChecksums.ts", name: "regionGrid" },
    ],
};

/** A kernel's name (its file in `shaders/` without `.wgsl`). */
export type KernelName = keyof typeof KERNELS;
