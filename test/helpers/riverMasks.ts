/** Masks for the river tests: the rivers mask rising from 0 to 1 across the columns, the uplift map rising `upliftPerRow` (Q16) a row. */
import { noMasks, type ErosionMasks } from "../../plugin/advanced.js";

export function rampedRiverMasks(width: number, depth: number, upliftPerRow: number): ErosionMasks {
    const masks = noMasks();
    masks.rivers = Int32Array.from({ length: width * depth }, (_, i) => ((i % width) * 65536) / width);
    masks.uplift = Int32Array.from({ length: width * depth }, (_, i) => Math.floor(i / width) * upliftPerRow);
    return masks;
}
