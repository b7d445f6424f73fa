/**
 * The terrains the realism report and its tests erode: the project's generated terrain at four
 * cell sizes, and the Mont Blanc DEM (whole, and its centre crop for the CI-sized tests).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { decodeGrayPng, samplesToHeights, generateNoiseTerrain } from "../../plugin/terrain.js";

/** A heightfield in metres with its grid. */
export interface Terrain {
    readonly name: string;
    readonly width: number;
    readonly depth: number;
    /** Distance between neighbouring vertices, metres. */
    readonly cellSize: number;
    readonly heights: Float32Array;
}

/** The generated terrain's seed (fixed: every report erodes the same ground). */
export const GENERATED_SEED = 1;

/** The four scales of the generated terrain: cell size (m) and relief (m). */
export const GENERATED_SCALES = [
    { cellSize: 1, relief: 60 },
    { cellSize: 10, relief: 600 },
    { cellSize: 30, relief: 1500 },
    { cellSize: 90, relief: 3000 },
] as const;

/** The project's generated terrain (fBm with ridged octaves) of `size`^2 vertices. */
export function generatedTerrain(size: number, cellSize: number, relief: number): Terrain {
    return { name: `generated ${size}² at ${cellSize} m cells, ${relief} m relief`, width: size, depth: size, cellSize, heights: generateNoiseTerrain({ width: size, depth: size, relief, seed: GENERATED_SEED }) };
}

/** The same generated surface at twice the resolution over the same extent: (2 size - 1)^2 vertices, half the cell size. */
export function generatedTerrainFine(size: number, cellSize: number, relief: number): Terrain {
    const fine = 2 * size - 1;
    const heights = generateNoiseTerrain({ width: fine, depth: fine, relief, seed: GENERATED_SEED, wavelength: size / 2 });
    return { name: `generated ${fine}² at ${cellSize / 2} m cells`, width: fine, depth: fine, cellSize: cellSize / 2, heights };
}

/** Every second vertex of a fine terrain (the coarse grid over the same extent). */
export function coarsen(fine: Terrain): Terrain {
    const size = (fine.width + 1) / 2;
    const heights = new Float32Array(size * size);
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) heights[y * size + x] = fine.heights[2 * y * fine.width + 2 * x];
    return { name: `generated ${size}² at ${fine.cellSize * 2} m cells`, width: size, depth: size, cellSize: fine.cellSize * 2, heights };
}

/** The Mont Blanc DEM shipped with the sample scene (SRTM-3, 647^2, 93 m cells; attribution beside it). */
export const MONT_BLANC_PNG = join(process.cwd(), "sample-scene/public/alps-montblanc.png");
const MONT_BLANC_RANGE = { min: 454, max: 4810 };
const MONT_BLANC_EXTENT = 60000;

/** The whole Mont Blanc DEM, or its centre `crop`^2 vertices. */
export async function montBlanc(crop?: number): Promise<Terrain> {
    const image = await decodeGrayPng(readFileSync(MONT_BLANC_PNG));
    const cellSize = MONT_BLANC_EXTENT / (image.width - 1);
    const all = samplesToHeights(image.samples as Uint16Array, MONT_BLANC_RANGE);
    if (!crop) {
        return { name: `Mont Blanc ${image.width}² at ${cellSize.toFixed(0)} m cells`, width: image.width, depth: image.height, cellSize, heights: all };
    }
    const x0 = Math.floor((image.width - crop) / 2);
    const y0 = Math.floor((image.height - crop) / 2);
    const heights = new Float32Array(crop * crop);
    for (let y = 0; y < crop; y++) heights.set(all.subarray((y0 + y) * image.width + x0, (y0 + y) * image.width + x0 + crop), y * crop);
    return { name: `Mont Blanc centre ${crop}² at ${cellSize.toFixed(0)} m cells`, width: crop, depth: crop, cellSize, heights };
}
