/**
 * The grids the worker pool's members read and write: the state's, the water's and the materials' once they run, the
 * erosion maps and the river batch's scratch, by name. With shared memory every member works on the
 * same `SharedArrayBuffer`s; without, each member keeps its own copy and the coordinator sends it
 * the rows a phase reads (`copyRows`) and takes back what changed (`changedCells`).
 */
import type { CpuBatchRunner } from "../cpuBatchRunner.js";
import { RIVER_SHARED_GRIDS, type RowRange } from "../../kernels/index.js";
import { STATE_GRIDS } from "../../core/erosionState.js";
import { createWaterGrids, WATER_CARRIED_GRIDS } from "../../core/waterModel.js";
import { createMaterialGrids, MATERIAL_GRIDS } from "../../core/materials.js";

/** The erosion maps by grid name. */
const MAP_GRIDS = { mapWater: "water", mapWear: "wear", mapDeposition: "deposition" } as const;

/** A grid as the pool moves it: its cells as `i32` (the maps' `u32` cells are moved bit for bit). */
export type GridCells = Int32Array;

/** Which grids a task touches: the state's and the maps always, the water's or the river scratch besides. */
export type GridSet = "batch" | "river";

/** The names of a set's grids that exist on `runner` now (the water's only once it has run). */
export function gridNames(runner: CpuBatchRunner, set: GridSet): string[] {
    const names: string[] = [...STATE_GRIDS, ...Object.keys(MAP_GRIDS)];
    if (set === "river") names.push(...RIVER_SHARED_GRIDS);
    else if (runner.state.water) names.push(...WATER_CARRIED_GRIDS);
    if (runner.state.materials) names.push(...MATERIAL_GRIDS);
    return names;
}

/** Every grid of `runner`, by name (the river scratch only once a river batch has run or is about to). */
export function allGrids(runner: CpuBatchRunner): Map<string, Int32Array | Uint32Array> {
    const grids = new Map<string, Int32Array | Uint32Array>();
    const { state, maps } = runner;
    for (const name of STATE_GRIDS) grids.set(name, state[name]);
    for (const [name, field] of Object.entries(MAP_GRIDS)) grids.set(name, maps[field]);
    if (state.water) for (const name of WATER_CARRIED_GRIDS) grids.set(name, state.water[name]);
    if (state.materials) for (const name of MATERIAL_GRIDS) grids.set(name, state.materials[name]);
    const river = runner.existingRiverScratch;
    if (river) for (const name of RIVER_SHARED_GRIDS) grids.set(name, river[name]);
    return grids;
}

/**
 * The grid named `name` of `runner`, making the water's grids or the river scratch (all zero) if
 * they do not exist yet.
 */
export function ensureGrid(runner: CpuBatchRunner, name: string): Int32Array | Uint32Array {
    if ((WATER_CARRIED_GRIDS as readonly string[]).includes(name)) {
        runner.state.water ??= createWaterGrids(runner.state.width * runner.state.depth);
    } else if ((MATERIAL_GRIDS as readonly string[]).includes(name)) {
        runner.state.materials ??= createMaterialGrids(runner.state.width * runner.state.depth, 0);
    } else if ((RIVER_SHARED_GRIDS as readonly string[]).includes(name)) {
        runner.riverScratch();
    }
    const grid = allGrids(runner).get(name);
    if (!grid) throw new Error(`Internal error: the CPU erosion pool has no grid named ${name}.`);
    return grid;
}

/** Puts `grid` in `runner` under `name` (the same length as what it replaces). */
export function setGrid(runner: CpuBatchRunner, name: string, grid: Int32Array | Uint32Array): void {
    const state = runner.state;
    if ((STATE_GRIDS as readonly string[]).includes(name)) {
        state[name as (typeof STATE_GRIDS)[number]] = grid as Int32Array;
    } else if (name in MAP_GRIDS) {
        const field = MAP_GRIDS[name as keyof typeof MAP_GRIDS];
        runner.adoptMaps({ ...runner.maps, [field]: grid as Uint32Array });
    } else if ((WATER_CARRIED_GRIDS as readonly string[]).includes(name)) {
        state.water ??= createWaterGrids(state.width * state.depth);
        state.water[name as (typeof WATER_CARRIED_GRIDS)[number]] = grid as Int32Array;
    } else if ((MATERIAL_GRIDS as readonly string[]).includes(name)) {
        state.materials ??= createMaterialGrids(state.width * state.depth, 0);
        state.materials[name as (typeof MATERIAL_GRIDS)[number]] = grid as Int32Array;
    } else {
        runner.riverScratch()[name as (typeof RIVER_SHARED_GRIDS)[number]] = grid as Int32Array;
    }
}

