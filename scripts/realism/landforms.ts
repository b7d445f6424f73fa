/**
 * Landforms that build (issue 60, "Shown by"): four terrains built for them and what each run lays
 * down there. A mountain front onto a plain (a fan: deposit thickness falling with distance from
 * the valley's outlet, spread over an arc), a wide valley (its floor aggrading beside the channel),
 * a river into a closed basin (a lobe at the mouth; the share of the eroded material the basin
 * keeps) and a cliff (an apron at its foot). `npm run landforms` prints them; the fan and the
 * floodplain are realism claims (`landformClaims.ts`), the delta and the apron are measured only:
 * the erosion does not build them yet.
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { CAPPED_OPTIONS, capRockPlateau } from "./materialClaims.js";
import type { Terrain } from "./terrains.js";

/** Side of every landform terrain (cells of 1 m). */
export const LANDFORM_SIZE = 129;
const CENTRE = (LANDFORM_SIZE - 1) / 2;

/** A little relief so water picks its ways (cells). */
function ripple(x: number, y: number): number {
    return 0.05 * Math.sin(x * 1.3 + y * 0.4) * Math.cos(y * 0.7 - x * 0.2);
}

function terrainOf(name: string, height: (x: number, y: number) => number): Terrain {
    const heights = new Float32Array(LANDFORM_SIZE * LANDFORM_SIZE);
    for (let y = 0; y < LANDFORM_SIZE; y++) for (let x = 0; x < LANDFORM_SIZE; x++) heights[y * LANDFORM_SIZE + x] = height(x, y) + ripple(x, y);
    return { name, width: LANDFORM_SIZE, depth: LANDFORM_SIZE, cellSize: 1, heights };
}

/** Where the fan terrain's valley meets its plain (column, row). */
export const FAN_OUTLET = { x: CENTRE, y: 80 };

/**
 * A mountain front onto a plain: rows from `FAN_OUTLET.y` up a range rising 0.6 a cell, cut by a V
 * valley (floor rising 0.15 a cell, sides 0.6) that opens at the outlet onto a plain falling 0.01 a
 * cell toward row 0, where the water leaves.
 */
export function mountainFront(): Terrain {
    return terrainOf("mountain front onto a plain", (x, y) => {
        const base = 2 + 0.01 * Math.min(y, FAN_OUTLET.y);
        if (y <= FAN_OUTLET.y) return base;
        const rise = y - FAN_OUTLET.y;
        return base + Math.min(0.6 * rise, 0.15 * rise + 0.6 * Math.abs(x - FAN_OUTLET.x));
    });
}

/** The wide valley's floor: columns within this many cells of the centre line. */
export const VALLEY_HALF_WIDTH = 20;

/**
 * A wide valley: a floor 41 cells wide falling 0.01 a cell toward row 0 (0.005 a cell toward its
 * centre line, where the channel runs), walls rising 0.5 a cell beside it, and steep headwaters
 * (0.4 a cell) above row 100 feeding it.
 */
export function wideValley(): Terrain {
    return terrainOf("wide valley", (x, y) => {
        const across = Math.abs(x - CENTRE);
        const floor = 2 + 0.01 * y + 0.005 * Math.min(across, VALLEY_HALF_WIDTH) + Math.max(0, y - 100) * 0.4;
        return floor + 0.5 * Math.max(0, across - VALLEY_HALF_WIDTH);
    });
}

/** The closed basin's centre, radius and the mouth where its feeding valley enters (cells). */
export const BASIN = { x: CENTRE, y: 40, radius: 28, mouth: { x: CENTRE, y: 68 } };

/**
 * A river into a closed basin: a bowl (floor 2 cells, rising to 10 at its radius) that every other
 * vertex drains into (the ground rises 0.15 a cell away from it: every steepest path ends in the
 * bowl), fed by a valley from the south edge (its floor falling 0.25 a cell toward the mouth, sides
 * 0.4). The fill levels still take the field's edge as the outlet, so to them the bowl is a lake
 * that spills where the ground is lowest on the edge: the sediment routed across it leaves there.
 */
