/**
 * Running totals a simulation keeps besides its heights: where material went and how much work
 * the droplets did. They explain the mass balance but do not affect later batches, so they are not
 * part of the fingerprint.
 *
 * On the GPU each counter is a 64-bit pair of `u32` atomics (low word, high word, carried by the
 * kernel that adds); on the CPU a double, exact below 2^53.
 */

/** Counter names, in buffer order. */
export const COUNTER_NAMES = [
    "outflow",
    "saturationRemoved",
    "saturationAdded",
    "dropletSteps",
    "upliftAdded",
    "seamAdded",
    "seamRemoved",
    "waterAdded",
    "waterEvaporated",
    "waterOutflow",
    "waterRemoved",
    "editAdded",
    "editRemoved",
] as const;

/** Index of material (fixed-point units) that left the field: over an edge, carried away at the end of a walk, or off an open boundary. */
export const COUNTER_OUTFLOW = 0;
/** Index of material (fixed-point units) removed because a height would have passed the top of the fixed-point range. */
export const COUNTER_SATURATION_REMOVED = 1;
/** Index of material (fixed-point units) added because a height would have passed the bottom of the fixed-point range. */
export const COUNTER_SATURATION_ADDED = 2;
/** Index of the number of steps droplets took. */
export const COUNTER_DROPLET_STEPS = 3;
/** Index of material (fixed-point units) the river operator's uplift added. */
export const COUNTER_UPLIFT_ADDED = 4;
/** Index of material (fixed-point units) a tileable terrain's seam added when its repeated row and column were made equal to the first again. */
export const COUNTER_SEAM_ADDED = 5;
/** Index of material (fixed-point units) the seam removed likewise. */
export const COUNTER_SEAM_REMOVED = 6;

/** Index of water (Q16 cells of depth, summed over vertices) rain and sources added. */
export const COUNTER_WATER_ADDED = 7;
/** Index of water that evaporated. */
export const COUNTER_WATER_EVAPORATED = 8;
/** Index of water that flowed off the field's open edges. */
export const COUNTER_WATER_OUTFLOW = 9;
/** Index of water removed where a vertex's water would have passed `WATER_LIMIT`. */
export const COUNTER_WATER_REMOVED = 10;

/** Index of material (fixed-point units) ground edits added (`pile`, a crater's rim, the fill of `flatten`). */
export const COUNTER_EDIT_ADDED = 11;
/** Index of material (fixed-point units) ground edits removed (`dig`, a crater's bowl, the cut of `flatten`). */
export const COUNTER_EDIT_REMOVED = 12;

/** Number of counters. */
export const COUNTER_COUNT = COUNTER_NAMES.length;

/** `u32` words per counter in the GPU counters buffer: the low word, then the high word. */
export const COUNTER_WORDS = 2;

/** Counter values by name. */
export type ErosionCounters = Record<(typeof COUNTER_NAMES)[number], number>;

/** Counters as a named object. */
export function countersToObject(counters: ArrayLike<number>): ErosionCounters {
    const result = {} as ErosionCounters;
    COUNTER_NAMES.forEach((name, index) => {
        result[name] = counters[index];
    });
    return result;
}
