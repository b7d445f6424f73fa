/**
 * Splitting one batch between threads without changing its result (for `CpuWorkerPool`).
 *
 * - Droplets: each thread runs a contiguous range of the batch's droplets into its own delta
 *   accumulator; the accumulators are then summed into the batch's delta. Every droplet reads the
 *   heights as the batch began and only adds to its accumulator, and integer addition commutes, so
 *   the sum is the single-thread delta to the unit (the counters likewise: sums of integers, exact
 *   in doubles below 2^53). The fold (`clipDelta`, `applyDelta`) then runs once, on the sum.
 * - Thermal: each thread takes a band of rows. A flux step reads heights and writes only its rows'
 *   flux slots, an apply step reads flux and writes only its rows' heights, so bands of one step
 *   never touch each other's output; all bands of a step finish before the next step begins.
 */
import { type BatchParams, THERMAL_SLOTS } from "../../plugin/advanced.js";

/** Splits `start .. end - 1` into `parts` contiguous ranges, as even as possible (empty ones dropped). */
export function splitRange(start: number, end: number, parts: number): [number, number][] {
    const ranges: [number, number][] = [];
    const count = end - start;
    for (let part = 0; part < parts; part++) {
        const from = start + Math.floor((count * part) / parts);
        const to = start + Math.floor((count * (part + 1)) / parts);
        if (to > from) {
            ranges.push([from, to]);
        }
    }
    return ranges;
}

/**
 * Adds a thread's delta accumulator into the batch's, over the batch's region (the only vertices a
 * droplet can reach), and clears the thread's there for its next batch.
 */
export function addAndClearDelta(params: BatchParams, target: Int32Array, source: Int32Array): void {
    const { width, regionX0, regionY0, regionX1, regionY1 } = params;
    for (let y = regionY0; y < regionY1; y++) {
        for (let i = y * width + regionX0, end = y * width + regionX1; i < end; i++) {
            target[i] += source[i];
            source[i] = 0;
        }
    }
}

/**
 * The parameters and flux slots of a band of rows `y0 .. y1 - 1` of a thermal batch's patch: pass
 * them to `thermalFlux` for that band only (its slots are laid out from the band's first row).
 */
export function thermalFluxBand(params: BatchParams, flux: Int32Array, y0: number, y1: number): { params: BatchParams; flux: Int32Array } {
    const patchWidth = params.patchX1 - params.patchX0;
    return { params: { ...params, patchY0: y0, patchY1: y1 }, flux: flux.subarray((y0 - params.patchY0) * patchWidth * THERMAL_SLOTS) };
}

/** The parameters of a band of rows `y0 .. y1 - 1` of a thermal batch's region, for `thermalApply`. */
export function thermalApplyBand(params: BatchParams, y0: number, y1: number): BatchParams {
    return { ...params, regionY0: y0, regionY1: y1 };
}
