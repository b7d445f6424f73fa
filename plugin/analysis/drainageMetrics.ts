/**
 * Drainage metrics: whether a heightfield drains like a landscape water shaped. They are the
 * yardstick of the realism report (`npm run realism`) and its tests, and a user can run them on any
 * terrain. Floats are fine here: nothing in this file changes the simulation state.
 *
 * Definitions (docs/simulation.md, "Realism"):
 * - Each cell's **receiver** is its steepest strictly lower neighbour of 8 (slope = fall / run, the
 *   diagonal run being sqrt 2 cells); ties go to the first in the order +x, -x, +y, -y, diagonals.
 * - **Drainage area** A accumulates from high to low cells along receivers; each cell counts itself.
 * - A **channel cell** is at least 2 cells from the border, with A >= 20 cells and a receiver.
 * - A **pit** is a cell at least 1 cell from the border with no strictly lower neighbour (a flat
 *   counts); the pit fraction is over those cells.
 * - **theta** is minus the least-squares slope of ln(slope) against ln(A) over the channel cells
 *   (Flint's law; real mountain rivers give about 0.3 to 0.6).
 */

/** Neighbour offsets in the order receivers break ties: the 4 edges, then the diagonals. */
const NEIGHBOUR_DX = [1, -1, 0, 0, 1, -1, 1, -1] as const;
const NEIGHBOUR_DY = [0, 0, 1, -1, 1, 1, -1, -1] as const;
const NEIGHBOUR_RUN = [1, 1, 1, 1, Math.SQRT2, Math.SQRT2, Math.SQRT2, Math.SQRT2] as const;

/** Least drainage area of a channel cell, in cells. */
export const CHANNEL_MIN_AREA = 20;
/** Least drainage area of a steep channel cell, in cells. */
export const STEEP_CHANNEL_MIN_AREA = 100;

/** Receivers, slopes and drainage area of a heightfield. */
export interface DrainageField {
    readonly width: number;
    readonly depth: number;
    /** Each cell's receiver (index), or -1 when no neighbour is strictly lower. */
    readonly receivers: Int32Array;
    /** Slope (rise over run, dimensionless) to the receiver, 0 without one. */
    readonly slopes: Float64Array;
    /** Drainage area in cells (each cell counts itself). */
    readonly area: Float64Array;
}

/** The drainage metrics of one heightfield. */
export interface DrainageMetrics {
    /** Share of the cells at least 1 from the border that have no strictly lower neighbour. */
    readonly pitFraction: number;
    /** Cells at least 2 from the border with A >= 20 and a receiver. */
    readonly channelCells: number;
    /** Flint's concavity over the channel cells (NaN with fewer than 3 channel cells). */
    readonly theta: number;
}

/**
 * Receivers, slopes and drainage area.
 * @param heights row-major heights in metres (or any unit, with `cellSize` in the same unit)
 * @param cellSize distance between neighbouring vertices, in the heights' unit
 */
export function drainageField(heights: ArrayLike<number>, width: number, depth: number, cellSize = 1): DrainageField {
    const cells = width * depth;
    const receivers = new Int32Array(cells).fill(-1);
    const slopes = new Float64Array(cells);
    for (let y = 0; y < depth; y++) {
        for (let x = 0; x < width; x++) {
            const i = y * width + x;
            const h = heights[i];
            let best = 0;
            for (let k = 0; k < 8; k++) {
                const nx = x + NEIGHBOUR_DX[k];
                const ny = y + NEIGHBOUR_DY[k];
                if (nx < 0 || ny < 0 || nx >= width || ny >= depth) continue;
                const n = ny * width + nx;
                const fall = h - heights[n];
                if (fall <= 0) continue;
                const slope = fall / (NEIGHBOUR_RUN[k] * cellSize);
                if (slope > best) {
                    best = slope;
                    receivers[i] = n;
                }
            }
            slopes[i] = best;
        }
    }
    // Accumulate from the highest cell down: every receiver is strictly lower than its donors, so
    // a cell's area is complete before it passes it on.
    const order = Array.from({ length: cells }, (_, i) => i).sort((a, b) => heights[b] - heights[a] || a - b);
    const area = new Float64Array(cells).fill(1);
    for (const i of order) {
        const receiver = receivers[i];
        if (receiver >= 0) area[receiver] += area[i];
    }
    return { width, depth, receivers, slopes, area };
}

