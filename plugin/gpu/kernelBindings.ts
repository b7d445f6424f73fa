/**
 * The buffers the kernels bind, shared by every kernel: their binding numbers (group 0,
 * `BINDINGS`), the WGSL type each is declared with (`BINDING_TYPES`) and which are uniforms
 * (`UNIFORM_BINDINGS`). `KERNELS` (`kernelTable.ts`) says which of them each kernel binds.
 */
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

/**
 * The WGSL type of each binding's elements as every kernel declares it (`array<i32>` and the like,
 * `read` or `read_write` as the kernel's `writes` say; an `atomic<...>` is always `read_write`), or
 * of a storage texture. `params` is the uniform the generated header declares.
 */
export const BINDING_TYPES: Readonly<Record<BindingName, string>> = {
    params: "BatchParams",
    heights: "i32",
    delta: "i32",
    suspended: "i32",
    counters: "atomic<u32>",
    brush: "i32",
    flux: "i32",
    positions: "f32",
    normals: "f32",
    drainageArea: "i32",
    areaNext: "i32",
    mask: "i32",
    mapWater: "u32",
    mapWear: "u32",
    mapDeposition: "u32",
    waterBatch: "i32",
    mapsTexture: "texture_storage_2d<rgba32float, write>",
    fillLevels: "i32",
    levelsNext: "i32",
    routed: "i32",
    routedNext: "i32",
    riverSlots: "i32",
    areaTexture: "texture_storage_2d<r32float, write>",
    waterDepth: "i32",
    waterSediment: "i32",
    fluxX: "i32",
    fluxY: "i32",
    fluxD1: "i32",
    fluxD2: "i32",
    outflowScale: "i32",
    waterNext: "i32",
    sedimentNext: "i32",
    groundChange: "i32",
    waterSources: "i32",
    waterTexture: "texture_storage_2d<rgba32float, write>",
    checksums: "u32",
    material: "i32",
    materialTexture: "texture_storage_2d<rgba32float, write>",
    velocityX: "i32",
    velocityY: "i32",
};

/** The bindings the kernels declare as uniform buffers (every other buffer is a storage buffer). */
export const UNIFORM_BINDINGS: ReadonlySet<BindingName> = new Set(["params"]);
