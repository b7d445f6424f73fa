/**
 * The soft circular erosion brush of droplet erosion (a droplet's cut spread over a disc of vertices
 * rather than the four around it), as a table both backends read.
 *
 * Entry k is three `i32`s: (dx, dy, weight), offsets in cells from the brush centre (the vertex
 * nearest the droplet) and a Q16 weight. The centre comes first. Weights fall off linearly,
 * `1 - distance / (radius + 1)`, over every vertex within `radius` cells, and sum to exactly
 * 65536: the centre takes what the floors of the others leave, so a cut spread by the brush
 * moves exactly the material the droplet picks up.
 */
import { FIXED_ONE } from "./fixedPoint.js";

/** Integers per brush entry: dx, dy, weight. */
export const BRUSH_ENTRY_INTS = 3;

/** Brush table for `radius` (cells). Radius 0 gives an empty table: the walk then cuts bilinearly. */
export function buildBrush(radius: number): Int32Array {
    if (radius === 0) {
        return new Int32Array(0);
    }
    const entries: { dx: number; dy: number; weight: number }[] = [];
    let total = 0;
    for (let dy = -radius; dy <= radius; dy++) {
        for (let dx = -radius; dx <= radius; dx++) {
            const distance = Math.sqrt(dx * dx + dy * dy);
            if (distance <= radius) {
                const weight = 1 - distance / (radius + 1);
                entries.push({ dx, dy, weight });
                total += weight;
            }
        }
    }
    // Centre first, then by distance and position, so the table is the same on every machine.
    entries.sort((a, b) => a.dx * a.dx + a.dy * a.dy - (b.dx * b.dx + b.dy * b.dy) || a.dy - b.dy || a.dx - b.dx);
    const table = new Int32Array(entries.length * BRUSH_ENTRY_INTS);
    let assigned = 0;
    for (let k = entries.length - 1; k >= 0; k--) {
        const weight = k === 0 ? FIXED_ONE - assigned : Math.floor((entries[k].weight / total) * FIXED_ONE);
        assigned += weight;
        table[k * BRUSH_ENTRY_INTS] = entries[k].dx;
        table[k * BRUSH_ENTRY_INTS + 1] = entries[k].dy;
        table[k * BRUSH_ENTRY_INTS + 2] = weight;
    }
    return table;
}

/** Number of entries in a brush table. */
export function brushEntryCount(table: Int32Array): number {
    return table.length / BRUSH_ENTRY_INTS;
}

/** Brush tables by radius, each built once (a run asks for one or two radii, again and again). */
export class BrushCache {
    private readonly _tables = new Map<number, Int32Array>();

    /** The brush table for `radius` (cells), built the first time it is asked for. */
    public get(radius: number): Int32Array {
        let brush = this._tables.get(radius);
        if (!brush) {
            brush = buildBrush(radius);
            this._tables.set(radius, brush);
        }
        return brush;
    }
}