function isInner(i: number, width: number, depth: number, margin: number): boolean {
    const x = i % width;
    const y = (i - x) / width;
    return x >= margin && y >= margin && x < width - margin && y < depth - margin;
}

/** Pit fraction, channel cells and theta of a drainage field. */
export function drainageMetrics(field: DrainageField): DrainageMetrics {
    const { width, depth, receivers, slopes, area } = field;
    let pits = 0;
    let pitCandidates = 0;
    let channelCells = 0;
    let sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (let i = 0; i < receivers.length; i++) {
        if (isInner(i, width, depth, 1)) {
            pitCandidates++;
            if (receivers[i] < 0) pits++;
        }
        if (isInner(i, width, depth, 2) && area[i] >= CHANNEL_MIN_AREA && receivers[i] >= 0) {
            channelCells++;
            const lnA = Math.log(area[i]);
            const lnS = Math.log(slopes[i]);
            sx += lnA; sy += lnS; sxx += lnA * lnA; sxy += lnA * lnS;
        }
    }
    const n = channelCells;
    const denominator = n * sxx - sx * sx;
    const theta = n >= 3 && denominator > 0 ? -(n * sxy - sx * sy) / denominator : NaN;
    return { pitFraction: pitCandidates > 0 ? pits / pitCandidates : 0, channelCells, theta };
}

/**
 * The steep channel cells of a (starting) terrain: at least 2 cells from the border, A >= 100 and
 * a slope to the receiver at or above the median slope of the cells at least 2 from the border.
 * Returns their indices.
 */
export function steepChannelCells(field: DrainageField): Int32Array {
    const { width, depth, slopes, area, receivers } = field;
    const inner: number[] = [];
    for (let i = 0; i < slopes.length; i++) {
        if (isInner(i, width, depth, 2)) inner.push(slopes[i]);
    }
    inner.sort((a, b) => a - b);
    const median =
        inner.length === 0 ? 0 : inner.length % 2 === 1 ? inner[(inner.length - 1) / 2] : (inner[inner.length / 2 - 1] + inner[inner.length / 2]) / 2;
    const steep: number[] = [];
    for (let i = 0; i < slopes.length; i++) {
        if (isInner(i, width, depth, 2) && area[i] >= STEEP_CHANNEL_MIN_AREA && receivers[i] >= 0 && slopes[i] >= median) steep.push(i);
    }
    return Int32Array.from(steep);
}

/** Mean of `after - before` over the given cells (metres; positive means raised). */
export function meanChangeAt(before: ArrayLike<number>, after: ArrayLike<number>, cells: ArrayLike<number>): number {
    let total = 0;
    for (let k = 0; k < cells.length; k++) total += after[cells[k]] - before[cells[k]];
    return cells.length > 0 ? total / cells.length : 0;
}

/** Mean |after - before| over the whole field (metres). */
export function meanAbsoluteChange(before: ArrayLike<number>, after: ArrayLike<number>): number {
    let total = 0;
    for (let i = 0; i < before.length; i++) total += Math.abs(after[i] - before[i]);
    return before.length > 0 ? total / before.length : 0;
}

/** Spearman rank correlation of two equally long samples (ties take their mean rank). */
export function spearman(a: ArrayLike<number>, b: ArrayLike<number>): number {
    return pearsonOf(ranks(a), ranks(b));
}

function ranks(values: ArrayLike<number>): Float64Array {
    const order = Array.from({ length: values.length }, (_, i) => i).sort((i, j) => values[i] - values[j]);
    const result = new Float64Array(values.length);
    for (let start = 0; start < order.length; ) {
        let end = start + 1;
        while (end < order.length && values[order[end]] === values[order[start]]) end++;
        const rank = (start + end - 1) / 2;
        for (let k = start; k < end; k++) result[order[k]] = rank;
        start = end;
    }
    return result;
}

/** Pearson correlation of two equally long samples (0 when either is constant). */
export function pearsonOf(a: ArrayLike<number>, b: ArrayLike<number>): number {
    const n = a.length;
    let sa = 0, sb = 0;
    for (let i = 0; i < n; i++) { sa += a[i]; sb += b[i]; }
    const ma = sa / n, mb = sb / n;
    let sab = 0, saa = 0, sbb = 0;
    for (let i = 0; i < n; i++) {
        const da = a[i] - ma, db = b[i] - mb;
        sab += da * db; saa += da * da; sbb += db * db;
    }
    return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 0;
}
