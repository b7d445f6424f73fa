/**
 * Classes of patches that cannot reach each other: the unit a cycle runs at once.
 *
 * Two batches are independent when neither writes a vertex the other reads or writes. A batch
 * writes only inside its extent (`batchExtent`) and reads at most `READ_MARGIN` vertices beyond it
 * (the fill levels and the steepest-descent receivers read one ring of neighbours; the margin keeps
 * one more). Batches whose extents grown by the margin do not meet give the same result in any
 * order, run together in one dispatch, or split over frames, workers or devices.
 *
 * The classes come from a greedy colouring in patch order, so they derive from the grid size and
 * the options only. On a tileable terrain the field is a torus of period (width - 1) x (depth - 1)
 * (tile_seam ties the last column and row to the first), so extents are compared across the seam too.
 */
import type { GridRect, Patch } from "./patches.js";

/** Vertices beyond its extent that a batch may read. */
export const READ_MARGIN = 2;

/** The grid the classes are worked out on. */
export interface ClassGrid {
    readonly width: number;
    readonly depth: number;
    /** True on a tileable terrain: extents meet across the seam. */
    readonly torus: boolean;
}

/** Whether `[a0, a1)` grown by `margin` meets `[b0, b1)` on a line, or on a circle of `period` when given. */
function spansMeet(a0: number, a1: number, b0: number, b1: number, margin: number, period: number | null): boolean {
    const lo = a0 - margin;
    const hi = a1 + margin;
    if (period === null) {
        return lo < b1 && b0 < hi;
    }
    for (const shift of [-period, 0, period]) {
        if (lo < b1 + shift && b0 + shift < hi) {
            return true;
        }
    }
    return false;
}

/** Whether batches with extents `a` and `b` may interact (one writes what the other reads or writes). */
export function extentsMeet(a: GridRect, b: GridRect, grid: ClassGrid): boolean {
    const periodX = grid.torus ? grid.width - 1 : null;
    const periodY = grid.torus ? grid.depth - 1 : null;
    return spansMeet(a.x0, a.x1, b.x0, b.x1, READ_MARGIN, periodX) && spansMeet(a.y0, a.y1, b.y0, b.y1, READ_MARGIN, periodY);
}

/**
 * Groups `patches` into classes of mutually independent patches: each patch, in index order, joins
 * the first class none of whose members its extent meets. Returns the classes in order, each with
 * its patches in index order.
 */
export function independentClasses(patches: readonly Patch[], extentOf: (patch: Patch) => GridRect, grid: ClassGrid): Patch[][] {
    const classes: { patches: Patch[]; extents: GridRect[] }[] = [];
    for (const patch of patches) {
        const extent = extentOf(patch);
        let home = classes.find((candidate) => !candidate.extents.some((other) => extentsMeet(extent, other, grid)));
        if (!home) {
            home = { patches: [], extents: [] };
            classes.push(home);
        }
        home.patches.push(patch);
        home.extents.push(extent);
    }
    return classes.map((candidate) => candidate.patches);
}
