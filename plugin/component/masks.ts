/**
 * Masks as the component takes them: a value in [0, 1] per vertex, or a texture whose red channel
 * is sampled at the vertices; quantised to Q16 (`round(value x 65536)`) with every value checked
 * (`maskValues.ts`).
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { quantiseMask, resampleNearest } from "../core/maskValues.js";
import { MASK_NAMES, type MaskName } from "../core/erosionState.js";

/** The red channel of a texture at each vertex (nearest texel; row 0 at the far, +z, edge), in [0, 1]. */
export async function sampleTextureMask(texture: BaseTexture, width: number, depth: number): Promise<Float64Array> {
    const size = texture.getSize();
    const pixels = await texture.readPixels();
    if (!pixels || size.width < 1 || size.height < 1) {
        throw new Error("setMask: the texture's pixels could not be read (is it loaded?).");
    }
    const scale = pixels instanceof Uint8Array || pixels instanceof Uint8ClampedArray ? 1 / 255 : 1;
    const values = resampleNearest(pixels as unknown as ArrayLike<number>, size.width, size.height, width, depth, 4);
    for (let i = 0; i < values.length; i++) values[i] = Math.min(1, Math.max(0, values[i] * scale));
    return values;
}

/** Throws for an operator that takes no mask. */
export function assertMaskName(operator: string): asserts operator is MaskName {
    if (!(MASK_NAMES as readonly string[]).includes(operator)) {
        throw new RangeError(
            `setMask: operator is ${JSON.stringify(operator)}: it must be one of ${MASK_NAMES.map((name) => JSON.stringify(name)).join(", ")}.`
        );
    }
}

/** A mask given as values, a texture or null, as Q16 per vertex of a `width x depth` ground (null clears it). */
export async function resolveMask(operator: MaskName, mask: ArrayLike<number> | BaseTexture | null, width: number, depth: number): Promise<Int32Array | null> {
    if (!mask) {
        return null;
    }
    const values =
        typeof (mask as BaseTexture).readPixels === "function" ? await sampleTextureMask(mask as BaseTexture, width, depth) : (mask as ArrayLike<number>);
    return quantiseMask(values, width * depth, operator);
}
