/**
 * Vertex normals by central differences (one-sided at the field's edges), in the ground's local
 * space: x grows with the column, z falls as the row grows (Babylon's CreateGround layout). The
 * one TypeScript form of `shaders/scene/write_vertices.wgsl`'s normal: the CPU backend's ground sync
 * (`GroundField`) writes its normals with it, and the GPU's are tested against it. Floats: for
 * rendering only, never part of the state.
 */
import { fixedUnitLength } from "./fixedPoint.js";

/**
 * Writes the normals of one row of vertices into `normals` (xyz per vertex) from three rows of
 * heights (local units): the row above (`up`), the row itself (`here`) and the row below (`down`).
 * At the field's first or last row pass `here` for the missing neighbour and `rowSpan` 1, else 2.
 * @param width vertices in the row
 * @param cellSize distance between neighbouring vertices, local units
 * @param normals where they go: column `x0`'s first (three floats a vertex)
 * @param x0 the first column written (0 by default)
 * @param x1 the column after the last written (`width` by default)
 */
export function writeNormalRow(
    up: ArrayLike<number>, here: ArrayLike<number>, down: ArrayLike<number>, rowSpan: number, width: number, cellSize: number, normals: Float32Array, x0 = 0,
    x1 = width
): void {
    for (let x = x0; x < x1; x++) {
        const left = x > 0 ? x - 1 : x;
        const right = x < width - 1 ? x + 1 : x;
        const dhdx = (here[right] - here[left]) / ((right - left) * cellSize);
        // z decreases as the row index grows.
        const dhdz = (up[x] - down[x]) / (rowSpan * cellSize);
        const inverseLength = 1 / Math.sqrt(dhdx * dhdx + 1 + dhdz * dhdz);
        const k = (x - x0) * 3;
        normals[k] = -dhdx * inverseLength;
        normals[k + 1] = inverseLength;
        normals[k + 2] = -dhdz * inverseLength;
    }
}

/**
 * The normals of field rows `y0 .. y1 - 1` (xyz per vertex, row after row) from fixed-point heights,
 * each height first rounded to a float32 in local units as a ground's positions hold it: the same
 * floats `GroundField` computes from the positions once those rows are written, so the CPU
 * backend's worker can compute them off the main thread.
 * @param heights fixed-point heights of the whole field, `width` a row, `depth` rows
 * @param cellSize distance between neighbouring vertices, local units
 * @param target where to write them (`(y1 - y0) * (x1 - x0) * 3` floats; a new array by default)
 * @param x0 the first column written (0 by default)
 * @param x1 the column after the last written (`width` by default)
 */
export function normalRowsFromFixed(
    heights: Int32Array, width: number, depth: number, cellSize: number, y0: number, y1: number, target?: Float32Array, x0 = 0, x1 = width
): Float32Array {
    const unit = fixedUnitLength(cellSize);
    const columns = x1 - x0;
    const normals = target ?? new Float32Array((y1 - y0) * columns * 3);
    // The columns the normals read: one either side of theirs.
    const from = Math.max(0, x0 - 1);
    const to = Math.min(width, x1 + 1);
    const rowAt = (y: number, row: Float32Array) => {
        for (let x = from, i = y * width + from; x < to; x++, i++) row[x] = heights[i] * unit;
        return row;
    };
    let up: Float32Array = rowAt(Math.max(0, y0 - 1), new Float32Array(width));
    let here: Float32Array = rowAt(y0, new Float32Array(width));
    let spare: Float32Array = new Float32Array(width);
    for (let y = y0; y < y1; y++) {
        const down = y + 1 < depth ? rowAt(y + 1, spare) : here;
        writeNormalRow(
            up, here, down, (y > 0 ? 1 : 0) + (y < depth - 1 ? 1 : 0), width, cellSize, normals.subarray((y - y0) * columns * 3, (y - y0 + 1) * columns * 3),
            x0, x1
        );
        if (down !== here) {
            spare = up;
            up = here;
            here = down;
        }
    }
    return normals;
}
