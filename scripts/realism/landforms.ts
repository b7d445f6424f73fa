/**
 * Landforms that build (issue 60, "Shown by"): four terrains built for them and what each run lays
 * down there. A mountain front onto a plain (a fan: deposit thickness falling with distance from
 * the valley's outlet, spread over an arc), a wide valley (its floor aggrading beside the channel),
 * a river into a closed basin (a lobe at the mouth; the share of the eroded material the basin
 * keeps) and a cliff (an apron at its foot). `npm run landforms` prints them; the fan, the
 * floodplain and the delta are realism claims (`landformClaims.ts`), the apron is measured only:
 * the erosion does not build it yet.
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { CAPPED_OPTIONS, capRockPlateau } from "./materialClaims.js";
import type { Terrain } from "./terrains.js";
import {
    BASIN, closedBasinHeights, FAN_OUTLET, LANDFORM_SIZE, mountainFrontHeights, VALLEY_HALF_WIDTH, wideValleyHeights,
} from "../../sample-scene/landformTerrains.js";

export { BASIN, FAN_OUTLET, LANDFORM_SIZE, VALLEY_HALF_WIDTH };

const CENTRE = (LANDFORM_SIZE - 1) / 2;

const terrainOf = (name: string, heights: Float32Array): Terrain => ({ name, width: LANDFORM_SIZE, depth: LANDFORM_SIZE, cellSize: 1, heights });

/** The fan's terrain (`mountainFrontHeights`, shared with the sample's `?terrain=fan`). */
export const mountainFront = (): Terrain => terrainOf("mountain front onto a plain", mountainFrontHeights());

/** The floodplain's terrain (`wideValleyHeights`). */
export const wideValley = (): Terrain => terrainOf("wide valley", wideValleyHeights());

/** The delta's terrain (`closedBasinHeights`, shared with the sample's `?terrain=delta`). */
export const closedBasin = (): Terrain => terrainOf("river into a closed basin", closedBasinHeights());

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