export function closedBasin(): Terrain {
    return terrainOf("river into a closed basin", (x, y) => {
        const r = Math.hypot(x - BASIN.x, y - BASIN.y);
        const bowl = r < BASIN.radius ? 2 + 8 * (r / BASIN.radius) ** 2 : 10 + 0.15 * (r - BASIN.radius);
        if (y <= BASIN.mouth.y) return bowl;
        const valley = 10 + 0.25 * (y - BASIN.mouth.y) + 0.4 * Math.abs(x - BASIN.mouth.x);
        return Math.min(bowl + 6, valley);
    });
}

/** Mean of `values` over `cells` (0 for none). */
function meanAt(values: ArrayLike<number>, cells: readonly number[]): number {
    return cells.reduce((sum, i) => sum + values[i], 0) / Math.max(1, cells.length);
}

/**
 * The change of the heights and the soil (cells) after `cycles` cycles of `options` on `terrain`,
 * what was eroded and laid down (cells of volume) and what is still on its way (the sediment in
 * transit, `suspended`, not yet laid down).
 */
export function erodeLandform(terrain: Terrain, options: ErosionOptionsInput, cycles: number): { change: Float64Array; soil: Float64Array; eroded: number; deposited: number; inTransit: number } {
    const simulation = new CpuErosionSimulation(terrain.width, terrain.depth, heightsToFixed(terrain.heights), resolveOptions(options), terrain.cellSize);
    simulation.runCycles(cycles);
    const change = Float64Array.from(simulation.state.heights, (h, i) => h / 65536 - terrain.heights[i]);
    const soil = Float64Array.from(simulation.state.materials?.soil ?? new Int32Array(change.length), (s) => s / 65536);
    let eroded = 0;
    let deposited = 0;
    for (const d of change) (d < 0 ? (eroded -= d) : (deposited += d));
    const inTransit = simulation.state.suspended.reduce((sum, s) => sum + Math.max(0, s), 0) / 65536;
    return { change, soil, eroded, deposited, inTransit };
}

/** One landform's figures: what each means is in its name. */
export interface LandformFigures {
    readonly terrain: string;
    readonly figures: Readonly<Record<string, number>>;
}

/** The fan's figure of its spread: the arc (degrees, in 10-degree steps) of directions from the outlet in which a plain cell within 15 cells was raised by more than 0.1 cells. */
export const FAN_ARC = "arc of the plain raised by more than 0.1 cells within 15 cells (degrees)";

/**
 * The fan: the mean change of the plain in 5-cell rings around the outlet (0-5 .. 25-30), the arc
 * (degrees, in 10-degree steps) of directions from the outlet in which a plain cell within 25 cells
 * was raised by more than 0.02 cells, and the share of the eroded material laid on the plain.
 */
export function fanFigures(options: ErosionOptionsInput = {}, cycles = 40): LandformFigures {
    const terrain = mountainFront();
    const run = erodeLandform(terrain, options, cycles);
    const rings = [0, 0, 0, 0, 0, 0].map(() => [] as number[]);
    const arc = new Set<number>();
    const fanArc = new Set<number>();
    let onPlain = 0;
    for (let y = 0; y <= FAN_OUTLET.y; y++) {
        for (let x = 0; x < LANDFORM_SIZE; x++) {
            const i = y * LANDFORM_SIZE + x;
            const d = run.change[i];
            if (d > 0) onPlain += d;
            const distance = Math.hypot(x - FAN_OUTLET.x, y - FAN_OUTLET.y);
            const ring = Math.floor(distance / 5);
            if (ring < rings.length) rings[ring].push(i);
            const direction = Math.floor((Math.atan2(FAN_OUTLET.y - y, x - FAN_OUTLET.x) * 180) / Math.PI / 10);
            if (distance <= 25 && distance > 0 && d > 0.02) arc.add(direction);
            if (distance <= 15 && distance > 0 && d > 0.1) fanArc.add(direction);
        }
    }
    const figures: Record<string, number> = {};
    rings.forEach((cells, k) => (figures[`plain's mean change ${5 * k}-${5 * k + 5} cells from the outlet (cells)`] = meanAt(run.change, cells)));
    figures["arc of the raised plain within 25 cells (degrees)"] = arc.size * 10;
    figures[FAN_ARC] = fanArc.size * 10;
    figures["share of the eroded material laid on the plain"] = onPlain / Math.max(1e-9, run.eroded);
    return { terrain: terrain.name, figures };
}