/** A grid's cells as `i32`, over the same memory. */
export function cellsOf(grid: Int32Array | Uint32Array): GridCells {
    return grid instanceof Int32Array ? grid : new Int32Array(grid.buffer, grid.byteOffset, grid.length);
}

/** Whether a grid lives in shared memory. */
export function isShared(grid: Int32Array | Uint32Array): boolean {
    return typeof SharedArrayBuffer !== "undefined" && grid.buffer instanceof SharedArrayBuffer;
}

/** A copy of `grid` in shared memory, of the same type. */
export function sharedCopy<T extends Int32Array | Uint32Array>(grid: T): T {
    const buffer = new SharedArrayBuffer(grid.length * 4);
    const copy = (grid instanceof Int32Array ? new Int32Array(buffer) : new Uint32Array(buffer)) as T;
    copy.set(grid);
    return copy;
}

/** Rows `[y0, y1)` merged into as few ranges as cover them, clamped to `[0, depth)`. */
export function mergeRows(ranges: readonly RowRange[], depth: number): RowRange[] {
    const sorted = ranges.map((r) => ({ y0: Math.max(0, r.y0), y1: Math.min(depth, r.y1) })).filter((r) => r.y1 > r.y0).sort((a, b) => a.y0 - b.y0);
    const merged: { y0: number; y1: number }[] = [];
    for (const range of sorted) {
        const last = merged[merged.length - 1];
        if (last && range.y0 <= last.y1) last.y1 = Math.max(last.y1, range.y1);
        else merged.push({ ...range });
    }
    return merged;
}

/** The cells of `rows` of a grid `width` wide, one after another (a copy). */
export function copyRows(grid: GridCells, width: number, rows: readonly RowRange[]): Int32Array {
    const total = rows.reduce((sum, r) => sum + (r.y1 - r.y0) * width, 0);
    const out = new Int32Array(total);
    let offset = 0;
    for (const r of rows) {
        out.set(grid.subarray(r.y0 * width, r.y1 * width), offset);
        offset += (r.y1 - r.y0) * width;
    }
    return out;
}

/** Writes what `copyRows` took back into `grid`. */
export function writeRows(grid: GridCells, width: number, rows: readonly RowRange[], cells: Int32Array): void {
    let offset = 0;
    for (const r of rows) {
        const count = (r.y1 - r.y0) * width;
        grid.set(cells.subarray(offset, offset + count), r.y0 * width);
        offset += count;
    }
}

/** The cells a member changed: their indices in the grid and their new values. */
export interface CellChanges {
    readonly index: Int32Array;
    readonly value: Int32Array;
}

/** The cells of `rows` of `grid` that differ from `before` (what `copyRows` gave before the work). */
export function changedCells(grid: GridCells, width: number, rows: readonly RowRange[], before: Int32Array): CellChanges {
    const index = new Int32Array(before.length);
    const value = new Int32Array(before.length);
    let count = 0;
    let offset = 0;
    for (const r of rows) {
        for (let i = r.y0 * width, end = r.y1 * width; i < end; i++, offset++) {
            if (grid[i] !== before[offset]) {
                index[count] = i;
                value[count++] = grid[i];
            }
        }
    }
    return { index: index.slice(0, count), value: value.slice(0, count) };
}

/** Applies a member's changes to `grid`. */
export function applyChanges(grid: GridCells, changes: CellChanges): void {
    const { index, value } = changes;
    for (let k = 0; k < index.length; k++) grid[index[k]] = value[k];
}
