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

/** Which hardness map a planned batch runs with: `stamp` names the (map, scale) pair, unique in this realm (0: no map); `scale` is `materials.hardnessMapScale` in Q8. */
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
 * everywhere without a map.
 */
export function writeHardnessFactors(map: Int32Array | null, scale: number, out: Int32Array): void {
    if (!map) {
        out.fill(HARDNESS_ONE);
        return;
    }
    const span = Math.min(HARDNESS_MAX, scale) - HARDNESS_ONE;
    for (let i = 0; i < out.length; i++) out[i] = HARDNESS_ONE + Math.floor((map[i] * span) / 65536);
}
