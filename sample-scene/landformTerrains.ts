/**
 * Terrains built for landforms that build (issue 60): the sample offers the fan, the delta and the
 * escarpment (`?terrain=fan`, `?terrain=delta`, `?terrain=scarp`) and the realism claims erode the same shapes
 * (scripts/realism/landforms.ts), so what the README shows from the sample is what the claims measure.
 * Heights in cells of 1 m, row-major, `LANDFORM_SIZE` vertices a side.
 */
import type { ErosionOptionsInput } from "../plugin/index.js";

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
 * The options the escarpment erodes under (the sample's `?terrain=scarp` and the apron's claim):
 * the README's mesa settings. Thermal strong enough to shed from the cliff faster than the rain
 * strips its foot (talus 2, 32 iterations a batch, rate 1: at the default 2 iterations the foot
 * keeps no apron), rivers' erosion 0.05, the materials on with the soil's angle of repose 0.6 and
 * one hard bed (10 times the soil) from 30 to 42 cells high over rock as loose as the soil: the
 * cliff's top ten cells are the cap, what it stands on is undercut.
 */
export const ESCARPMENT_OPTIONS: ErosionOptionsInput = {
    patchSize: 32,
    thermal: { talus: 2, iterations: 32, rate: 1 },
    rivers: { erosion: 0.05 },
    materials: { enabled: true, soilTalus: 0.6, hardness: 1, strataThickness: 12, strataBase: 30, strataBeds: 1, strataShare: 1, strataHardness: 10 },
};

/** The escarpment's face: it falls from the plateau's edge (row `top`, `high` cells) to its foot (row `foot`, `low` cells). */
export const SCARP = { top: 50, foot: 55, high: 40, low: 12 };

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

/**
 * An escarpment over a plain: a plateau `SCARP.high` cells high at its edge, falling 0.05 a cell
 * away from the face toward row 0 (its water drains there, not over the cliff), a face falling
 * 5.6 a cell to its foot (`SCARP.foot`, `SCARP.low` cells) and a plain falling 0.1 a cell from
 * the foot toward the last row, where the water leaves. The cliff is steeper than any rock's
 * angle of repose, so thermal sheds from it from the first cycle.
 */
export function escarpmentHeights(): Float32Array {
    const face = (SCARP.high - SCARP.low) / (SCARP.foot - SCARP.top);
    return heightsOf((_x, y) => {
        if (y <= SCARP.top) return SCARP.high - 0.05 * (SCARP.top - y);
        if (y <= SCARP.foot) return SCARP.high - face * (y - SCARP.top);
        return SCARP.low - 0.1 * (y - SCARP.foot);
    });
}
