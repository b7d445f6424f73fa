/**
 * The slot forest of a river batch, which the walk (`riverWalk.ts`) goes down: each vertex's
 * donors as a byte, the forest's roots, and the roots split into shares of about equal work for
 * the worker pool.
 */
import { type BatchParams, riverRect } from "../../../core/batchParams.js";
import { neighbourOffsets, OPPOSITE_SLOT, THERMAL_DX, THERMAL_DY } from "../../../core/thermalDirections.js";
import { expandRect, type GridRect } from "../../../core/patches.js";

import type { RowRange } from "../../rowBands.js";

/** The bit a receiver's donor byte gets from the neighbour whose slot is k: its own direction seen from the receiver. */
const DONOR_BITS = Int32Array.from(OPPOSITE_SLOT, (opposite) => 1 << opposite);

/**
 * Each river-rectangle vertex's donors in `rows` (bit k: neighbour k's slot points here), one
 * byte a vertex of `donors`, found by going over the slots of the rows and the rows next to them
 * and marking each receiver in `rows`: so bands of rows never write each other's bytes. One byte
 * a vertex the walk reads where it read eight slots (the walk at 512²: 41 -> 35 ms).
 * With `roots` (`rows` holding every row of the rectangle), the forest's roots go into it too, in
 * row order, as `riverRoots` lists them: the slots read once, not twice (a 512² batch's donors and
 * roots 1.24 -> 0.85 ms).
 */
export function riverDonors(params: BatchParams, slots: Int32Array, donors: Uint8Array, rows: RowRange, roots: VertexList | null = null): void {
    const { width, depth } = params;
    const rect = riverRect(params);
    const offsets = neighbourOffsets(width);
    const y0 = Math.max(rect.y0, rows.y0);
    const y1 = Math.min(rect.y1, rows.y1);
    if (y1 <= y0) return;
    if (roots !== null && (y0 !== rect.y0 || y1 !== rect.y1))
        throw new Error("Internal error: the donors list the roots only over every row of the river rectangle.");
    if (roots !== null) roots.count = 0;
    for (let y = y0; y < y1; y++) donors.fill(0, y * width + rect.x0, y * width + rect.x1);
    const from = expandRect({ x0: rect.x0, y0, x1: rect.x1, y1 }, 1, width, depth);
    const whole = rect.x0 === 0 && rect.x1 === width;
    const bits = DONOR_BITS;
    for (let y = from.y0; y < from.y1; y++) {
        if (whole && y > y0 && y < y1 - 1) {
            // A row inside the rows, across the whole width: its receivers lie in the rows (no
            // checks, a 512² batch's donors 0.95 -> 0.81 ms), and a vertex without one is a root.
            if (roots === null) {
                for (let i = y * width, end = i + width; i < end; i++) {
                    const slot = slots[i];
                    if (slot >= 0) donors[i + offsets[slot]] |= bits[slot];
                }
            } else {
                for (let i = y * width, end = i + width; i < end; i++) {
                    const slot = slots[i];
                    if (slot >= 0) donors[i + offsets[slot]] |= bits[slot];
                    else roots.add(i);
                }
            }
            continue;
        }
        const rowInRect = y >= y0 && y < y1;
        for (let x = from.x0, i = y * width + x; x < from.x1; x++, i++) {
            const slot = slots[i];
            // A vertex of the rectangle whose water leaves it (or goes nowhere) is a root.
            const mayRoot = roots !== null && rowInRect && x >= rect.x0 && x < rect.x1;
            if (slot < 0) {
                if (mayRoot) roots.add(i);
                continue;
            }
            const ry = y + THERMAL_DY[slot];
            const rx = x + THERMAL_DX[slot];
            if (ry < y0 || ry >= y1 || (!whole && (rx < rect.x0 || rx >= rect.x1))) {
                if (mayRoot) roots.add(i);
                continue;
            }
            donors[i + offsets[slot]] |= bits[slot];
        }
    }
}

/** The first bytes of a grid of `cells` vertices as one byte a vertex (the donors' grid lives in the erosion scratch during a walk). */
export function byteView(grid: Int32Array, cells: number): Uint8Array {
    return new Uint8Array(grid.buffer, grid.byteOffset, cells);
}

/** A list of vertices, kept from batch to batch. */
export class VertexList {
    public cells = new Int32Array(0);
    public count = 0;

    /** The listed vertices. */
    public get list(): Int32Array {
        return this.cells.subarray(0, this.count);
    }

    public add(i: number): void {
        if (this.count === this.cells.length) {
            const cells = new Int32Array(Math.max(256, 2 * this.count));
            cells.set(this.cells);
            this.cells = cells;
        }
        this.cells[this.count++] = i;
    }
}

/** The roots of a river batch's slot forest, in row order: the river rectangle's vertices with no receiver in it. */
export function riverRoots(params: BatchParams, slots: Int32Array, into: VertexList): Int32Array {
    const { width, depth } = params;
    const rect = riverRect(params);
    const whole = rect.x0 === 0 && rect.y0 === 0 && rect.x1 === width && rect.y1 === depth;
    into.count = 0;
    for (let y = rect.y0; y < rect.y1; y++) {
        for (let x = rect.x0, i = y * width + x; x < rect.x1; x++, i++) {
            const slot = slots[i];
            if (slot < 0 || (!whole && !inRect(rect, x + THERMAL_DX[slot], y + THERMAL_DY[slot]))) into.add(i);
        }
    }
    return into.list;
}

/**
 * `roots` split into `parts` shares of about equal work: each tree, largest first (by `sizes` at
 * its root, from the last batch's walk; at least 1), to the share with the fewest vertices so far
 * (the lowest share on a tie). Any split gives the same integers; this one only balances.
 */
export function splitRoots(roots: Int32Array, sizes: Int32Array, parts: number, cells: number): Int32Array[] {
    const order = Array.from(roots, (root) => ({ root, size: Math.min(Math.max(sizes[root], 1), cells) }));
    order.sort((a, b) => b.size - a.size || a.root - b.root);
    const loads = new Array<number>(parts).fill(0);
    const shares: number[][] = Array.from({ length: parts }, () => []);
    for (const { root, size } of order) {
        let lightest = 0;
        for (let part = 1; part < parts; part++) if (loads[part] < loads[lightest]) lightest = part;
        loads[lightest] += size;
        shares[lightest].push(root);
    }
    return shares.map((share) => Int32Array.from(share));
}

/** Whether (x, y) lies in `rect`. */
export function inRect(rect: GridRect, x: number, y: number): boolean {
    return x >= rect.x0 && x < rect.x1 && y >= rect.y0 && y < rect.y1;
}
