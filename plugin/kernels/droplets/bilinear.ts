/**
 * Bilinear splitting on the fixed-point grid, for the CPU droplet kernel. Mirrors `addBilinear` in
 * `shaders/droplets/erode_droplets.wgsl` (the WGSL's bilinear sampling, `sampleHeight`, is inlined into the
 * CPU walk, which keeps the corner heights for its next step). WGSL's `addBilinear` takes a
 * `scaledByMask` switch; here the masked split is a function of its own, so the unmasked one, on
 * the walk's hottest path, stays as small as it was for V8 to inline.
 */
import { FIXED_ONE, mulQ16 } from "../../core/fixedPoint.js";

/**
 * Adds `sign * amount` to the four vertices around a Q16 position, split by bilinear weights so the
 * parts sum to exactly `amount` (the last vertex takes what the floors of the others leave).
 */
export function addBilinear(delta: Int32Array, width: number, px: number, py: number, amount: number, sign: number): void {
    const i00 = (py >> 16) * width + (px >> 16);
    const fx = px & 0xffff;
    const fy = py & 0xffff;
    const w00 = mulQ16(FIXED_ONE - fx, FIXED_ONE - fy);
    const w10 = mulQ16(fx, FIXED_ONE - fy);
    const w01 = mulQ16(FIXED_ONE - fx, fy);
    const p00 = mulQ16(amount, w00);
    const p10 = mulQ16(amount, w10);
    const p01 = mulQ16(amount, w01);
    const p11 = amount - p00 - p10 - p01;
    delta[i00] += sign * p00;
    delta[i00 + 1] += sign * p10;
    delta[i00 + width] += sign * p01;
    delta[i00 + width + 1] += sign * p11;
}

/** `addBilinear` with each of the four parts scaled by the mask at its vertex; returns what was moved. */
export function addBilinearMasked(delta: Int32Array, mask: Int32Array, width: number, px: number, py: number, amount: number, sign: number): number {
    const i00 = (py >> 16) * width + (px >> 16);
    const fx = px & 0xffff;
    const fy = py & 0xffff;
    const w00 = mulQ16(FIXED_ONE - fx, FIXED_ONE - fy);
    const w10 = mulQ16(fx, FIXED_ONE - fy);
    const w01 = mulQ16(FIXED_ONE - fx, fy);
    const p00 = mulQ16(amount, w00);
    const p10 = mulQ16(amount, w10);
    const p01 = mulQ16(amount, w01);
    const p11 = amount - p00 - p10 - p01;
    const m00 = mulQ16(p00, mask[i00]);
    const m10 = mulQ16(p10, mask[i00 + 1]);
    const m01 = mulQ16(p01, mask[i00 + width]);
    const m11 = mulQ16(p11, mask[i00 + width + 1]);
    delta[i00] += sign * m00;
    delta[i00 + 1] += sign * m10;
    delta[i00 + width] += sign * m01;
    delta[i00 + width + 1] += sign * m11;
    return m00 + m10 + m01 + m11;
}
