/**
 * The eight neighbour directions of every grid kernel (thermal flux slots, steepest descent, drainage
 * and fill levels), in slot order: the four edges, then the four diagonals. `neighbours: 4` uses the
 * first four. The WGSL kernels get the same table through the generated header (see `shaderHeader`
 * in the GPU backend), so the order is defined once.
 */

/** x offsets of slots 0..7. */
export const THERMAL_DX = [1, -1, 0, 0, 1, -1, 1, -1] as const;
/** y offsets of slots 0..7. */
export const THERMAL_DY = [0, 0, 1, -1, 1, 1, -1, -1] as const;
/** Neighbour slots per vertex: the directions above, and the flux slots per vertex in the flux buffer. */
export const THERMAL_SLOTS = 8;
/** The first diagonal slot: slots below it are edges (one cell of run), from it on diagonals (sqrt 2). */
export const FIRST_DIAGONAL_SLOT = 4;

/** The slot pointing back: the neighbour in slot k sees this vertex in slot OPPOSITE_SLOT[k]. */
export const OPPOSITE_SLOT = [1, 0, 3, 2, 7, 6, 5, 4] as const;

/** The grid offset of each neighbour slot (`dy x width + dx`) on a grid `width` vertices wide, for vertices away from its edges and seams. */
export function neighbourOffsets(width: number): Int32Array {
    return Int32Array.from({ length: THERMAL_SLOTS }, (_, k) => THERMAL_DY[k] * width + THERMAL_DX[k]);
}
