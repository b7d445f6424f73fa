/**
 * Where the maps textures' texels are written: new arrays by default; the CPU backend's worker
 * hands out reused memory instead (`SpareBuffers`), zeroed, so a texel function that leaves a texel
 * unwritten reads as it does in a new array.
 */

/** An array of `length` zeros. */
export type TexelAllocator = (length: number) => Float32Array;

/** New arrays. */
export const newTexels: TexelAllocator = (length) => new Float32Array(length);
