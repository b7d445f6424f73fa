/**
 * A schedule step (one class of independent batches) as tile jobs: the field is cut into
 * `tilesPerSide`² tiles and each tile's job runs the class's batches whose patches start in it.
 * A job moves only what its batches read: for every batch its rectangle (the batch's region, extent
 * and patch grown by `READ_MARGIN`: its interior and apron), of the grids its operator reads. It
 * returns the cells it changed, as values (not differences), which no other job of the class
 * writes: applying them in any order, or twice, gives the one-machine result to the unit. The
 * erosion maps are only ever added to (saturating, and adding non-negative amounts saturating is
 * associative), so they travel one way: a job starts its maps at zero and returns what it added.
 */
import { cellsOf, CPU_OPERATORS, type CpuBatchRunner, ensureGrid, type PooledBatch, taskGrids } from "../../cpu/index.js";
import { addSaturating } from "../../core/erosionMaps.js";
import { READ_MARGIN } from "../../core/independentClasses.js";
import type { GridRect } from "../../core/patches.js";
import type { PlannedBatch } from "../../core/schedule.js";
import { decodeTileBlob, encodeTileBlob } from "./tileCodec.js";

/** One tile's share of a step. */
export interface TileJob {
    /** The tile's index, row by row over the tile grid. */
    readonly tile: number;
    readonly batches: readonly PooledBatch[];
    /** What the job reads, one rectangle per batch (they may overlap where aprons meet). */
    readonly rects: readonly GridRect[];
    /** The grids its operator reads and writes, by pool name (sent, and returned as values). */
    readonly grids: readonly string[];
    /** The maps its operator adds to (started at zero, returned as sums). */
    readonly sums: readonly string[];
}

/** A batch as JSON carries it: its typed arrays as arrays. */
type BatchJson = Omit<PooledBatch, "brush" | "waterSources"> & { readonly brush: number[]; readonly waterSources: number[] };

/** The header of a job's input. */
export interface TileInputHeader {
    readonly width: number;
    readonly depth: number;
    readonly tile: number;
    readonly rects: readonly GridRect[];
    readonly grids: readonly string[];
    readonly sums: readonly string[];
    readonly batches: readonly BatchJson[];
}

/** The header of a job's output: for every grid, then every map, two sections follow (indices, and new values or sums). */
export interface TileOutputHeader {
    readonly tile: number;
    readonly grids: readonly string[];
    readonly sums: readonly string[];
    /** What the job added to each counter (integers, exact in a double). */
    readonly counters: readonly number[];
}

/** Tiles per side of the tile grid: at least 1, at most 64. */
export const MAX_TILES_PER_SIDE = 64;

/**
 * Tiles per side for a `width` x `depth` field when none is asked for: 4, or more on fields over
 * 4097 vertices a side, so a tile stays within about 1024² vertices (a job's memory and time).
 */
export function defaultTilesPerSide(width: number, depth: number): number {
    return Math.min(MAX_TILES_PER_SIDE, Math.max(4, Math.ceil((Math.max(width, depth) - 1) / 1024)));
}

/** Checks a tiles-per-side count; `flag` names it in the error. */
export function checkTilesPerSide(tilesPerSide: number, flag: string): void {
    if (!Number.isInteger(tilesPerSide) || tilesPerSide < 1 || tilesPerSide > MAX_TILES_PER_SIDE)
        throw new RangeError(`${flag} is ${tilesPerSide}: it must be a whole number of tiles per side from 1 to ${MAX_TILES_PER_SIDE}.`);
}

/** The rectangle a batch reads: what it may write, grown by the read margin, clipped to the field. */
export function batchReadRect(batch: PooledBatch, width: number, depth: number): GridRect {
    const p = batch.params;
    return {
        x0: Math.max(0, Math.min(p.regionX0, p.extentX0, p.patchX0) - READ_MARGIN),
        y0: Math.max(0, Math.min(p.regionY0, p.extentY0, p.patchY0) - READ_MARGIN),
        x1: Math.min(width, Math.max(p.regionX1, p.extentX1, p.patchX1) + READ_MARGIN),
        y1: Math.min(depth, Math.max(p.regionY1, p.extentY1, p.patchY1) + READ_MARGIN),
    };
}

/**
 * The tile jobs of one step (a class: river batches are not tiled), empty tiles left out, the
 * largest first (cells read times batches): workers take jobs in the order they are queued, so the
 * step's last job to finish is a small one.
 */
