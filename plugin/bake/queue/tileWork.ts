/**
 * A queue worker's kernels. A job runs on grids the size of its box (the bounding box of its
 * rectangles), not the field's: its batches' coordinates are moved into the box, so a worker's
 * memory follows its tiles, whatever the world's size. Moving them changes no integer: the kernels
 * read nothing beyond a batch's rectangle (`READ_MARGIN`), where the box's edge is the field's edge
 * or lies beyond what they read, positions move by whole cells, and the droplets' random starts
 * hash the patch's index, not its place. Cells of the box outside the job's rectangles may be stale
 * from an earlier job of the same size; no kernel reads them, exactly as for the copying worker pool.
 */
import { cellsOf, CpuBatchRunner, ensureGrid, type PooledBatch } from "../../cpu/index.js";
import { blankState, noMasks } from "../../core/erosionState.js";
import { FIXED_ONE } from "../../core/fixedPoint.js";
import type { GridRect } from "../../core/patches.js";
import { SOURCE_ENTRY_INTS } from "../../core/waterSources.js";
import { COLUMN_FIELDS, ROW_FIELDS, type BatchParams } from "../../core/batchParams.js";
import { noteHardnessWritten } from "../../kernels/index.js";
import { strataDipOffsetAt } from "../../core/materialParams.js";
import { encodeTileBlob } from "./tileCodec.js";
import { decodeTileInput, writeRects, type TileOutputHeader } from "./tileJobs.js";


/** The bounding box of `rects`. */
function boxOf(rects: readonly GridRect[]): GridRect {
    return {
        x0: Math.min(...rects.map((r) => r.x0)),
        y0: Math.min(...rects.map((r) => r.y0)),
        x1: Math.max(...rects.map((r) => r.x1)),
        y1: Math.max(...rects.map((r) => r.y1)),
    };
}

/** `rects` in the coordinates of `box`. */
function inBox(rects: readonly GridRect[], box: GridRect): GridRect[] {
    return rects.map((r) => ({ x0: r.x0 - box.x0, y0: r.y0 - box.y0, x1: r.x1 - box.x0, y1: r.y1 - box.y0 }));
}

/** `batch` moved into `box`: a field of the box's size whose first vertex is the box's. */
function batchInBox(batch: PooledBatch, box: GridRect): PooledBatch {
    const params: BatchParams = { ...batch.params, width: box.x1 - box.x0, depth: box.y1 - box.y0 };
    for (const field of COLUMN_FIELDS) params[field] -= box.x0;
    for (const field of ROW_FIELDS) params[field] -= box.y0;
    params.discCentreX -= box.x0 * FIXED_ONE;
    params.discCentreY -= box.y0 * FIXED_ONE;
    params.strataDipOffset = strataDipOffsetAt(params, box.x0, box.y0);
    const waterSources = batch.waterSources.slice();
    for (let k = 0; k < waterSources[0]; k++) {
        waterSources[1 + k * SOURCE_ENTRY_INTS] -= box.x0;
        waterSources[2 + k * SOURCE_ENTRY_INTS] -= box.y0;
    }
    const patch = { ...batch.patch, x0: batch.patch.x0 - box.x0, x1: batch.patch.x1 - box.x0, y0: batch.patch.y0 - box.y0, y1: batch.patch.y1 - box.y0 };
    return { ...batch, params, patch, waterSources };
}

/**
 * The cells of `rects` of a `boxWidth`-wide `grid` that differ from `before` (what `copyRects`
 * gave), as field indices (the box's first vertex at `box`, the field `width` wide) and values.
 * With `restore`, each is set back to its value before once read, so a cell where rectangles
 * overlap is listed once (a map's sum must be added once).
 */
function changedInRects(
    grid: Int32Array, boxWidth: number, rects: readonly GridRect[], before: Int32Array, box: GridRect, width: number, restore = false
): { index: Int32Array; value: Int32Array } {
    const index = new Int32Array(before.length);
    const value = new Int32Array(before.length);
    let count = 0;
    let offset = 0;
    for (const r of rects) {
        for (let y = r.y0; y < r.y1; y++) {
            const toField = (y + box.y0) * width + box.x0 - y * boxWidth;
            for (let i = y * boxWidth + r.x0, end = y * boxWidth + r.x1; i < end; i++, offset++) {
                if (grid[i] !== before[offset]) {
                    index[count] = i + toField;
                    value[count++] = grid[i];
                    if (restore) grid[i] = before[offset];
                }
            }
        }
    }
    return { index: index.slice(0, count), value: value.slice(0, count) };
}

/** Runs tile jobs; one per call, in this thread. */
export class TileWorkbench {
    /** Runners by box size: a step's tiles are mostly of a few sizes. */
    private readonly _runners = new Map<string, CpuBatchRunner>();

    /** @param _sizesKept box sizes whose grids are kept between jobs (more: fewer grids made again; fewer: less memory) */
    constructor(private readonly _sizesKept = 4) {}

    private _runnerFor(width: number, depth: number): CpuBatchRunner {
        const key = `${width}x${depth}`;
        let runner = this._runners.get(key);
        if (!runner) {
            // Keep a few sizes only, so a worker's memory stays a few tiles' worth.
            if (this._runners.size >= this._sizesKept) this._runners.delete(this._runners.keys().next().value!);
            runner = new CpuBatchRunner(blankState(width, depth));
            this._runners.set(key, runner);
        }
        return runner;
    }

    /** Runs the job whose input is `input`; answers its output blob. */
    public run(input: Uint8Array, what: string): Uint8Array {
        const { header, batches, cells } = decodeTileInput(input, what);
        const { width, rects, grids, sums } = header;
        if (cells.length !== grids.length) throw new Error(`${what}: ${cells.length} sections for ${grids.length} grids.`);
        const box = boxOf(rects);
        const boxWidth = box.x1 - box.x0;
        const local = inBox(rects, box);
        const runner = this._runnerFor(boxWidth, box.y1 - box.y0);
        grids.forEach((name, k) => writeRects(cellsOf(ensureGrid(runner, name)), boxWidth, local, cells[k]));
        const zero = new Int32Array(cells.length > 0 ? cells[0].length : 0);
        for (const name of sums) writeRects(cellsOf(ensureGrid(runner, name)), boxWidth, local, zero);
        const counters = runner.state.counters;
        counters.fill(0);
        const masks = noMasks();
        // The hardness grid came with the job, written from the map the job does not carry: current as sent.
        const materials = runner.state.materials;
        if (materials && batches.length > 0) noteHardnessWritten(materials, batches[0].hardnessMap?.stamp ?? 0);
        for (const batch of batches) runner.runKernels({ ...batchInBox(batch, box), masks });
        const sections: Int32Array[] = [];
        for (const [k, name] of grids.entries()) {
            const changed = changedInRects(cellsOf(ensureGrid(runner, name)), boxWidth, local, cells[k], box, width);
            sections.push(changed.index, changed.value);
        }
        for (const name of sums) {
            const added = changedInRects(cellsOf(ensureGrid(runner, name)), boxWidth, local, zero, box, width, true);
            sections.push(added.index, added.value);
        }
        const out: TileOutputHeader = { tile: header.tile, grids, sums, counters: Array.from(counters) };
        return encodeTileBlob(out, sections);
    }
}
