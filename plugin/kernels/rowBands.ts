/**
 * Bands of rows: how a pass over a rectangle is split between workers. Each band is a contiguous
 * range of rows; band `b` of `n` over the same range is always the same rows, so a worker that
 * lists something for its band in one pass (a river batch's donors) finds it again in the next.
 */

/** Rows `[y0, y1)`. */
export interface RowRange {
    readonly y0: number;
    readonly y1: number;
}

/** Every row. */
export const ALL_ROWS: RowRange = { y0: -(2 ** 30), y1: 2 ** 30 };

/** Band `band` of `bands` over `[y0, y1)`: the rows split as evenly as whole rows allow, in order. */
export function rowBand(y0: number, y1: number, band: number, bands: number): RowRange {
    const rows = y1 - y0;
    return { y0: y0 + Math.floor((rows * band) / bands), y1: y0 + Math.floor((rows * (band + 1)) / bands) };
}
