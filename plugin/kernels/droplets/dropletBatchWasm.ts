/**
 * The droplet kernel on WebAssembly (`dropletBatch.as.ts` beside it, built by `scripts/build-wasm.mjs`):
 * the same integers as the TypeScript passes of `erodeDroplets`, which run instead where this
 * thread cannot compile the module, with the same result, so which one ran never shows in the
 * terrain.
 *
 * Per batch, a window of the grids is copied into the module's memory: the droplets' spawns grown
 * by how far a droplet can reach (its walk's steps, one cell each at most, and the brush's radius),
 * clamped to the field. The change and the water visits come back into the
 * same window of the caller's grids; nothing outside it can change. At the defaults (64-cell
 * patches, 1024 droplets) the window is about 200 x 200 vertices, and its copies cost a few
 * percent of the batch.
 */
import { FIXED_ONE } from "../../core/fixedPoint.js";
import { COUNTER_DROPLET_STEPS, COUNTER_OUTFLOW } from "../../core/counters.js";
import { GRADIENT_LIMIT, MAX_SHARE_SHIFT } from "../../core/batchParams.js";
import { SATURATION_LIMIT } from "../../core/fixedPoint.js";
import { HARDNESS_ONE } from "../../core/hardness.js";
import type { DropletKernel } from "./dropletKernel.js";
import type { MaterialCuts } from "./dropletMaterials.js";
import { DROPLET_BATCH_WASM } from "../../generated/dropletBatchWasm.generated.js";
import { WASM_MEMORY_BASE, compileBase64Module, growMemoryTo } from "../wasmModules.js";

/** The control block's words, as `dropletBatch.as.ts` numbers them. */
const enum Control {
    Heights, Delta, Water, Mask, SpawnX, SpawnY, WaterAt,
    QuadOffsets, QuadWeights, Quads, BrushDx, BrushDy, BrushWeights, BrushCount,
    Stride, FieldX0, FieldY0, FieldX1, FieldY1,
    Inertia, Capacity, MinSlope, Erosion, Deposition, Gravity, Share, StepCap, InitialSpeed, BrushRadius, HasBrush, WalkLimit, DepositAtEnd,
    Results, Materials, Words,
}

/**
 * The TypeScript constants `dropletBatch.as.ts` writes out, by the names it gives them:
 * `wasmSources.test.ts` checks the source against these values.
 */
export const DROPLET_BATCH_WASM_CONSTANTS: Readonly<Record<string, number>> = { FIXED_ONE, GRADIENT_LIMIT, SATURATION_LIMIT, MAX_SHARE_SHIFT, HARDNESS_ONE };

/**
 * Droplets per call into the module. V8 compiles a WebAssembly function with its baseline compiler
 * first and swaps in the optimised code between calls, never inside one, so a whole batch in one
 * call would run its first batch at baseline speed.
 */
const DROPLETS_PER_CALL = 256;

/** The rectangle of vertices [x0, x1) x [y0, y1) a batch's droplets can touch. */
interface Window {
    x0: number;
    y0: number;
    x1: number;
    y1: number;
}

/** The vertices droplets spawned at `spawns` can read or change: their cells grown by `reach`, inside the field. */
function dropletWindow(spawns: { x: Int32Array; y: Int32Array }, reach: number, width: number, depth: number): Window {
    let minX = width;
    let minY = depth;
    let maxX = 0;
    let maxY = 0;
    for (let k = 0; k < spawns.x.length; k++) {
        const x = spawns.x[k] >> 16;
        const y = spawns.y[k] >> 16;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
    }
    return { x0: Math.max(0, minX - reach), y0: Math.max(0, minY - reach), x1: Math.min(width, maxX + reach + 1), y1: Math.min(depth, maxY + reach + 1) };
}

/** Copies `window`'s rows of a field `width` wide between a grid and the module's copy of it (`into`: toward the module). */
function copyWindow(grid: Int32Array, copy: Int32Array, window: Window, width: number, into: boolean): void {
    const stride = window.x1 - window.x0;
    if (stride === width) {
        const first = window.y0 * width;
        if (into) copy.set(grid.subarray(first, first + copy.length));
        else grid.set(copy, first);
        return;
    }
    for (let y = window.y0; y < window.y1; y++) {
        const row = y * width + window.x0;
        const at = (y - window.y0) * stride;
        if (into) copy.set(grid.subarray(row, row + stride), at);
        else grid.set(copy.subarray(at, at + stride), row);
    }
}

