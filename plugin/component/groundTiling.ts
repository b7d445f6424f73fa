/**
 * How a grid of grounds tiles one field: each ground's window (its first column and row in the
 * field), checked before any GPU work. Neighbours share their edge vertices, as tiled terrain
 * does: a column of grounds shares one vertex count along x, a row of grounds one along z, and two
 * neighbours meet exactly, with the same cell size, orientation, scale and edge heights. Each
 * mismatch gets an `ErosionTargetError` naming the pair and the fix.
 */
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { Matrix, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { MAX_GRID_SIDE } from "../core/gridValidation.js";
import { FIXED_ONE } from "../core/fixedPoint.js";
import { GroundBinding } from "./groundBinding.js";
import { ErosionTargetError, type GroundInternals } from "./groundValidation.js";

/** One ground's place in the field. */
export interface FieldWindow {
    /** The ground and its CPU data. */
    readonly binding: GroundBinding;
    /** Its row in the grid of grounds (0 at the far, +z, edge). */
    readonly row: number;
    /** Its column in the grid of grounds (0 at the -x edge). */
    readonly column: number;
    /** The field column of its first vertex. */
    readonly x0: number;
    /** The field row of its first vertex. */
    readonly y0: number;
}

/** A grid of grounds laid out as one field. */
export interface GroundTiling {
    readonly windows: readonly FieldWindow[];
    /** Field vertices per row. */
    readonly width: number;
    /** Field rows. */
    readonly depth: number;
}

/** Largest difference between two grounds' cell sizes (relative) still treated as equal. */
const CELL_TOLERANCE = 1e-6;
/** Largest difference between two grounds' orientation and scale (relative) still treated as equal. */
const MATRIX_TOLERANCE = 1e-5;
/** Largest distance between two edge vertices that should coincide, in cells. */
const PLACEMENT_TOLERANCE_CELLS = 1e-3;

function label(window: { binding: GroundBinding; row: number; column: number }): string {
    return `"${window.binding.ground.name}" (row ${window.row}, column ${window.column})`;
}

/** A vertex's position in the world, its height ignored. */
function worldVertex(binding: GroundBinding, column: number, row: number): Vector3 {
    const internals = binding.ground as unknown as GroundInternals;
    const local = new Vector3(-internals._width / 2 + column * binding.cellSize, 0, internals._height / 2 - row * binding.cellSize);
    return Vector3.TransformCoordinates(local, binding.ground.computeWorldMatrix(true));
}

/** The world matrix without its translation. */
function linearPart(ground: GroundMesh): Matrix {
    const m = ground.computeWorldMatrix(true).clone();
    m.setTranslationFromFloats(0, 0, 0);
    return m;
}

function checkShape(grounds: readonly (readonly GroundMesh[])[]): void {
    if (!Array.isArray(grounds) || grounds.length === 0 || !grounds.every((row) => Array.isArray(row) && row.length > 0)) {
        throw new ErosionTargetError(
            `TerrainErosionWorld needs grounds[row][column]: a non-empty array of non-empty rows of GroundMesh (row 0 at the far, +z, edge; column 0 at the ` +
                `-x edge).`
        );
    }
    const columns = grounds[0].length;
    const ragged = grounds.findIndex((row) => row.length !== columns);
    if (ragged >= 0) {
        throw new ErosionTargetError(
            `TerrainErosionWorld: row ${ragged} of grounds has ${grounds[ragged].length} grounds ` +
                `but row 0 has ${columns}; every row of the grid needs the same number.`
        );
    }
    const seen = new Set<GroundMesh>();
    grounds.forEach((row, r) =>
        row.forEach((ground: GroundMesh, c: number) => {
            if (seen.has(ground)) {
                throw new ErosionTargetError(
                    `TerrainErosionWorld: the ground "${ground?.name}" appears twice in grounds (again at row ${r}, column ${c}); each tile is its own ground.`
                );
            }
            seen.add(ground);
        })
    );
}

/** Checks that two neighbours share an edge: same cell size, orientation and scale, placement and edge heights. */
function checkNeighbours(a: FieldWindow, b: FieldWindow, alongX: boolean): void {
    const cellA = a.binding.cellSize;
    const cellB = b.binding.cellSize;
    if (Math.abs(cellA - cellB) > CELL_TOLERANCE * Math.max(cellA, cellB)) {
        throw new ErosionTargetError(
            `The grounds ${label(a)} and ${label(b)} have cells ${cellA} and ${cellB} units wide; the ` +
                `tiles of a world share one cell size (width / subdivisions): give them the same.`
        );
    }
    const ma = linearPart(a.binding.ground).asArray();
    const mb = linearPart(b.binding.ground).asArray();
    const largest = Math.max(...ma.map(Math.abs));
    if (ma.some((value, i) => Math.abs(value - mb[i]) > MATRIX_TOLERANCE * largest)) {
        throw new ErosionTargetError(
            `The grounds ${label(a)} and ${label(b)} are rotated or scaled differently in the world; the tiles of a world share one ` +
                `orientation and scale: give them the same rotation and scaling (and parents that agree), and move them only by position.`
        );
    }
    // b's first vertex must sit on a's: its east edge (b to the +x side) or its near edge (b on the next row).
    const expected = alongX ? worldVertex(a.binding, a.binding.width - 1, 0) : worldVertex(a.binding, 0, a.binding.depth - 1);
    const actual = worldVertex(b.binding, 0, 0);
    const tolerance = PLACEMENT_TOLERANCE_CELLS * cellA * a.binding.worldScale;
    if (Vector3.Distance(expected, actual) > tolerance) {
        const move = expected.subtract(actual);
        throw new ErosionTargetError(
            `The grounds ${label(a)} and ${label(b)} do not share their ${alongX ? "east/west" : "near/far"} ` +
                `edge: the first vertex of "${b.binding.ground.name}" is at world (${actual.x}, ${actual.z}) ` +
                `(x, z) where the edge of "${a.binding.ground.name}" puts it at (${expected.x}, ${expected.z}). ` +
                `Move "${b.binding.ground.name}" by (${move.x}, ${move.y}, ${move.z}), or reorder grounds[row][column] ` +
                    `(row 0 is the far, +z, edge; column 0 the -x edge, in the grounds' own frame).`
        );
    }
    const count = alongX ? a.binding.depth : a.binding.width;
    for (let k = 0; k < count; k++) {
        const ia = alongX ? k * a.binding.width + a.binding.width - 1 : (a.binding.depth - 1) * a.binding.width + k;
        const ib = alongX ? k * b.binding.width : k;
        const ha = a.binding.originalHeights[ia];
        const hb = b.binding.originalHeights[ib];
        if (ha !== hb) {
            throw new ErosionTargetError(
                `The grounds ${label(a)} and ${label(b)} share an edge whose heights differ at its vertex ${k} (${(ha * cellA) / FIXED_ONE} and ` +
                    `${(hb * cellA) / FIXED_ONE} local units): a world erodes one field, so tiles take the same height at their shared vertices. ` +
                    `Build neighbouring tiles from one heightmap, each including the row or column it shares.`
            );
        }
    }
}

/**
 * Lays out `grounds[row][column]` (row 0 at the far, +z, edge; column 0 at the -x edge) as one
 * field and binds each ground; throws `ErosionTargetError` naming the first ground or pair that
 * does not fit and how to fix it.
 */
export function tileGrounds(grounds: readonly (readonly GroundMesh[])[]): GroundTiling {
    checkShape(grounds);
    const bindings = grounds.map((row) => row.map((ground) => new GroundBinding(ground)));
    const rows = bindings.length;
    const columns = bindings[0].length;
    for (let r = 0; r < rows; r++) {
        for (let c = 0; c < columns; c++) {
            const binding = bindings[r][c];
            if (binding.width !== bindings[0][c].width) {
                throw new ErosionTargetError(
                    `The grounds ${label({ binding, row: r, column: c })} and ${label({ binding: bindings[0][c], row: 0, column: c })} ` +
                        `are in one column of the world but have ${binding.width} and ${bindings[0][c].width} vertices along x; a column ` +
                        `of tiles shares its vertex count along x (subdivisionsX + 1).`
                );
            }
            if (binding.depth !== bindings[r][0].depth) {
                throw new ErosionTargetError(
                    `The grounds ${label({ binding, row: r, column: c })} and ${label({ binding: bindings[r][0], row: r, column: 0 })} ` +
                        `are in one row of the world but have ${binding.depth} and ${bindings[r][0].depth} rows of vertices; a row of ` +
                        `tiles shares its vertex count along z (subdivisionsY + 1).`
                );
            }
        }
    }
    const x0s = [0];
    for (let c = 1; c < columns; c++) x0s.push(x0s[c - 1] + bindings[0][c - 1].width - 1);
    const y0s = [0];
    for (let r = 1; r < rows; r++) y0s.push(y0s[r - 1] + bindings[r - 1][0].depth - 1);
    const width = x0s[columns - 1] + bindings[0][columns - 1].width;
    const depth = y0s[rows - 1] + bindings[rows - 1][0].depth;
    if (width > MAX_GRID_SIDE || depth > MAX_GRID_SIDE) {
        throw new ErosionTargetError(
            `The grounds tile a field of ${width} x ${depth} vertices; erosion supports at most ${MAX_GRID_SIDE} a side. Use fewer or smaller grounds.`
        );
    }
    const grid = bindings.map((row, r) => row.map((binding, c): FieldWindow => ({ binding, row: r, column: c, x0: x0s[c], y0: y0s[r] })));
    for (let r = 0; r < rows; r++) {
        for (let c = 0; c < columns; c++) {
            if (c + 1 < columns) checkNeighbours(grid[r][c], grid[r][c + 1], true);
            if (r + 1 < rows) checkNeighbours(grid[r][c], grid[r + 1][c], false);
        }
    }
    return { windows: grid.flat(), width, depth };
}
