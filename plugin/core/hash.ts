/**
 * Integer hashing for droplet placement. Mirrors `hashU32` and `hash4` in `shaders/shared/common.wgsl`.
 *
 * `lowbias32` is Chris Wellons' two-multiply integer finaliser: every input bit affects every
 * output bit, and it uses only 32-bit multiplies, shifts and xors, which WGSL and JavaScript
 * (`imul`) compute identically.
 */

// Math's functions as module constants: a global lookup of `Math` is twenty times slower in a
// vm context (jest's test environment, some worker sandboxes) and these run per droplet step.
const { imul } = Math;

/** lowbias32's two multipliers (the WGSL reads them from the generated header). */
export const HASH_MULTIPLIER_1 = 0x7feb352d;
export const HASH_MULTIPLIER_2 = 0x846ca68b;

/** lowbias32 finaliser of a u32; returns a u32. */
export function hashU32(value: number): number {
    let x = value >>> 0;
    x ^= x >>> 16;
    x = imul(x, HASH_MULTIPLIER_1);
    x ^= x >>> 15;
    x = imul(x, HASH_MULTIPLIER_2);
    x ^= x >>> 16;
    return x >>> 0;
}

/** Hash of four u32 values, chained so that the order of the inputs matters; returns a u32. */
export function hash4(a: number, b: number, c: number, d: number): number {
    return hashU32(hashU32(hashU32(hashU32(a) ^ b) ^ c) ^ d);
}
