/**
 * Mask values: quantised to Q16 with every value checked, and sampled from a grid of another size
 * (the component's textures, the bake's map files).
 */
import { FIXED_ONE } from "./fixedPoint.js";

/** A mask as Q16 per vertex, validating every value. */
export function quantiseMask(values: ArrayLike<number>, cells: number, operator: string): Int32Array {
    if (values.length !== cells) {
        throw new RangeError(`setMask("${operator}"): the mask has ${values.length} values but the ground has ${cells} vertices.`);
    }
    const out = new Int32Array(cells);
    for (let i = 0; i < cells; i++) {
        const value = values[i];
        if (!(value >= 0 && value <= 1)) {
            throw new RangeError(`setMask("${operator}"): mask[${i}] is ${value}: mask values must be numbers in [0, 1].`);
        }
        out[i] = Math.round(value * FIXED_ONE);
    }
    return out;
}

/**
 * A `sourceWidth x sourceDepth` grid (one value every `stride` entries, row-major) sampled at each
 * vertex of a `width x depth` grid: the nearest sample, corners to corners.
 */
export function resampleNearest(source: ArrayLike<number>, sourceWidth: number, sourceDepth: number, width: number, depth: number, stride = 1): Float64Array {
    const values = new Float64Array(width * depth);
    for (let y = 0; y < depth; y++) {
        const ty = Math.round((y * (sourceDepth - 1)) / Math.max(1, depth - 1));
        for (let x = 0; x < width; x++) {
            const tx = Math.round((x * (sourceWidth - 1)) / Math.max(1, width - 1));
            values[y * width + x] = source[(ty * sourceWidth + tx) * stride];
        }
    }
    return values;
}
