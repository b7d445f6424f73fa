/** The sample's generated terrain (sample-scene/main.ts's) as fixed-point heights: the lockstep server's and the bench's. */
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { heightsToFixed } from "../../plugin/index.js";

/** The generated terrain at `size` vertices a side. */
export function sampleHeights(size: number): Int32Array {
    return heightsToFixed(generateNoiseTerrain({ width: size, depth: size, relief: (90 * size) / 513, seed: 3, ridged: 0.6, wavelength: (200 * size) / 513 }));
}
