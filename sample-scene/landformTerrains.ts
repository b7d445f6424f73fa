/**
 * Terrains built for landforms that build (issue 60): the sample offers the fan and the delta
 * (`?terrain=fan`, `?terrain=delta`) and the realism claims erode the same shapes
 * (scripts/realism/landforms.ts), so what the README shows from the sample is what the claims measure.
 * Heights in cells of 1 m, row-major, `LANDFORM_SIZE` vertices a side.
 */

/** Side of every landform terrain (vertices; cells of 1 m). */
export const LANDFORM_SIZE = 129;
const CENTRE = (LANDFORM_SIZE - 1) / 2;

/** Where the fan terrain's valley meets its plain (column, row). */
export const FAN_OUTLET = { x: CENTRE, y: 80 };

/** The wide valley's floor: columns within this many cells of the centre line. */
export const VALLEY_HALF_WIDTH = 20;

/** The closed basin's centre, radius and the mouth where its feeding valley enters (cells). */
export const BASIN = { x: CENTRE, y: 40, radius: 28, mouth: { x: CENTRE, y: 68 } };

/**
 * A little relief so water picks its ways (cells): up to 0.05 cells of hashed noise a vertex. Not a
 * periodic ripple: the rain's erosion amplified a sine's regular bumps into regular furrows.
 */
function ripple(x: number, y: number): number {
    let hash = Math.imul(x + 1, 0x27d4eb2d) ^ Math.imul(y + 1, 0x165667b1);
    hash = Math.imul(hash ^ (hash >>> 15), 0x85ebca6b);
    hash ^= hash >>> 13;
    return 0.05 * ((hash >>> 0) / 0xffffffff - 0.5) * 2;
}

function heightsOf(height: (x: number, y: number) => number): Float32Array {
    const heights = new Float32Array(LANDFORM_SIZE * LANDFORM_SIZE);
    for (let y = 0; y < LANDFORM_SIZE; y++) for (let x = 0; x < LANDFORM_SIZE; x++) heights[y * LANDFORM_SIZE + x] = height(x, y) + ripple(x, y);
    return heights;
}

/**
 * A mountain front onto a plain: rows from `FAN_OUTLET.y` up a range rising 0.6 a cell, cut by a V
 * valley (floor rising 0.15 a cell, sides 0.6) that opens at the outlet onto a plain falling 0.01 a
 * cell toward row 0, where the water leaves.
 */
export function mountainFrontHeights(): Float32Array {
    return heightsOf((x, y) => {
        const base = 2 + 0.01 * Math.min(y, FAN_OUTLET.y);
        if (y <= FAN_OUTLET.y) return base;
        const rise = y - FAN_OUTLET.y;
        return base + Math.min(0.6 * rise, 0.15 * rise + 0.6 * Math.abs(x - FAN_OUTLET.x));
    });
}

/**
 * A wide valley: a floor 41 cells wide falling 0.01 a cell toward row 0 (0.005 a cell toward its
 * centre line, where the channel runs), walls rising 0.5 a cell beside it, and steep headwaters
 * (0.4 a cell) above row 100 feeding it.
 */
export function wideValleyHeights(): Float32Array {
    return heightsOf((x, y) => {
        const across = Math.abs(x - CENTRE);
        const floor = 2 + 0.01 * y + 0.005 * Math.min(across, VALLEY_HALF_WIDTH) + Math.max(0, y - 100) * 0.4;
        return floor + 0.5 * Math.max(0, across - VALLEY_HALF_WIDTH);
    });
}

/**
 * A river into a closed basin: a bowl (floor 2 cells, rising to 10 at its radius) that every other
 * vertex drains into (the ground rises 0.15 a cell away from it: every steepest path ends in the
 * bowl), fed by a valley from the south edge (its floor falling 0.25 a cell toward the mouth, sides
 * 0.4). The fill levels still take the field's edge as the outlet, so to them the bowl is a lake
 * that spills where the ground is lowest on the edge: the sediment routed across it leaves there.
 */
export function closedBasinHeights(): Float32Array {
    return heightsOf((x, y) => {
        const r = Math.hypot(x - BASIN.x, y - BASIN.y);
        const bowl = r < BASIN.radius ? 2 + 8 * (r / BASIN.radius) ** 2 : 10 + 0.15 * (r - BASIN.radius);
        if (y <= BASIN.mouth.y) return bowl;
        const valley = 10 + 0.25 * (y - BASIN.mouth.y) + 0.4 * Math.abs(x - BASIN.mouth.x);
        return Math.min(bowl + 6, valley);
    });
}
