/**
 * The materials' hardness unit (`materials.ts`): Q8, 256 = as soft as the soil. Apart from the
 * materials' rules so that the batch parameters, which quantise the options into it, and the
 * rules, which read the batch parameters, do not import each other.
 */

/** Hardness 1 (as soft as the soil) in the Q8 the kernels use. */
export const HARDNESS_ONE = 256;

/** Largest hardness, Q8 (1000 times the soil's). */
export const HARDNESS_MAX = 1000 * HARDNESS_ONE;

/** `materials.hardness` as Q8, rounded to nearest, within [HARDNESS_ONE, HARDNESS_MAX]. */
export function hardnessQ8(hardness: number): number {
    return Math.min(HARDNESS_MAX, Math.max(HARDNESS_ONE, Math.round(hardness * HARDNESS_ONE)));
}