/** Copies `window`'s change and mask into `cells`, each cell's change then its mask. */
function interleaveWindow(delta: Int32Array, mask: Int32Array, cells: Int32Array, window: Window, width: number): void {
    let at = 0;
    for (let y = window.y0; y < window.y1; y++) {
        for (let i = y * width + window.x0, end = y * width + window.x1; i < end; i++) {
            cells[at++] = delta[i];
            cells[at++] = mask[i];
        }
    }
}

/**
 * Copies `window`'s change, mask (when there is one), soil and hardness (`cuts`: the batch's, over
 * its region; 256 outside it, where nothing is cut) into `cells`: four words a cell with a mask,
 * three without.
 */
function interleaveMaterials(delta: Int32Array, mask: Int32Array | null, cuts: MaterialCuts, cells: Int32Array, window: Window, width: number): void {
    const { soil, hardness, region, uniformHardness } = cuts;
    const words = mask === null ? 3 : 4;
    const soilAt = words - 2;
    let at = 0;
    for (let y = window.y0; y < window.y1; y++) {
        const rowInRegion = y >= region.y0 && y < region.y1;
        for (let x = window.x0, i = y * width + window.x0; x < window.x1; x++, i++, at += words) {
            cells[at] = delta[i];
            if (mask !== null) cells[at + 1] = mask[i];
            cells[at + soilAt] = soil[i];
            cells[at + soilAt + 1] = uniformHardness !== 0 ? uniformHardness : rowInRegion && x >= region.x0 && x < region.x1 ? hardness[i] : HARDNESS_ONE;
        }
    }
}

/** Copies the change back out of interleaved cells of `words` words into `window` of `delta`. */
function deinterleaveWindow(delta: Int32Array, cells: Int32Array, window: Window, width: number, words: number): void {
    let at = 0;
    for (let y = window.y0; y < window.y1; y++) {
        for (let i = y * width + window.x0, end = y * width + window.x1; i < end; i++, at += words) delta[i] = cells[at];
    }
}

/** One thread's compiled kernel and its memory. */
class WasmDropletBatch {
    private readonly memory = new WebAssembly.Memory({ initial: 2 });
    private readonly run: (first: number, end: number) => void;

    public constructor(module: WebAssembly.Module) {
        const instance = new WebAssembly.Instance(module, { env: { memory: this.memory, abort: () => { throw new Error("dropletBatch.as.ts aborted"); } } });
        this.run = instance.exports.run as (first: number, end: number) => void;
    }

