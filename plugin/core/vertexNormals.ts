/**
 * Vertex normals by central differences (one-sided at the field's edges), in the ground's local
 * space: x grows with the column, z falls as the row grows (Babylon's CreateGround layout). The
 * one TypeScript form of `shaders/write_vertices.wgsl`'s normal: the CPU backend's ground sync
 * (`GroundField`) writes its normals with it, and the GPU's are tested against it. Floats: for
 * rendering only, never part of the state.
 */

/**
 * Writes the normals of one row of vertices into `normals` (xyz per vertex) from three rows of
 * heights (local units): the row above (`up`), the row itself (`here`) and the row below (`down`).
 * At the field's first or last row pass `here` for the missing neighbour and `rowSpan` 1, else 2.
 * @param width vertices in the row
 * @param cellSize distance between neighbouring vertices, local units
 */
export function writeNormalRow(up: ArrayLike<number>, here: ArrayLike<number>, down: ArrayLike<number>, rowSpan: number, width: number, cellSize: number, normals: Float32Array): void {
    for (let x = 0; x < width; x++) {
        const left = x > 0 ? x - 1 : x;
        const right = x < width - 1 ? x + 1 : x;
        const dhdx = (here[right] - here[left]) / ((right - left) * cellSize);
        // z decreases as the row index grows.
        const dhdz = (up[x] - down[x]) / (rowSpan * cellSize);
        const inverseLength = 1 / Math.sqrt(dhdx * dhdx + 1 + dhdz * dhdz);
        normals[x * 3] = -dhdx * inverseLength;
        normals[x * 3 + 1] = inverseLength;
        normals[x * 3 + 2] = -dhdz * inverseLength;
    }
}