export function tileJobs(batches: readonly PlannedBatch[], width: number, depth: number, tilesPerSide: number): TileJob[] {
    const byTile = new Map<number, PooledBatch[]>();
    for (const planned of batches) {
        if (CPU_OPERATORS[planned.operator].pool === "river") throw new Error("Internal error: a river batch reached the tile jobs.");
        const { masks: _masks, ...batch } = planned;
        const tx = Math.min(tilesPerSide - 1, Math.floor((batch.patch.x0 * tilesPerSide) / width));
        const ty = Math.min(tilesPerSide - 1, Math.floor((batch.patch.y0 * tilesPerSide) / depth));
        const tile = ty * tilesPerSide + tx;
        const list = byTile.get(tile) ?? [];
        list.push(batch);
        byTile.set(tile, list);
    }
    const jobs = [...byTile.entries()].map(([tile, list]) => {
        const touched = [...new Set(list.flatMap((batch) => taskGrids({ kind: "batch", planned: batch })))];
        return {
            tile,
            batches: list,
            rects: list.map((batch) => batchReadRect(batch, width, depth)),
            grids: touched.filter((name) => !isMap(name)),
            sums: touched.filter(isMap),
        };
    });
    const work = (job: TileJob) => rectCells(job.rects) * job.batches.length;
    return jobs.sort((a, b) => work(b) - work(a) || a.tile - b.tile);
}

/** Whether a pool grid is one of the erosion maps. */
function isMap(name: string): boolean {
    return name.startsWith("map");
}

/** Cells a list of rectangles covers, counting overlaps once per rectangle. */
function rectCells(rects: readonly GridRect[]): number {
    return rects.reduce((sum, r) => sum + (r.x1 - r.x0) * (r.y1 - r.y0), 0);
}

/** The cells of `rects` of a grid `width` wide, rectangle after rectangle, row by row. */
export function copyRects(grid: Int32Array, width: number, rects: readonly GridRect[]): Int32Array {
    const out = new Int32Array(rectCells(rects));
    let offset = 0;
    for (const r of rects) {
        for (let y = r.y0; y < r.y1; y++) {
            out.set(grid.subarray(y * width + r.x0, y * width + r.x1), offset);
            offset += r.x1 - r.x0;
        }
    }
    return out;
}

/** Writes what `copyRects` took back into `grid`. */
export function writeRects(grid: Int32Array, width: number, rects: readonly GridRect[], cells: Int32Array): void {
    let offset = 0;
    for (const r of rects) {
        for (let y = r.y0; y < r.y1; y++) {
            grid.set(cells.subarray(offset, offset + r.x1 - r.x0), y * width + r.x0);
            offset += r.x1 - r.x0;
        }
    }
}

/** A job's input: its batches and the cells of its rectangles, read from the coordinator's `runner`. */
export function encodeTileInput(runner: CpuBatchRunner, job: TileJob): Uint8Array {
    const { width, depth } = runner.state;
    const header: TileInputHeader = {
        width,
        depth,
        tile: job.tile,
        rects: job.rects,
        grids: job.grids,
        sums: job.sums,
        batches: job.batches.map((batch) => ({ ...batch, brush: Array.from(batch.brush), waterSources: Array.from(batch.waterSources) })),
    };
    return encodeTileBlob(
        header,
        job.grids.map((name) => copyRects(cellsOf(ensureGrid(runner, name)), width, job.rects))
    );
}

/** Reads a job's input: its header, its batches with their typed arrays back, and one section of cells per grid. */
export function decodeTileInput(bytes: Uint8Array, what: string): { header: TileInputHeader; batches: PooledBatch[]; cells: readonly Int32Array[] } {
    const { header, sections } = decodeTileBlob<TileInputHeader>(bytes, what);
    const batches = header.batches.map((batch) => ({ ...batch, brush: Int32Array.from(batch.brush), waterSources: Int32Array.from(batch.waterSources) }));
    return { header, batches, cells: sections };
}

/** Applies a job's output to the coordinator's `runner`: its changed cells and its counters. Returns the cells it wrote. */
export function applyTileOutput(runner: CpuBatchRunner, bytes: Uint8Array, what: string): number {
    const { header, sections } = decodeTileBlob<TileOutputHeader>(bytes, what);
    const names = [...header.grids, ...header.sums];
    if (sections.length !== names.length * 2) throw new Error(`${what}: ${sections.length} sections for ${names.length} grids.`);
    const cells = runner.state.width * runner.state.depth;
    let written = 0;
    names.forEach((name, k) => {
        const grid = ensureGrid(runner, name);
        const index = sections[2 * k];
        const value = sections[2 * k + 1];
        if (index.length !== value.length) throw new Error(`${what}: grid ${name} has ${index.length} indices and ${value.length} values.`);
        for (let i = 0; i < index.length; i++) {
            if (index[i] < 0 || index[i] >= cells) throw new Error(`${what}: grid ${name} changes cell ${index[i]}, outside the ${cells}-cell field.`);
        }
        if (k < header.grids.length) {
            const values = cellsOf(grid);
            for (let i = 0; i < index.length; i++) values[index[i]] = value[i];
        } else {
            // A map's sums: u32 bits in the i32 cells.
            const sums = new Uint32Array(value.buffer, value.byteOffset, value.length);
            for (let i = 0; i < index.length; i++) addSaturating(grid as Uint32Array, index[i], sums[i]);
        }
        written += index.length;
    });
    const counters = runner.state.counters;
    header.counters.forEach((value, index) => (counters[index] += value));
    return written;
}
