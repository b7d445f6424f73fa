/**
 * Erosion maps: what terrain artists reach for after erosion (Houdini, Gaea and World Machine output
 * flow, wear and deposition masks). Accumulated since attach or the last reset of the maps; they do
 * not affect the simulation, so they are not part of the fingerprint.
 *
 * - `water`: droplet steps that passed each vertex (a step counts at the vertex nearest where it
 *   starts);
 * - `wear`: material removed from each vertex, fixed point (1/65536 of the cell size), the sum over every pass of
 *   the cell's net lowering in that pass;
 * - `deposition`: material laid down, likewise;
 * - drainage direction: computed from the current heights on demand (`drainageDirections`);
 * - drainage area: the river operator's state (`drainageArea`), read with the maps.
 * Every counter is a u32 that saturates at 2^32 - 1 rather than wrapping. As long as none has
 * saturated, sum(wear) - sum(deposition) is exactly the material the heights lost.
 */
import { fixedUnitLength, U32_MAX } from "./fixedPoint.js";
import { riverSlot } from "./steepestDescent.js";
import type { MaterialGrids } from "./materialGrids.js";
import { materialTexels } from "./materialMaps.js";
import type { MaterialFields } from "./materialParams.js";
import type { WaterGrids } from "./waterModel.js";
import { waterTexels } from "./waterMaps.js";
import { newTexels, type TexelAllocator } from "./texelAllocator.js";

/** The accumulated maps, one u32 per vertex, row-major. */
export interface ErosionMaps {
    readonly water: Uint32Array;
    readonly wear: Uint32Array;
    readonly deposition: Uint32Array;
}

/** Largest value a map cell holds (it saturates there): a u32's largest. */
export const MAP_LIMIT = U32_MAX;

/** Fresh, zeroed maps for a grid of `cells` vertices. */
export function createMaps(cells: number): ErosionMaps {
    return { water: new Uint32Array(cells), wear: new Uint32Array(cells), deposition: new Uint32Array(cells) };
}

/** `map[i] += value` saturating at `MAP_LIMIT` (value >= 0). */
export function addSaturating(map: Uint32Array, i: number, value: number): void {
    const sum = map[i] + value;
    map[i] = sum > MAP_LIMIT ? MAP_LIMIT : sum;
}

/** Records a cell's net change of one pass: lowering as wear, raising as deposition. */
export function recordChange(maps: ErosionMaps, i: number, change: number): void {
    if (change < 0) {
        addSaturating(maps.wear, i, -change);
    } else if (change > 0) {
        addSaturating(maps.deposition, i, change);
    }
}

/**
 * Where each vertex's water goes, as the river operator routes it (`riverSlot`: down the fill
 * levels, so across basins to their spill; on a tileable terrain down the heights, across the seam):
 * the slot index (0..7: +x, -x, +y, -y, then the diagonals), or 255 where nothing is lower. Mirrors
 * `write_maps.wgsl`'s direction.
 */
export function drainageDirections(
    heights: Int32Array, levels: Int32Array, width: number, depth: number, tileable: boolean, y0 = 0, y1 = depth, x0 = 0, x1 = width
): Uint8Array {
    const columns = x1 - x0;
    const directions = new Uint8Array(columns * (y1 - y0)).fill(255);
    const wrap = tileable && width > 2 && depth > 2;
    for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
            const slot = riverSlot(heights, levels, x, y, width, depth, wrap && x < width - 1 && y < depth - 1);
            if (slot >= 0) directions[(y - y0) * columns + x - x0] = slot;
        }
    }
    return directions;
}

/** Rows of the maps texture (RGBA per vertex), of the drainage-area texture and, once asked for, of the shallow-water and materials textures (RGBA each). */
export interface MapsTexels {
    readonly maps: Float32Array;
    readonly area: Float32Array;
    readonly water: Float32Array | null;
    readonly materials: Float32Array | null;
}

/** What a CPU-kept maps texture needs besides the maps and the state. */
export interface MapsTexelOptions {
    /** The state is tileable (the drainage direction wraps). */
    readonly tileable: boolean;
    /** The cell size in local units (wear and deposition are written in local units). */
    readonly cellSize: number;
    /** Whether the shallow-water texels are wanted too (only once someone asked for that texture). */
    readonly water: boolean;
    /** The materials' fields in force (`materialParams`) when the materials texels are wanted too (only once someone asked for that texture), else null. */
    readonly materials: MaterialFields | null;
}

/**
 * The texels of rows `y0 .. y1 - 1` of the maps texture, as `write_maps.wgsl` and
 * `write_area_map.wgsl` write them on the GPU: RGBA per vertex (water visits, wear and deposition
 * in local units, drainage direction slot or -1) and the drainage area (cells) per vertex. Columns
 * `x0 .. x1 - 1` of each row (the whole row by default), row after row.
 */
export function mapsTexels(
    maps: ErosionMaps,
    state: {
        heights: Int32Array; fillLevels: Int32Array; drainageArea: Int32Array; width: number; depth: number;
        water?: WaterGrids | null; materials?: MaterialGrids | null
    },
    options: MapsTexelOptions,
    y0: number,
    y1: number,
    alloc: TexelAllocator = newTexels,
    x0 = 0,
    x1: number = state.width
): MapsTexels {
    const { width } = state;
    const columns = x1 - x0;
    const directions = drainageDirections(state.heights, state.fillLevels, width, state.depth, options.tileable, y0, y1, x0, x1);
    const unit = fixedUnitLength(options.cellSize);
    const texels = alloc(columns * (y1 - y0) * 4);
    const area = alloc(columns * (y1 - y0));
    for (let y = y0, k = 0; y < y1; y++) {
        for (let i = y * width + x0, end = y * width + x1; i < end; i++, k++) {
            texels[k * 4] = maps.water[i];
            texels[k * 4 + 1] = maps.wear[i] * unit;
            texels[k * 4 + 2] = maps.deposition[i] * unit;
            texels[k * 4 + 3] = directions[k] === 255 ? -1 : directions[k];
            area[k] = state.drainageArea[i];
        }
    }
    return {
        maps: texels,
        area,
        water: options.water ? waterTexels(state, options.cellSize, y0, y1, alloc, x0, x1) : null,
        materials: options.materials ? materialTexels(state, options.materials, options.cellSize, y0, y1, alloc, x0, x1) : null,
    };
}
