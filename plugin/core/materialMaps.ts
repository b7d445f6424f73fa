/**
 * The materials as maps: arrays for `readMaps`, and the rows of the materials texture a material
 * samples (`getMapTexture("materials")`), which `write_material_map.wgsl` writes on the GPU.
 * Floats for rendering and inspection only: nothing here feeds back into the state.
 */
import { FIXED_ONE } from "./fixedPoint.js";
import { HARDNESS_ONE } from "./hardness.js";
import type { MaterialGrids } from "./materialGrids.js";
import type { MaterialFields } from "./materialParams.js";
import { bedIndex, vertexHardness } from "./materials.js";
import { newTexels, type TexelAllocator } from "./texelAllocator.js";

/** The materials as maps (`readMaps`): soil thickness (local units), the bed of the rock at the surface (-1: none), its hardness (times the soil's). */
export interface MaterialMaps {
    readonly soil: Float32Array;
    readonly exposedLayer: Int32Array;
    readonly rockHardness: Float32Array;
}

/** What the materials' maps read of a state. */
type MaterialState = { readonly width: number; readonly depth: number; readonly heights: Int32Array; readonly materials?: MaterialGrids | null };

/** `MaterialMaps` of a state whose batches run with `params`' materials fields (all zero and -1, hardness 1, while the materials have never run). */
export function materialMapArrays(state: MaterialState, params: MaterialFields, cellSize: number): MaterialMaps {
    const cells = state.width * state.depth;
    const soil = new Float32Array(cells);
    const exposedLayer = new Int32Array(cells).fill(-1);
    const rockHardness = new Float32Array(cells).fill(1);
    if (!state.materials) return { soil, exposedLayer, rockHardness };
    forEachMaterialTexel(state, params, cellSize, 0, state.depth, 0, state.width, (k, soilThickness, layer, hardness) => {
        soil[k] = soilThickness;
        exposedLayer[k] = layer;
        rockHardness[k] = hardness;
    });
    return { soil, exposedLayer, rockHardness };
}

/**
 * Rows `y0 .. y1 - 1` of the materials texture (RGBA per vertex), as `write_material_map.wgsl`
 * writes them: r the soil's thickness (local units), g the bed of the rock at the surface (-1:
 * none), b the rock's hardness (times the soil's), a 1 once the materials exist. Before that every
 * texel is (0, -1, 1, 0): bare rock as soft as soil. Columns `x0 .. x1 - 1` of each row (the whole
 * row by default), row after row.
 */
export function materialTexels(
    state: MaterialState, params: MaterialFields, cellSize: number, y0: number, y1: number, alloc: TexelAllocator = newTexels, x0 = 0, x1: number = state.width
): Float32Array {
    const columns = x1 - x0;
    const texels = alloc(columns * (y1 - y0) * 4);
    if (!state.materials) {
        for (let k = 0; k < texels.length; k += 4) {
            texels[k + 1] = -1;
            texels[k + 2] = 1;
        }
        return texels;
    }
    // Visited row after row, column after column: the texels in order.
    let k = 0;
    forEachMaterialTexel(state, params, cellSize, y0, y1, x0, x1, (_i, soil, layer, hardness) => {
        texels[k] = soil;
        texels[k + 1] = layer;
        texels[k + 2] = hardness;
        texels[k + 3] = 1;
        k += 4;
    });
    return texels;
}

/**
 * Calls `visit` with each vertex of columns `x0 .. x1 - 1` of rows `y0 .. y1 - 1` (index in the
 * field), its soil (local units), exposed bed (-1: none) and hardness (times the soil's).
 */
function forEachMaterialTexel(
    state: MaterialState, params: MaterialFields, cellSize: number, y0: number, y1: number, x0: number, x1: number,
    visit: (i: number, soil: number, layer: number, hardness: number) => void
): void {
    const { width, heights } = state;
    const materials = state.materials!;
    const unit = cellSize / FIXED_ONE;
    for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
            const i = y * width + x;
            // Rock a ground edit placed (a negative factor) is no bed of the strata.
            const layer = materials.hardness[i] < 0 ? null : bedIndex(params, heights[i] - materials.soil[i], x, y);
            visit(i, materials.soil[i] * unit, layer ?? -1, vertexHardness(params, heights, materials, i, x, y) / HARDNESS_ONE);
        }
    }
}
