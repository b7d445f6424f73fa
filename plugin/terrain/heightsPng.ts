/**
 * Heights in metres as a 16-bit grayscale PNG: the samples of `heightSamples.ts` encoded by
 * `png16.ts`. Free of Babylon, so the component's save and the bake's outputs share it.
 */
import { heightsToSamples, type HeightRange } from "./heightSamples.js";
import { encodeGray16Png } from "./png16.js";

/** Encodes heights (metres, row-major, top row first = far edge of the ground) as a 16-bit grayscale PNG. */
export async function encodeHeightsPng16(
    heights: ArrayLike<number>, columns: number, rows: number, range?: HeightRange
): Promise<{ png: Uint8Array; range: HeightRange }> {
    const { samples, range: used } = heightsToSamples(heights, range);
    return { png: await encodeGray16Png(samples, columns, rows), range: used };
}
