/**
 * The hardness map (`setMask("hardness", ...)`, docs/simulation.md "Materials"): a mask in [0, 1]
 * per vertex that the materials turn into their hardness factor grid, 1 + value x
 * (`materials.hardnessMapScale` - 1), which multiplies the hardness of the rock's bed there.
 *
 * The factor grid is derived state: written from the map in force (and the scale) before the first
 * batch that runs the materials after either changed, the same on both backends, and idempotent
 * (writing it again from the same map gives the same grid), so a restored state, whose grid came
 * from its own map, may be written again safely.
 */
import { HARDNESS_MAX, HARDNESS_ONE, hardnessQ8 } from "./hardness.js";

/**
 * Which hardness map a planned batch runs with: `stamp` names the (map, scale) pair, unique in this
 * realm (0: no map); `scale` is `materials.hardnessMapScale` in Q8.
 */
export interface HardnessMapRef {
    readonly stamp: number;
    readonly scale: number;
}

let lastStamp = 0;

/** Hands out the reference of the hardness map in force and its scale, under a stamp unique in this realm that changes when either does. */
export class HardnessMapRefs {
    private _held: { readonly map: Int32Array; readonly ref: HardnessMapRef } | null = null;

    /** The reference of `map` (null: none) at `materials.hardnessMapScale` `scale`. */
    public refFor(map: Int32Array | null, scale: number): HardnessMapRef | null {
        if (!map) return null;
        const scaleQ8 = hardnessQ8(scale);
        if (this._held?.map !== map || this._held.ref.scale !== scaleQ8) this._held = { map, ref: { stamp: ++lastStamp, scale: scaleQ8 } };
        return this._held.ref;
    }
}

/**
 * Writes the hardness factor grid (Q8) of `map` (Q16 per vertex, 65536 = 1) at Q8 `scale` into
 * `out`: 256 + floor(map x (scale - 256) / 65536), exact in doubles (at most 2^16 x 2^18); 256
 * everywhere without a map. A vertex where a ground edit placed rock (a negative factor,
 * `placedRockFactor`) keeps it: the edit's rock is harder than the map says. Returns whether any
 * vertex did. Mirrors `hardness_factors.wgsl`.
 */
export function writeHardnessFactors(map: Int32Array | null, scale: number, out: Int32Array): boolean {
    const span = Math.min(HARDNESS_MAX, scale) - HARDNESS_ONE;
    let placed = false;
    for (let i = 0; i < out.length; i++) {
        if (out[i] < 0) placed = true;
        else out[i] = map ? HARDNESS_ONE + Math.floor((map[i] * span) / 65536) : HARDNESS_ONE;
    }
    return placed;
}

/** Whether a ground edit placed rock (a negative hardness factor) at a vertex of `rect` of a `width`-wide grid. */
export function placedRockIn(
    factors: Int32Array, width: number, rect: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number }
): boolean {
    for (let y = rect.y0; y < rect.y1; y++) {
        for (let i = y * width + rect.x0, end = y * width + rect.x1; i < end; i++) if (factors[i] < 0) return true;
    }
    return false;
}
