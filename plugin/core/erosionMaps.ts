/**
 * Erosion maps: what terrain artists reach for after erosion (Houdini, Gaea and World Machine output
 * flow, wear and deposition masks). Accumulated since attach or the last reset of the maps; they do
 * not affect the simulation, so they are not part of the fingerprint.
 *
 * - `water`: droplet steps that passed each vertex (a step counts at the vertex nearest where it
 *   starts);
 * - `wear`: material removed from each vertex, fixed point (1/65536 m), the sum over every pass of
 *   the cell's net lowering in that pass;
 * - `deposition`: material laid down, likewise;
 * - flow direction: computed from the current heights on demand (`flowDirections`).
 * Every counter is a u32 that saturates at 2^32 - 1 rather than wrapping. As long as none has
 * saturated, sum(wear) - sum(deposition) is exactly the material the heights lost.
 */
import { receiverOf } from "./flowRouting.js";

/** The accumulated maps, one u32 per vertex, row-major. */
export interface ErosionMaps {
    readonly water: Uint32Array;
    readonly wear: Uint32Array;
    readonly deposition: Uint32Array;
}

/** Largest value a map cell holds (it saturates there). */
export const MAP_LIMIT = 0xffffffff;

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
 * Where each vertex drains, as the slot index (0..7: +x, -x, +y, -y, then the diagonals) of its
 * lowest strictly lower neighbour, or 255 for pits and flats. Mirrors `write_maps.wgsl`'s direction.
 */
export function flowDirections(heights: Int32Array, width: number, depth: number, neighbours: 4 | 8, wrap: boolean): Uint8Array {
    const directions = new Uint8Array(width * depth).fill(255);
    for (let y = 0; y < depth; y++) {
        for (let x = 0; x < width; x++) {
            const receiver = receiverOf(heights, x, y, width, depth, neighbours, wrap);
            if (receiver >= 0) {
                directions[y * width + x] = slotTowards(x, y, receiver % width, Math.floor(receiver / width), width, depth);
            }
        }
    }
    return directions;
}

const SLOT_DX = [1, -1, 0, 0, 1, -1, 1, -1];
const SLOT_DY = [0, 0, 1, -1, 1, 1, -1, -1];

function slotTowards(x: number, y: number, rx: number, ry: number, width: number, depth: number): number {
    for (let k = 0; k < 8; k++) {
        if ((x + SLOT_DX[k] + width) % width === rx && (y + SLOT_DY[k] + depth) % depth === ry) {
            return k;
        }
    }
    return 255;
}
