/**
 * Sparse Jacobi steps for a river batch on the CPU. A drainage-area step or a sediment hop works
 * out each vertex from its donors' values of the step before (`riverAccumulate.ts`,
 * `riverRoute.ts`); a vertex whose donors did not change (area), or whose donors sent nothing
 * (hops), comes out as it was. So once few vertices change, a step visits only those and the ones
 * their water reaches (each vertex has one receiver, along its river slot), and the integers are
 * the dense step's: the WGSL's, which still visits every vertex. Where a batch runs on one thread
 * (or its trees on several), or in the bake's windows of rows, and does not wrap, the walk of
 * `riverWalk.ts` replaces these steps; they serve a tileable terrain's batch.
 *
 * A band of rows (one worker's, `riverPhases.ts`) cannot read which vertices another band changed
 * without racing it, so a sparse step always works out its band's first and last rows in full:
 * those are the only vertices with donors in other bands (across a tileable terrain's seam too).
 *
 * Measured on the benchmark's 512² field (one thread): from a new state (drainage area 1) the
 * area steps change 207 k vertices at the first step and 28 k at the last; after a few batches,
 * 14 k and 4.6 k. The hops start from about 180 k sending vertices and end near 11 k. A warm
 * batch there went from 240 to 103 ms (the area steps 84 -> 19 ms, the hops 104 -> 46 ms); a
 * sparse visit costs about four times a dense one (scattered reads), so the first steps stay dense.
 */
import type { BatchParams } from "../../../core/batchParams.js";
import { neighbourAt } from "../../../core/steepestDescent.js";
import { THERMAL_DX, THERMAL_DY } from "../../../core/thermalDirections.js";
import type { RowRange } from "../../rowBands.js";
import type { GridRect } from "../../../core/patches.js";

/**
 * The vertices one step changed (area) or sent from (hops), listed while they fit: up to a
 * fraction of the band's vertices (`FRONTIER_SHARE`), beyond which the next step visits every
 * vertex (a dense pass is faster there than the list's scattered reads).
 */
export class ChangedCells {
    private _cells = new Int32Array(0);
    private _count = 0;
    private _capacity = 0;
    private _complete = false;

    /** Whether the list holds every vertex the step changed (false: too many to list, or none listed). */
    public get complete(): boolean {
        return this._complete;
    }

    /** How many are listed. */
    public get count(): number {
        return this._count;
    }

    /** The listed vertices (grid indices), the first `count`. */
    public get cells(): Int32Array {
        return this._cells;
    }

    /** Starts a new list holding at most `capacity` vertices. */
    public begin(capacity: number): void {
        this._capacity = capacity;
        this._count = 0;
        this._complete = true;
    }

    /** Lists vertex `i`, or notes that the list overflowed. */
    public add(i: number): void {
        if (this._count >= this._capacity) {
            this._complete = false;
            return;
        }
        if (this._count === this._cells.length) this._grow();
        this._cells[this._count++] = i;
    }

    /**
     * Doubles the list's room, up to its capacity: grown as needed, never shrunk, so a running
     * component's lists stay near the few thousand vertices a warm batch changes rather than a
     * quarter of the grid each (4 bytes a vertex of the band for every list).
     */
    private _grow(): void {
        const cells = new Int32Array(Math.min(this._capacity, Math.max(1024, this._cells.length * 2)));
        cells.set(this._cells);
        this._cells = cells;
    }

    /** Drops the list: the next step that would read it visits every vertex. */
    public forget(): void {
        this._count = 0;
        this._complete = false;
    }
}

/**
 * A list holds at most 1/FRONTIER_SHARE of the band's vertices. Measured at 512² (one thread, a
 * warm batch): 1/2, 1/4 and 1/8 all within 3% of each other.
 */
export const FRONTIER_SHARE = 4;

/** Capacity of a band's lists: 1/`share` of the band's vertices; none where `share` is 0 (every step dense). */
export function frontierCapacity(rect: GridRect, rows: RowRange, share: number): number {
    return share === 0 ? 0 : Math.max(1, Math.floor(((rect.x1 - rect.x0) * Math.max(0, rows.y1 - rows.y0)) / share));
}

/** What a sparse step visits: the band, the river rectangle, the slots, and the marks that keep each vertex to one visit. */
export interface FrontierScope {
    readonly params: BatchParams;
    readonly rect: GridRect;
    /** The band's rows (within the river rectangle). */
    readonly rows: RowRange;
    readonly slots: Int32Array;
    /** One byte a vertex of the grid, all zero between steps. */
    readonly marks: Uint8Array;
    /** Where the vertices to visit are listed. */
    readonly visits: ChangedCells;
    /** A list holds at most 1/share of the band's vertices (`FRONTIER_SHARE`; 0: no lists, every step dense). */
    readonly share: number;
}

/**
 * Lists into `scope.visits`, once each, the vertices a sparse step must work out, in a fixed
 * order: the band's first and last rows, then each listed vertex (with `visitListed`: the area,
 * where a changed vertex must be written again) and its receiver where that lies in the band.
 * A list the step's loop reads in line, where a visitor called for each vertex took twice as long.
 */
export function frontierCells(scope: FrontierScope, listed: ChangedCells, visitListed: boolean): ChangedCells {
    const { params, rect, rows, slots, marks, visits } = scope;
    const { width, depth } = params;
    const wrap = params.wrap !== 0;
    const { y0, y1 } = rows;
    visits.begin(2 * (rect.x1 - rect.x0) + (visitListed ? 2 : 1) * listed.count);
    if (y1 <= y0) return visits;
    for (const y of y1 - 1 > y0 ? [y0, y1 - 1] : [y0]) {
        for (let i = y * width + rect.x0, end = y * width + rect.x1; i < end; i++) {
            marks[i] = 1;
            visits.add(i);
        }
    }
    // The receiver must lie in the band's rows, and in the rectangle's columns where it is narrower than the grid.
    const first = y0 * width;
    const end = y1 * width;
    const allColumns = rect.x0 === 0 && rect.x1 === width;
    const cells = listed.cells;
    for (let n = 0, count = listed.count; n < count; n++) {
        const i = cells[n];
        if (visitListed && marks[i] === 0) {
            marks[i] = 1;
            visits.add(i);
        }
        const slot = slots[i];
        if (slot < 0) continue;
        let r = i + THERMAL_DY[slot] * width + THERMAL_DX[slot];
        if (wrap || !allColumns) {
            const y = (i / width) | 0;
            const x = i - y * width;
            r = wrap ? neighbourAt(x, y, slot, width, depth, true) : r;
            const rx = r - ((r / width) | 0) * width;
            if (rx < rect.x0 || rx >= rect.x1) continue;
        }
        if (r < first || r >= end || marks[r] !== 0) continue;
        marks[r] = 1;
        visits.add(r);
    }
    for (let n = 0, count = visits.count, listedCells = visits.cells; n < count; n++) marks[listedCells[n]] = 0;
    return visits;
}
