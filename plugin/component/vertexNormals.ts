/**
 * Vertex normals of a height grid by central differences (one-sided at the edges), in the ground's
 * local space: x grows with the column, z falls as the row grows (Babylon's CreateGround layout).
 * The CPU mirror of `shaders/write_vertices.wgsl`'s normal, used by the CPU backend and `flush()`.
 */

/**
 * Recomputes normals for vertex rows `y0 .. y1 - 1` from the heights in `positions` (y of each
 * xyz triple).
 * @param positions xyz per vertex, row-major
 * @param normals xyz per vertex, written for the rows
 * @param width vertices per row
 * @param depth rows
 * @param cellSize distance between neighbouring vertices, local units
 */
export function computeNormalRows(positions: Float32Array, normals: Float32Array, width: number, depth: number, cellSize: number, y0: number, y1: number): void {
    for (let y = y0; y < y1; y++) {
        const up = y > 0 ? y - 1 : y;
        const down = y < depth - 1 ? y + 1 : y;
        for (let x = 0; x < width; x++) {
            const left = x > 0 ? x - 1 : x;
            const right = x < width - 1 ? x + 1 : x;
            const dhdx = (positions[(y * width + right) * 3 + 1] - positions[(y * width + left) * 3 + 1]) / ((right - left) * cellSize);
            // z decreases as the row index grows.
            const dhdz = (positions[(up * width + x) * 3 + 1] - positions[(down * width + x) * 3 + 1]) / ((down - up) * cellSize);
            const inverseLength = 1 / Math.sqrt(dhdx * dhdx + 1 + dhdz * dhdz);
            const i = (y * width + x) * 3;
            normals[i] = -dhdx * inverseLength;
            normals[i + 1] = inverseLength;
            normals[i + 2] = -dhdz * inverseLength;
        }
    }
}
