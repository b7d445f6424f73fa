/**
 * How the field is cut into patches, and the fixed order a cycle visits them in.
 *
 * Everything here derives from the grid size and the options only: never from the adapter, the
 * frame budget or timing. That is what lets a run split over any number of frames give the same
 * terrain as a run done in one go.
 */

/** A rectangle of vertices, `[x0, x1) x [y0, y1)`, in grid coordinates (x = column, y = row). */
export interface GridRect {
    readonly x0: number;
    readonly y0: number;
    readonly x1: number;
    readonly y1: number;
}

/** One patch of the field. */
export interface Patch extends GridRect {
    /** Position in the cycle's patch order (row-major over the patch grid). */
    readonly index: number;
}

/**
 * The erosion operators, in the order a cycle runs them (each over all its classes of patches:
 * `cycleUnits.ts`): the shallow water first (rain falls and flows), then the droplets, the rivers and
 * the thermal relaxation.
 */
export const OPERATOR_ORDER = ["water", "hydraulic", "rivers", "thermal"] as const;

/** An erosion operator's name. */
export type OperatorName = (typeof OPERATOR_ORDER)[number];

/**
 * Cuts a `width x depth` vertex grid into patches of `patchSize` cells.
 *
 * There are ceil((width - 1) / patchSize) patch columns; each covers `patchSize` vertex columns,
 * except the last, which runs to the last vertex (so it is up to `patchSize + 1` wide and no patch
 * is a sliver holding only the edge vertex). Rows likewise. Patches are numbered row-major.
 */
export function layoutPatches(width: number, depth: number, patchSize: number): Patch[] {
    const columns = Math.max(1, Math.ceil((width - 1) / patchSize));
    const rows = Math.max(1, Math.ceil((depth - 1) / patchSize));
    const patches: Patch[] = [];
    for (let row = 0; row < rows; row++) {
        for (let column = 0; column < columns; column++) {
            patches.push({
                index: patches.length,
                x0: column * patchSize,
                y0: row * patchSize,
                x1: column === columns - 1 ? width : (column + 1) * patchSize,
                y1: row === rows - 1 ? depth : (row + 1) * patchSize,
            });
        }
    }
    return patches;
}

/** `rect` grown by `margin` vertices on every side and clipped to the grid. */
export function expandRect(rect: GridRect, margin: number, width: number, depth: number): GridRect {
    return {
        x0: Math.max(0, rect.x0 - margin),
        y0: Math.max(0, rect.y0 - margin),
        x1: Math.min(width, rect.x1 + margin),
        y1: Math.min(depth, rect.y1 + margin),
    };
}

/** Smallest rectangle holding both. */
export function unionRect(a: GridRect, b: GridRect): GridRect {
    return { x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) };
}

/** Where two rectangles overlap, or null if they do not. */
export function intersectRects(a: GridRect, b: GridRect): GridRect | null {
    const rect = { x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) };
    return rect.x0 < rect.x1 && rect.y0 < rect.y1 ? rect : null;
}

/** Largest patch of a layout, in vertices (patches are at most patchSize + 1 on a side). */
export function maxPatchVertices(patchSize: number): number {
    return (patchSize + 1) * (patchSize + 1);
}
