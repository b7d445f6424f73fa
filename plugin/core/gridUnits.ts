/**
 * The units an error speaks in. The core checks lengths, heights and positions in cells (the
 * grid's own units, which the mesh-free API takes); the behaviors take world units and convert,
 * so their errors name the values and ranges in world units (`worldUnits` in
 * `plugin/component/worldUnits.ts`), as the caller gave them.
 */

/** How a message writes a length, a height, a position and the field's extent. */
export interface GridUnits {
    /** The length unit's name, plural: "cells", "world units". */
    readonly name: string;
    /** A length of `cells` cells in the caller's units, for a message. */
    length(cells: number): number;
    /** A height `cells` cells above the grid's zero as the caller's height, for a message. */
    height(cells: number): number;
    /** A grid position (column, row, fractional) as the caller writes one: "(12, 4) cells", "(x 24, z -8)". */
    position(column: number, row: number): string;
    /** The field of `width x depth` vertices as the caller's positions. */
    extent(width: number, depth: number): string;
}

/** The grid's own units: what the mesh-free API takes. */
export const CELL_UNITS: GridUnits = {
    name: "cells",
    length: (cells) => cells,
    height: (cells) => cells,
    position: (column, row) => `(${column}, ${row}) cells`,
    extent: (width, depth) => `0..${width - 1} x 0..${depth - 1} cells`,
};
