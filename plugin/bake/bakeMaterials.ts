/**
 * The bake's rock and soil: the hardness and soil maps it reads (`--hardness-map`, `--soil-map`), and the materials' maps
 * it writes beside the others once they have run (soil, exposed bed, rock hardness).
 */
import { quantiseMask, resampleNearest } from "../core/maskValues.js";
import type { ErosionStateData } from "../core/erosionState.js";
import { bedIndex, vertexHardness } from "../core/materials.js";
import { materialParams } from "../core/materialParams.js";
import type { ErosionOptions } from "../core/options.js";
import { BakeInputError, readBakeInput } from "./bakeInput.js";

/**
 * A materials' map in `path` for a `width x depth` field, as Q16 per vertex (`setMask("hardness")`
 * or `setMask("soil")`; `flag` names it in errors): a 16-bit grayscale PNG, RAW16 or 16-bit TIFF (0
 * to 65535 for 0 to 1), or a float32 EXR, TIFF or `.f32` of values in [0, 1]; of any size, sampled
 * at the field's vertices (nearest, corners to corners).
 */
export async function readMaterialMap(path: string, width: number, depth: number, flag: "--hardness-map" | "--soil-map"): Promise<Int32Array> {
    const map = await readBakeInput(path, { cellSize: 1, heightRange: { min: 0, max: 1 }, size: { width, depth } });
    if (map.tiles) throw new BakeInputError(`${flag} ${path}: a folder of tiles; give the map as one file.`);
    try {
        return quantiseMask(resampleNearest(map.heights, map.width, map.depth, width, depth), width * depth, flag === "--hardness-map" ? "hardness" : "soil");
    } catch (error) {
        throw new BakeInputError(`${flag} ${path}: ${(error as Error).message}`);
    }
}

/** The materials' maps of a baked state, once they have run, in the maps' u32 form. */
export interface MaterialBakeMaps {
    /** Soil thickness, fixed point (1/65536 of the cell size, as wear and deposition). */
    readonly soil: Uint32Array;
    /** The strata's bed at the surface plus 1: 0 where there is none (no strata, outside the layered beds, or below the first bed). */
    readonly exposedLayer: Uint32Array;
    /** The rock's hardness, Q8 (256 = as soft as the soil). */
    readonly rockHardness: Uint32Array;
}

/** The materials' maps of `state` (none while the materials have never run), with the strata of `options`. */
export function materialBakeMaps(state: ErosionStateData, options: ErosionOptions): MaterialBakeMaps | null {
    const materials = state.materials;
    if (!materials) return null;
    const params = materialParams(options, options.thermal.talus);
    const cells = state.width * state.depth;
    const maps = { soil: new Uint32Array(cells), exposedLayer: new Uint32Array(cells), rockHardness: new Uint32Array(cells) };
    for (let y = 0; y < state.depth; y++) {
        for (let x = 0; x < state.width; x++) {
            const i = y * state.width + x;
            const bed = bedIndex(params, state.heights[i] - materials.soil[i], x, y);
            maps.soil[i] = materials.soil[i];
            maps.exposedLayer[i] = bed === null || bed < 0 ? 0 : bed + 1;
            maps.rockHardness[i] = vertexHardness(params, state.heights, materials, i, x, y);
        }
    }
    return maps;
}
