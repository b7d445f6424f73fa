/**
 * Landforms that build (issue 60, "Shown by"): four terrains built for them and what each run lays
 * down there. A mountain front onto a plain (a fan: deposit thickness falling with distance from
 * the valley's outlet, spread over an arc), a wide valley (its floor aggrading beside the channel),
 * a river into a closed basin (a lobe at the mouth; the share of the eroded material the basin
 * keeps) and an escarpment (an apron at its foot). `npm run landforms` prints them; each is a
 * realism claim too (`landformClaims.ts`).
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import type { Terrain } from "./terrains.js";
import {
    BASIN, closedBasinHeights, ESCARPMENT_OPTIONS, escarpmentHeights, FAN_OUTLET, LANDFORM_SIZE, mountainFrontHeights, SCARP, VALLEY_HALF_WIDTH, wideValleyHeights,
} from "../../sample-scene/landformTerrains.js";

export { BASIN, FAN_OUTLET, LANDFORM_SIZE, SCARP, VALLEY_HALF_WIDTH };

const CENTRE = (LANDFORM_SIZE - 1) / 2;

const terrainOf = (name: string, heights: Float32Array): Terrain => ({ name, width: LANDFORM_SIZE, depth: LANDFORM_SIZE, cellSize: 1, heights });

/** The fan's terrain (`mountainFrontHeights`, shared with the sample's `?terrain=fan`). */
export const mountainFront = (): Terrain => terrainOf("mountain front onto a plain", mountainFrontHeights());

/** The floodplain's terrain (`wideValleyHeights`). */
export const wideValley = (): Terrain => terrainOf("wide valley", wideValleyHeights());

/** The delta's terrain (`closedBasinHeights`, shared with the sample's `?terrain=delta`). */
export const closedBasin = (): Terrain => terrainOf("river into a closed basin", closedBasinHeights());

/** The apron's terrain (`escarpmentHeights`, shared with the sample's `?terrain=scarp`). */
export const escarpment = (): Terrain => terrainOf("escarpment over a plain", escarpmentHeights());

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

/** Where the delta's figures look: 8 to 24 cells from the basin's centre (inside the lake, short of its rim). */
const DELTA_RADII = { from: 8, to: 24 };

/** The delta's figure of its lobe: how much more the mouth's sector aggraded than the rest of the basin at the same distances (cells). */
export const DELTA_LOBE = "mouth's sector less the rest (cells)";

/**
 * The options of the delta's run: the defaults with the shallow water on, whose lake is the standing
 * water a river builds a delta into (with the water off there is no lake: the droplets run down to
 * the bowl's floor and cut it).
 */
export const DELTA_OPTIONS: ErosionOptionsInput = { water: { enabled: true } };

/**
 * The delta: the mean change of the basin's floor 8 to 24 cells from its centre, in the mouth's
 * sector (within 20 degrees of the bearing to the mouth) and in the rest (more than 45 degrees off
 * it), their difference, and the shares of the eroded material the basin keeps and still in transit.
 */
export function deltaFigures(options: ErosionOptionsInput = DELTA_OPTIONS, cycles = 40): LandformFigures {
    const terrain = closedBasin();
    const run = erodeLandform(terrain, options, cycles);
    const sector: number[] = [];
    const rest: number[] = [];
    let kept = 0;
    for (let y = 0; y < LANDFORM_SIZE; y++) {
        for (let x = 0; x < LANDFORM_SIZE; x++) {
            const i = y * LANDFORM_SIZE + x;
            const r = Math.hypot(x - BASIN.x, y - BASIN.y);
            if (r >= BASIN.radius) continue;
            kept += Math.max(0, run.change[i]);
            if (r < DELTA_RADII.from || r >= DELTA_RADII.to) continue;
            // Degrees off the bearing from the centre to the mouth (straight down the rows).
            const off = (Math.abs(Math.atan2(x - BASIN.x, y - BASIN.y)) * 180) / Math.PI;
            if (off <= 20) sector.push(i);
            else if (off >= 45) rest.push(i);
        }
    }
    const inSector = meanAt(run.change, sector);
    const elsewhere = meanAt(run.change, rest);
    return {
        terrain: terrain.name,
        figures: {
            "mouth's sector, mean change 8-24 cells from the centre (cells)": inSector,
            "the rest of the basin, mean change 8-24 cells from the centre (cells)": elsewhere,
            [DELTA_LOBE]: inSector - elsewhere,
            "share of the eroded material the basin keeps": kept / Math.max(1e-9, run.eroded),
            "share of the eroded material still in transit (suspended, anywhere)": run.inTransit / Math.max(1e-9, run.eroded),
        },
    };
}

