/**
 * Masks as the component takes them: a value in [0, 1] per vertex, or a texture whose red channel
 * is sampled at the vertices; quantised to Q16 (`round(value x 65536)`) with every value checked.
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { FIXED_ONE } from "../core/fixedPoint.js";
import { MASK_NAMES, type MaskName } from "../core/erosionState.js";

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

/** The red channel of a texture at each vertex (nearest texel; row 0 at the far, +z, edge), in [0, 1]. */
export async function sampleTextureMask(texture: BaseTexture, width: number, depth: number): Promise<Float64Array> {
    const size = texture.getSize();
    const pixels = await texture.readPixels();
    if (!pixels || size.width < 1 || size.height < 1) {
        throw new Error("setMask: the texture's pixels could not be read (is it loaded?).");
    }
    const scale = pixels instanceof Uint8Array || pixels instanceof Uint8ClampedArray ? 1 / 255 : 1;
    const values = new Float64Array(width * depth);
    for (let y = 0; y < depth; y++) {
        const ty = Math.round((y * (size.height - 1)) / Math.max(1, depth - 1));
        for (let x = 0; x < width; x++) {
            const tx = Math.round((x * (size.width - 1)) / Math.max(1, width - 1));
            values[y * width + x] = Math.min(1, Math.max(0, (pixels as unknown as ArrayLike<number>)[(ty * size.width + tx) * 4] * scale));
        }
    }
    return values;
}

/** Throws for an operator that takes no mask. */
export function assertMaskName(operator: string): asserts operator is MaskName {
    if (!(MASK_NAMES as readonly string[]).includes(operator)) {
        throw new RangeError(`setMask: operator is ${JSON.stringify(operator)}: it must be one of ${MASK_NAMES.map((name) => JSON.stringify(name)).join(", ")}.`);
    }
}

/** A mask given as values, a texture or null, as Q16 per vertex of a `width x depth` ground (null clears it). */
export async function resolveMask(operator: MaskName, mask: ArrayLike<number> | BaseTexture | null, width: number, depth: number): Promise<Int32Array | null> {
    if (!mask) {
        return null;
    }
    const values = typeof (mask as BaseTexture).readPixels === "function" ? await sampleTextureMask(mask as BaseTexture, width, depth) : (mask as ArrayLike<number>);
    return quantiseMask(values, width * depth, operator);
}
