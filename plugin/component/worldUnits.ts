/**
 * The behaviors' errors in world units: the core checks edits, `erodeAt` discs and water sources in
 * cells, and writes the values and ranges of its errors through these units, so a caller who gave
 * world units reads world units (through the field's transform: a moved or scaled ground too).
 */
import type { GridUnits } from "../core/gridUnits.js";
import type { GroundField } from "./groundField.js";

/** A number for a message: six significant digits, so 0.4 world units read back as 0.4. */
const shown = (value: number) => Number(value.toPrecision(6));

/** `field`'s world units, for the core's error messages. */
export function worldUnits(field: GroundField): GridUnits {
    const { cellsPerWorldUnit } = field.toGrid({ x: 0, y: 0, z: 0 });
    const position = (column: number, row: number) => {
        const world = field.toWorld(column, row, 0);
        return `(x ${shown(world.x)}, z ${shown(world.z)})`;
    };
    return {
        name: "world units",
        length: (cells) => shown(cells / cellsPerWorldUnit),
        // At the field's centre: a world height where the ground is neither tilted nor rotated off level.
        height: (cells) => shown(field.toWorld((field.width - 1) / 2, (field.depth - 1) / 2, cells).y),
        position,
        extent: (width, depth) => `from ${position(0, 0)} to ${position(width - 1, depth - 1)}`,
    };
}
