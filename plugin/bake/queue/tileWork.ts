/**
 * A queue worker's kernels: it keeps one field-sized set of grids per bake (only the cells its jobs
 * touch are ever written, so the operating system commits little more than its tiles), writes a
 * job's cells in, runs the job's batches with the same kernels as every other backend, and returns
 * the cells that changed. Cells outside a job's rectangles may be stale from an earlier job; no
 * kernel reads them (`READ_MARGIN`), exactly as for the copying worker pool.
 */
import { COUNTER_COUNT } from "../../core/counters.js";
import { CpuBatchRunner } from "../../core/cpuBatchRunner.js";
import { noMasks, type ErosionStateData } from "../../core/erosionState.js";
import { cellsOf, ensureGrid } from "../../component/pool/poolGrids.js";
import { encodeTileBlob } from "./tileCodec.js";
import { decodeTileInput, writeRects, type TileOutputHeader } from "./tileJobs.js";
import type { GridRect } from "../../core/patches.js";

/**
 * The cells of `rects` of `grid` that differ from `before` (what `copyRects` gave), as indices and
 * values. With `restore`, each is set back to its value before once read, so a cell where rectangles
 * overlap is listed once (a map's sum must be added once).
 */
function changedInRects(grid: Int32Array, width: number, rects: readonly GridRect[], before: Int32Array, restore = false): { index: Int32Array; value: Int32Array } {
    const index = new Int32Array(before.length);
    const value = new Int32Array(before.length);
    let count = 0;
    let offset = 0;
    for (const r of rects) {
        for (let y = r.y0; y < r.y1; y++) {
            for (let i = y * width + r.x0, end = y * width + r.x1; i < end; i++, offset++) {
                if (grid[i] !== before[offset]) {
                    index[count] = i;
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
    private _bake = "";
    private _runner: CpuBatchRunner | null = null;

    private _runnerFor(bake: string, width: number, depth: number): CpuBatchRunner {
        const runner = this._runner;
        if (runner && this._bake === bake && runner.state.width === width && runner.state.depth === depth) return runner;
        this._runner = null; // let the last bake's grids go before the next are made
        const cells = width * depth;
        const state: ErosionStateData = { width, depth, cycle: 0, batch: 0, heights: new Int32Array(cells), suspended: new Int32Array(cells), drainageArea: new Int32Array(cells), fillLevels: new Int32Array(cells), masks: noMasks(), water: null, counters: new Float64Array(COUNTER_COUNT) };
        this._runner = new CpuBatchRunner(state);
        this._bake = bake;
        return this._runner;
    }

    /** Runs the job whose input is `input` (of bake `bake`); answers its output blob. */
    public run(bake: string, input: Uint8Array, what: string): Uint8Array {
        const { header, batches, cells } = decodeTileInput(input, what);
        const { width, depth, rects, grids, sums } = header;
        if (cells.length !== grids.length) throw new Error(`${what}: ${cells.length} sections for ${grids.length} grids.`);
        const runner = this._runnerFor(bake, width, depth);
        grids.forEach((name, k) => writeRects(cellsOf(ensureGrid(runner, name)), width, rects, cells[k]));
        const zero = new Int32Array(cells.length > 0 ? cells[0].length : 0);
        for (const name of sums) writeRects(cellsOf(ensureGrid(runner, name)), width, rects, zero);
        const counters = runner.state.counters;
        counters.fill(0);
        const masks = noMasks();
        for (const batch of batches) runner.runKernels({ ...batch, masks });
        const sections: Int32Array[] = [];
        for (const [k, name] of grids.entries()) {
            const changed = changedInRects(cellsOf(ensureGrid(runner, name)), width, rects, cells[k]);
            sections.push(changed.index, changed.value);
        }
        for (const name of sums) {
            const added = changedInRects(cellsOf(ensureGrid(runner, name)), width, rects, zero, true);
            sections.push(added.index, added.value);
        }
        const out: TileOutputHeader = { tile: header.tile, grids, sums, counters: Array.from(counters) };
        return encodeTileBlob(out, sections);
    }
}
