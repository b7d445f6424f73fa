/**
 * Tiled terrain from one height grid: `createGroundTilesFromHeights` cuts a heightmap into a grid of
 * updatable grounds that share their edge vertices, placed so they cover the ground a single
 * `createGroundFromHeights` would (centred on the origin), ready for a `TerrainErosionWorld`.
 */
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { createGroundFromHeights, type HeightsGroundOptions } from "./heightmapGround.js";
import { samplesToHeights } from "./heightSamples.js";

/** Options of `createGroundTilesFromHeights`: the whole grid's, and how to cut it. */
export interface GroundTilesOptions extends HeightsGroundOptions {
    /**
     * How to cut the grid: a number of tiles along each axis (cells shared out as evenly as they go,
     * the first tiles taking one more where they do not divide), or the cells of each tile in order
     * (x from the -x edge, z from the far, +z, edge), which must add up to the grid's cells.
     */
    readonly tiles: { readonly columns: number | readonly number[]; readonly rows: number | readonly number[] };
}

/** Cells per tile along one axis. */
function cut(cells: number, tiles: number | readonly number[], axis: string): number[] {
    if (typeof tiles === "number") {
        if (!Number.isInteger(tiles) || tiles < 1 || tiles > cells) {
            throw new RangeError(
                `createGroundTilesFromHeights: tiles.${axis} is ${tiles}: it must be an integer from 1 to the ${cells} cells along that axis.`
            );
        }
        return Array.from({ length: tiles }, (_, i) => Math.floor(cells / tiles) + (i < cells % tiles ? 1 : 0));
    }
    const total = tiles.reduce((sum, n) => sum + n, 0);
    if (tiles.length === 0 || tiles.some((n) => !Number.isInteger(n) || n < 1) || total !== cells) {
        throw new RangeError(
            `createGroundTilesFromHeights: tiles.${axis} is [${tiles.join(", ")}]: positive integers adding up to the ${cells} cells along that axis.`
        );
    }
    return [...tiles];
}

/**
 * Cuts a height grid into `grounds[row][column]` (row 0 at the far, +z, edge; column 0 at the -x
 * edge), neighbours sharing their edge vertices, named `${name}_r${row}_c${column}`.
 * @param heights metres (`Float32Array`), or 16-bit samples mapped through `options.range`
 */
export function createGroundTilesFromHeights(name: string, heights: Float32Array | Uint16Array, options: GroundTilesOptions, scene: Scene): GroundMesh[][] {
    const { columns, rows, extent } = options;
    if (heights.length !== columns * rows) {
        throw new RangeError(`createGroundTilesFromHeights: ${heights.length} heights for ${columns} x ${rows} vertices.`);
    }
    if (heights instanceof Uint16Array && !options.range) {
        throw new RangeError("createGroundTilesFromHeights: 16-bit samples need options.range (the heights of samples 0 and 65535).");
    }
    const metres = heights instanceof Uint16Array ? samplesToHeights(heights, options.range!) : heights;
    const cellX = extent.width / (columns - 1);
    const cellZ = extent.height / (rows - 1);
    const tileCells = { x: cut(columns - 1, options.tiles.columns, "columns"), z: cut(rows - 1, options.tiles.rows, "rows") };
    const grounds: GroundMesh[][] = [];
    let y0 = 0;
    tileCells.z.forEach((cellsZ, row) => {
        const line: GroundMesh[] = [];
        let x0 = 0;
        tileCells.x.forEach((cellsX, column) => {
            const tile = new Float32Array((cellsX + 1) * (cellsZ + 1));
            for (let y = 0; y <= cellsZ; y++) {
                tile.set(metres.subarray((y0 + y) * columns + x0, (y0 + y) * columns + x0 + cellsX + 1), y * (cellsX + 1));
            }
            const ground = createGroundFromHeights(
                `${name}_r${row}_c${column}`, tile, { columns: cellsX + 1, rows: cellsZ + 1, extent: { width: cellsX * cellX, height: cellsZ * cellZ } }, scene
            );
            ground.position.set(-extent.width / 2 + (x0 + cellsX / 2) * cellX, 0, extent.height / 2 - (y0 + cellsZ / 2) * cellZ);
            line.push(ground);
            x0 += cellsX;
        });
        grounds.push(line);
        y0 += cellsZ;
    });
    return grounds;
}
