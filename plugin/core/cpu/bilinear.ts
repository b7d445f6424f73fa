/**
 * Bilinear sampling and splitting on the fixed-point grid, for the CPU droplet kernel. Mirror
 * `sampleHeight` and `addBilinear` in `shaders/erode_droplets.wgsl` (the droplet walk inlines
 * `sampleHeight` to keep the corner heights for its next step).
 */
import { FIXED_ONE, mulQ16 } from "../fixedPoint.js";

/** Height (fixed point) at a Q16 position, interpolated from the four surrounding vertices. */
export function sampleHeight(heights: Int32Array, width: number, px: number, py: number): number {
    const i00 = (py >> 16) * width + (px >> 16);
    const fx = px & 0xffff;
    const fy = py & 0xffff;
    const h00 = heights[i00];
    const h10 = heights[i00 + 1];
    const h01 = heights[i00 + width];
    const h11 = heights[i00 + width + 1];
    const h0 = h00 + mulQ16(h10 - h00, fx);
    const h1 = h01 + mulQ16(h11 - h01, fx);
    return h0 + mulQ16(h1 - h0, fy);
}

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