/**
 * The options of the apron's run: the mesa's (`ESCARPMENT_OPTIONS`, the capped mesa's
 * `CAPPED_OPTIONS`: thermal talus 2, 32 iterations a batch, rate 1; one hard bed 30 to 42 cells
 * high over rock as loose as the soil), whose cap spans the escarpment's top ten cells. At the
 * default thermal (2 iterations a batch) the cliff sheds a sixteenth as fast and the rain strips
 * the foot as fast as it lands (`npm run landforms`).
 */
export const APRON_OPTIONS: ErosionOptionsInput = ESCARPMENT_OPTIONS;

/** The apron's figure of its reach along the cliff: the share of the cliff's columns whose foot (0 to 2 cells out) was raised by more than 0.5 cells. */
export const APRON_LENGTH = "share of the cliff's length with its foot raised by more than 0.5 cells";

/** Columns the apron's figures read (the field's edge columns drain sideways off it). */
const APRON_COLUMNS = { from: 4, to: LANDFORM_SIZE - 4 };

/** The apron's band of rows `from` to `to` cells out from the cliff's foot (`SCARP.foot`; negative: up the face), its cells. */
function scarpBand(from: number, to: number): number[] {
    const cells: number[] = [];
    for (let y = SCARP.foot + from; y <= SCARP.foot + to; y++) for (let x = APRON_COLUMNS.from; x < APRON_COLUMNS.to; x++) cells.push(y * LANDFORM_SIZE + x);
    return cells;
}

/**
 * The apron: on the escarpment (`escarpmentHeights`), the mean change and soil of the plain in
 * bands 0-2, 3-5, 6-10 and 20-40 cells out from the cliff's foot and of the face (the rows
 * between the plateau's edge and the foot), the share of the cliff's length with its foot raised
 * by more than 0.5 cells (`APRON_LENGTH`), and the share of what the cliff lost (the 15 rows above
 * its foot) that lies within 5 cells of the foot.
 */
export function apronFigures(options: ErosionOptionsInput = APRON_OPTIONS, cycles = 40): LandformFigures {
    const terrain = escarpment();
    const run = erodeLandform(terrain, options, cycles);
    const figures: Record<string, number> = {};
    for (const [from, to] of [[0, 2], [3, 5], [6, 10], [20, 40]]) {
        figures[`plain's mean change ${from}-${to} cells from the foot (cells)`] = meanAt(run.change, scarpBand(from, to));
        figures[`plain's mean soil ${from}-${to} cells from the foot (cells)`] = meanAt(run.soil, scarpBand(from, to));
    }
    const face = scarpBand(SCARP.top - SCARP.foot + 1, -1);
    figures["face's mean change (cells)"] = meanAt(run.change, face);
    let raised = 0;
    for (let x = APRON_COLUMNS.from; x < APRON_COLUMNS.to; x++) {
        let change = 0;
        for (let y = SCARP.foot; y <= SCARP.foot + 2; y++) change += run.change[y * LANDFORM_SIZE + x];
        if (change / 3 > 0.5) raised++;
    }
    figures[APRON_LENGTH] = raised / (APRON_COLUMNS.to - APRON_COLUMNS.from);
    // The cliff: the face and the plateau's edge the cap's retreat ate into (15 rows above the foot; the
    // cap's edge went back about 8 in 40 cycles).
    const lost = scarpBand(-15, -1).reduce((sum, i) => sum - Math.min(0, run.change[i]), 0);
    figures["share of what the cliff lost (15 cells back from its foot) lying within 5 cells of the foot"] = scarpBand(0, 5).reduce((sum, i) => sum + Math.max(0, run.change[i]), 0) / Math.max(1e-9, lost);
    return { terrain: terrain.name, figures };
}