    /** Runs the droplets spawned at `spawns` (erodeDroplets' loop); false where the memory cannot grow to the window. */
    public erode(
        kernel: DropletKernel, spawns: { x: Int32Array; y: Int32Array }, heights: Int32Array, delta: Int32Array, water: Int32Array | null,
        mask: Int32Array | null, depositAtEnd: boolean, counters: Float64Array, cuts: MaterialCuts | null
    ): boolean {
        const count = spawns.x.length;
        if (count === 0) return true;
        const { width, depth } = kernel;
        // The farthest vertex a droplet touches from its spawn's cell: its walk moves at most one
        // cell a step along each axis, then a step's brush reaches `radius` past the vertex nearest
        // where the step starts (one past its cell at most), and the next sample and the last
        // bilinear split one past the cell. Exact: one vertex less and a droplet walking straight
        // down a plane writes outside the window (dropletBatchWasm.test.ts).
        const reach = kernel.walkLimit + Math.max(kernel.brushRadius, 1);
        const window = dropletWindow(spawns, reach, width, depth);
        const stride = window.x1 - window.x0;
        const cells = stride * (window.y1 - window.y0);
        const brush = kernel.brush;
        const quadOffsets = brush.quadOffsetsFor(stride);
        const steps = kernel.walkLimit;

        let end = WASM_MEMORY_BASE;
        const take = (bytes: number): number => {
            const at = end;
            end += (bytes + 7) & ~7;
            return at;
        };
        const results = take(16);
        const waterAt = take(steps * 4);
        const quads = take(quadOffsets.length * 4);
        const quadWeights = take(brush.quadWeight.length * 4);
        const brushDx = take(brush.dx.length * 4);
        const brushDy = take(brush.dy.length * 4);
        const brushWeights = take(brush.weight.length * 4);
        const spawnX = take(count * 4);
        const spawnY = take(count * 4);
        const heightsAt = take(cells * 4);
        // With a mask, each cell's change and mask side by side; with the materials, the soil and
        // hardness after them (dropletBatch.as.ts' getCell).
        const cellWords = (mask === null ? 1 : 2) + (cuts !== null ? 2 : 0);
        const deltaAt = take(cells * cellWords * 4);
        const waterGrid = water === null ? 0 : take(cells * 4);
        try {
            growMemoryTo(this.memory, end);
        } catch {
            return false;
        }

        const buffer = this.memory.buffer;
        const words = new Int32Array(buffer);
        new Float64Array(buffer, results, 2).fill(0);
        words.set(kernel.waterAt.subarray(0, steps), waterAt >> 2);
        words.set(quadOffsets, quads >> 2);
        words.set(brush.quadWeight, quadWeights >> 2);
        words.set(brush.dx, brushDx >> 2);
        words.set(brush.dy, brushDy >> 2);
        words.set(brush.weight, brushWeights >> 2);
        // Spawns in the window's frame.
        const originX = window.x0 * FIXED_ONE;
        const originY = window.y0 * FIXED_ONE;
        for (let k = 0; k < count; k++) {
            words[(spawnX >> 2) + k] = spawns.x[k] - originX;
            words[(spawnY >> 2) + k] = spawns.y[k] - originY;
        }
        const grid = (at: number): Int32Array => new Int32Array(buffer, at, cells);
        copyWindow(heights, grid(heightsAt), window, width, true);
        if (cuts !== null) interleaveMaterials(delta, mask, cuts, new Int32Array(buffer, deltaAt, cellWords * cells), window, width);
        else if (mask === null) copyWindow(delta, grid(deltaAt), window, width, true);
        else interleaveWindow(delta, mask, new Int32Array(buffer, deltaAt, 2 * cells), window, width);
        if (water !== null) copyWindow(water, grid(waterGrid), window, width, true);

        const control = new Int32Array(buffer, 0, Control.Words);
        control.set([
            heightsAt,
            deltaAt,
            waterGrid,
            mask === null ? 0 : deltaAt + 4,
            spawnX,
            spawnY,
            waterAt,
            quads,
            quadWeights,
            brush.quadWeight.length,
            brushDx,
            brushDy,
            brushWeights,
            brush.weight.length,
        ]);
        control.set([stride, -window.x0, -window.y0, width - window.x0, depth - window.y0], Control.Stride);
        control.set(
            [
                kernel.inertia,
                kernel.capacity,
                kernel.minSlope,
                kernel.erosion,
                kernel.deposition,
                kernel.gravity,
                kernel.share,
                kernel.stepCap,
                kernel.initialSpeed,
                kernel.brushRadius,
                kernel.hasBrush ? 1 : 0,
                kernel.walkLimit,
                depositAtEnd ? 1 : 0,
                results,
                cuts !== null ? 1 : 0,
            ],
            Control.Inertia
        );
        for (let first = 0; first < count; first += DROPLETS_PER_CALL) this.run(first, Math.min(count, first + DROPLETS_PER_CALL));

        if (cellWords === 1) copyWindow(delta, grid(deltaAt), window, width, false);
        else deinterleaveWindow(delta, new Int32Array(this.memory.buffer, deltaAt, cellWords * cells), window, width, cellWords);
        if (water !== null) copyWindow(water, grid(waterGrid), window, width, false);
        const sums = new Float64Array(buffer, results, 2);
        counters[COUNTER_DROPLET_STEPS] += sums[0];
        counters[COUNTER_OUTFLOW] += sums[1];
        return true;
    }
}

let compiled: WebAssembly.Module | null | undefined;
let thread: WasmDropletBatch | null = null;
let useWasm = true;

function dropletBatchModule(): WebAssembly.Module | null {
    if (compiled === undefined) compiled = compileBase64Module(DROPLET_BATCH_WASM);
    return compiled;
}

/**
 * Runs `erodeDroplets`' droplets (spawned at `spawns`) on WebAssembly, adding their changes, water
 * visits, steps and outflow as the TypeScript passes do; false where this thread cannot (the
 * caller then runs the TypeScript passes), or where tests asked for them (`useDropletBatchWasm`).
 */
export function erodeDropletsWasm(
    kernel: DropletKernel, spawns: { x: Int32Array; y: Int32Array }, heights: Int32Array, delta: Int32Array, water: Int32Array | null, mask: Int32Array | null,
    depositAtEnd: boolean, counters: Float64Array, cuts: MaterialCuts | null = null
): boolean {
    if (!useWasm) return false;
    if (thread === null) {
        const module = dropletBatchModule();
        if (module === null) return false;
        thread = new WasmDropletBatch(module);
    }
    return thread.erode(kernel, spawns, heights, delta, water, mask, depositAtEnd, counters, cuts);
}

/** For tests and the benchmark: whether this thread's droplet batches run on WebAssembly (true, the default, where it can) or on TypeScript. */
export function useDropletBatchWasm(wasm: boolean): void {
    useWasm = wasm;
}

/** Whether this thread can run the droplet batch on WebAssembly. */
export function dropletBatchWasmAvailable(): boolean {
    return dropletBatchModule() !== null;
}