/** The floodplain: the mean change of the valley's floor beside its channel (5 to 20 cells off the centre line, rows 20 to 90) and on it (within 2). */
export function floodplainFigures(options: ErosionOptionsInput = {}, cycles = 40): LandformFigures {
    const terrain = wideValley();
    const run = erodeLandform(terrain, options, cycles);
    const beside: number[] = [];
    const channel: number[] = [];
    for (let y = 20; y <= 90; y++) {
        for (let x = 0; x < LANDFORM_SIZE; x++) {
            const across = Math.abs(x - CENTRE);
            if (across <= 2) channel.push(y * LANDFORM_SIZE + x);
            else if (across >= 5 && across <= VALLEY_HALF_WIDTH) beside.push(y * LANDFORM_SIZE + x);
        }
    }
    return {
        terrain: terrain.name,
        figures: {
            "floor's mean change beside the channel (cells)": meanAt(run.change, beside),
            "channel's mean change (cells)": meanAt(run.change, channel),
            "share of the eroded material laid beside the channel": beside.reduce((sum, i) => sum + Math.max(0, run.change[i]), 0) / Math.max(1e-9, run.eroded),
        },
    };
}

/** The delta: the mean change of the basin's floor within 8 cells of the mouth and elsewhere in the basin, and the share of the eroded material the basin keeps. */
export function deltaFigures(options: ErosionOptionsInput = {}, cycles = 40): LandformFigures {
    const terrain = closedBasin();
    const run = erodeLandform(terrain, options, cycles);
    const mouth: number[] = [];
    const rest: number[] = [];
    let kept = 0;
    for (let y = 0; y < LANDFORM_SIZE; y++) {
        for (let x = 0; x < LANDFORM_SIZE; x++) {
            const i = y * LANDFORM_SIZE + x;
            if (Math.hypot(x - BASIN.x, y - BASIN.y) >= BASIN.radius) continue;
            kept += Math.max(0, run.change[i]);
            (Math.hypot(x - BASIN.mouth.x, y - BASIN.mouth.y) <= 8 ? mouth : rest).push(i);
        }
    }
    return {
        terrain: terrain.name,
        figures: {
            "basin's mean change within 8 cells of the mouth (cells)": meanAt(run.change, mouth),
            "basin's mean change elsewhere (cells)": meanAt(run.change, rest),
            "share of the eroded material the basin keeps": kept / Math.max(1e-9, run.eroded),
            "share of the eroded material still in transit (suspended, anywhere)": run.inTransit / Math.max(1e-9, run.eroded),
        },
    };
}

/**
 * The apron: on the capped plateau with the mesa's settings (`CAPPED_OPTIONS`), the mean change and
 * soil of the foot below the cliff (cells that started 20 to 28 cells high, the cap's base at 30)
 * and the share of the eroded material laid anywhere.
 */
export function apronFigures(cycles = 40): LandformFigures {
    const terrain = capRockPlateau(LANDFORM_SIZE);
    const run = erodeLandform(terrain, CAPPED_OPTIONS, cycles);
    const foot: number[] = [];
    for (let i = 0; i < terrain.heights.length; i++) if (terrain.heights[i] >= 20 && terrain.heights[i] < 28) foot.push(i);
    return {
        terrain: `${terrain.name}, capped (the mesa's settings)`,
        figures: {
            "foot's mean change (cells)": meanAt(run.change, foot),
            "foot's mean soil (cells)": meanAt(run.soil, foot),
            "share of the eroded material laid anywhere": run.deposited / Math.max(1e-9, run.eroded),
        },
    };
}
