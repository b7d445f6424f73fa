/**
 * Repairing regions: the values of every grid of the state inside some regions (as
 * `regionChecksums` cuts the field), taken from a state that is right (a server's) and written into
 * one that parted from it, so the two are equal again to the unit. Counters are not per region: a
 * repair leaves them as they are (they only report).
 */
import { STATE_GRIDS, type ErosionStateData } from "../erosionState.js";
import { WATER_CARRIED_GRIDS } from "../waterModel.js";
import { MATERIAL_GRIDS } from "../materialGrids.js";
import { regionGrid, validateRegionSize } from "./regionChecksums.js";

/** The values of the state's grids in some regions, region after region, each row by row, grid after grid. */
export interface RegionPatch {
    readonly width: number;
    readonly depth: number;
    /** Region side, vertices. */
    readonly size: number;
    /** The regions (indices row by row, as `regionChecksums` numbers them). */
    readonly regions: readonly number[];
    /** Whether the water's grids are in it. */
    readonly water: boolean;
    /** Whether the materials' grids are in it (absent: no). */
    readonly materials?: boolean;
    /**
     * The values: for each region, for each grid (`STATE_GRIDS`, then `WATER_CARRIED_GRIDS` with
     * water: its state and velocity, then `MATERIAL_GRIDS` with the materials), its rows.
     */
    readonly values: Int32Array;
}

function gridsOf(state: ErosionStateData): Int32Array[] {
    return [
        ...STATE_GRIDS.map((name) => state[name]),
        ...(state.water ? WATER_CARRIED_GRIDS.map((name) => state.water![name]) : []),
        ...(state.materials ? MATERIAL_GRIDS.map((name) => state.materials![name]) : []),
    ];
}

/** Visits every vertex of region `r` row by row. */
function eachVertex(width: number, depth: number, size: number, regionsX: number, r: number, visit: (i: number) => void): void {
    const x0 = (r % regionsX) * size;
    const y0 = Math.floor(r / regionsX) * size;
    for (let y = y0; y < Math.min(depth, y0 + size); y++) {
        for (let x = x0; x < Math.min(width, x0 + size); x++) visit(y * width + x);
    }
}

/** The values of `state`'s grids in `regions` (regions of `size` vertices). Throws a `RangeError` naming a region that is not one. */
export function readRegions(state: ErosionStateData, size: number, regions: readonly number[]): RegionPatch {
    validateRegionSize(size);
    const { width, depth } = state;
    const { regionsX, regionsY } = regionGrid(width, depth, size);
    const bad = regions.find((r) => !Number.isInteger(r) || r < 0 || r >= regionsX * regionsY);
    if (bad !== undefined) throw new RangeError(`readRegions: region ${bad} is not one of the ${regionsX * regionsY} regions of ${size} vertices.`);
    const grids = gridsOf(state);
    const values: number[] = [];
    for (const r of regions) {
        for (const grid of grids) eachVertex(width, depth, size, regionsX, r, (i) => values.push(grid[i]));
    }
    return { width, depth, size, regions: [...regions], water: state.water != null, materials: state.materials != null, values: Int32Array.from(values) };
}

/** Writes `patch` into `state` (in place). Throws a `RangeError` before writing anything if the patch is of another field or water state. */
export function applyRegions(state: ErosionStateData, patch: RegionPatch): void {
    if (patch.width !== state.width || patch.depth !== state.depth) {
        throw new RangeError(`applyRegions: the patch is of a ${patch.width} x ${patch.depth} field, this state ${state.width} x ${state.depth}.`);
    }
    if (patch.water !== (state.water != null)) {
        throw new RangeError(
            `applyRegions: the patch ${patch.water ? "has" : "has no"} water grids and this ` +
                `state ${state.water ? "has" : "has none"}: repair from a state at the same stamp.`
        );
    }
    if ((patch.materials ?? false) !== (state.materials != null)) {
        throw new RangeError(
            `applyRegions: the patch ${patch.materials ? "has" : "has no"} soil and this state ` +
                `${state.materials ? "has" : "has none"}: repair from a state at the same stamp.`
        );
    }
    const { regionsX } = regionGrid(state.width, state.depth, patch.size);
    const grids = gridsOf(state);
    let needed = 0;
    for (const r of patch.regions) eachVertex(state.width, state.depth, patch.size, regionsX, r, () => (needed += grids.length));
    if (needed !== patch.values.length) throw new RangeError(`applyRegions: the patch holds ${patch.values.length} values where its regions take ${needed}.`);
    let k = 0;
    for (const r of patch.regions) {
        for (const grid of grids) eachVertex(state.width, state.depth, patch.size, regionsX, r, (i) => (grid[i] = patch.values[k++]));
    }
}
