/**
 * The river walk on WebAssembly (`riverWalk.as.ts` beside it, built by `scripts/build-wasm.mjs`): the
 * same integers as `walkRiverBatch` (riverWalk.ts) in about three quarters of its time, the grids'
 * copies included (bench/README.md). Each thread compiles the module once, synchronously (it is a
 * few kilobytes); where that fails (no WebAssembly, a page's content security policy, a main
 * thread that refuses synchronous compiles) the TypeScript walk runs instead, with the same
 * result, so which one ran never shows in the terrain.
 *
 * Per walk the rows the walk reads (the river rectangle's grown by one) are copied into the
 * module's memory, and only the cells of the vertices it walked come back: workers of the pool
 * walk shares of one rectangle's trees into the same shared grids at once.
 */
import {
    ACCUMULATOR_LIMIT, type BatchParams, DRAINAGE_AREA_LIMIT, FOLD_RELIEF_SHIFT, riverRect, ROOT_AREA_LIMIT, ROUTE_LIMIT,
} from "../../../core/batchParams.js";
import { COUNTER_OUTFLOW, COUNTER_SATURATION_REMOVED, COUNTER_UPLIFT_ADDED } from "../../../core/counters.js";
import { FILL_EPSILON } from "../../../core/fillLevels.js";
import { FIXED_ONE, HEIGHT_MAX_FIXED } from "../../../core/fixedPoint.js";
import type { GridRect } from "../../../core/patches.js";
import { HARDNESS_ONE } from "../../../core/hardness.js";
import { writeVertexHardness } from "../../../core/materials.js";
import { uniformHardness } from "../../fold/soilFold.js";
import { INVERSE_SQRT2_Q16 } from "../../../core/steepestDescent.js";
import { FIRST_DIAGONAL_SLOT, neighbourOffsets } from "../../../core/thermalDirections.js";
import { arrivalRing, KEEP_TABLE_AREAS, keepTable, type RiverWalkGrids, type RiverWalkStack } from "./riverWalk.js";
import { RIVER_WALK_WASM } from "../../../generated/riverWalkWasm.generated.js";
import { WASM_MEMORY_BASE, compileBase64Module, growMemoryTo } from "../../wasmModules.js";

/** The control block's words, as `riverWalk.as.ts` numbers them. */
const enum Control {
    Heights, Levels, Area, Slots, Mask, Suspended, Delta, Uplift, Donors, Counters, Elsewhere, Keeps, Offsets, Roots, RootCount, Sizes, Marks,
    Steps, Width, Depth, X0, Y0, X1, Y1, CountedY0, CountedY1, Hops, Erosion, Capacity, UpliftRate, Deposition,
    Stack, StackLevels, Ring, NextRoot, ResumeTop, ResumeWalked, Walked,
    StackUpstream, StackFar, StackFloor, StackLastKey, StackBound, StackRowOf, StackPending, StackArrivals, Soil, Hardness, Words,
}

/**
 * The TypeScript constants `riverRules.as.ts` writes out (AssemblyScript compiles apart from
 * the TypeScript), by the names it gives them: `wasmSources.test.ts` checks the source against
 * these values.
 */
export const RIVER_WALK_WASM_CONSTANTS: Readonly<Record<string, number>> = {
    HEIGHT_MAX_FIXED,
    ACCUMULATOR_LIMIT,
    ROUTE_LIMIT,
    DRAINAGE_AREA_LIMIT,
    FIXED_ONE,
    INVERSE_SQRT2_Q16,
    ROOT_AREA_LIMIT,
    FOLD_RELIEF_SHIFT,
    FILL_EPSILON,
    KEEP_TABLE_AREAS,
    FIRST_DIAGONAL_SLOT,
    COUNTER_OUTFLOW,
    COUNTER_SATURATION_REMOVED,
    COUNTER_UPLIFT_ADDED,
    HARDNESS_ONE,
};

/** The stack's levels at first (grown by doubling as the rivers need). */
const FIRST_STACK_LEVELS = 1024;

/** Byte offsets of the stack's arrays (the vertices at 0) for `levels` levels of `ring` arrivals; the walk reads them from the control block. */
function stackLayout(
    levels: number,
    ring: number
): { upstream: number; far: number; floor: number; lastKey: number; bound: number; rowOf: number; pending: number; arrivals: number; bytes: number } {
    const upstream = levels * 4;
    const far = upstream + levels * 8;
    const floor = far + levels * 8;
    const lastKey = floor + levels * 4;
    const bound = lastKey + levels * 4;
    const rowOf = bound + levels * 4;
    const pending = rowOf + levels * 4;
    const arrivals = pending + ((levels + 7) & ~7);
    return { upstream, far, floor, lastKey, bound, rowOf, pending, arrivals, bytes: arrivals + levels * ring * 4 };
}

/** One thread's compiled walk and its memory. */
class WasmRiverWalk {
    private readonly memory = new WebAssembly.Memory({ initial: 2 });
    private readonly run: () => number;
    private stackBase = -1;
    private stackLevels: number;
    private ring = 0;
    private keepsErosion = -1;

    public constructor(module: WebAssembly.Module, firstLevels: number) {
        const instance = new WebAssembly.Instance(module, { env: { memory: this.memory, abort: () => { throw new Error("riverWalk.as.ts aborted"); } } });
        this.run = instance.exports.walk as () => number;
        this.stackLevels = firstLevels;
    }

    /** The stack's levels now. */
    public get levels(): number {
        return this.stackLevels;
    }

    /** `walkRiverBatch` with the same arguments, on the module. */
    public walk(params: BatchParams, steps: number, grids: RiverWalkGrids, stack: RiverWalkStack, roots: ArrayLike<number>, sizes: Int32Array): void {
        const { width, depth } = params;
        const rect = riverRect(params);
        const rowY0 = Math.max(0, rect.y0 - 1);
        const rowY1 = Math.min(depth, rect.y1 + 1);
        const first = rowY0 * width;
        const cells = (rowY1 - rowY0) * width;
        const rectCells = (rect.x1 - rect.x0) * (rect.y1 - rect.y0);
        const counters = grids.counters;
        const elsewhere = grids.countedRows?.elsewhere ?? counters;
        // The layout, from WASM_MEMORY_BASE: fixed-size parts first, so the keep table stays put.
        let end = WASM_MEMORY_BASE;
        const take = (bytes: number): number => {
            const at = end;
            end += (bytes + 7) & ~7;
            return at;
        };
        const keeps = take(KEEP_TABLE_AREAS * 8);
        const offsets = take(32);
        const ownCounters = take(counters.length * 8);
        const otherCounters = elsewhere === counters ? ownCounters : take(elsewhere.length * 8);
        const grid = (): number => take(cells * 4);
        const heights = grid();
        const levels = grid();
        const area = grid();
        const slots = grid();
        const suspended = grid();
        const delta = grid();
        const mask = grids.mask === null ? 0 : grid();
        const uplift = grids.uplift === null ? 0 : grid();
        // At hardness 1 everywhere `materialCut` is the cut itself (`rockTaken` at 256): the walk
        // then needs neither grid, and cuts as without the materials (the soil follows in the fold).
        const inForce = params.materials !== 0 ? (grids.materials ?? null) : null;
        const uniform = inForce === null ? 0 : uniformHardness(params, inForce);
        const materials = uniform === HARDNESS_ONE ? null : inForce;
        const soil = materials === null ? 0 : grid();
        const hardness = materials === null ? 0 : grid();
        const donors = take(cells);
        // Room for the roots rounded up to a power of two, so the stack after them stays put from
        // batch to batch (a stack that moves is cleared again).
        const rootRoom = 2 ** (32 - Math.clz32(roots.length));
        const rootList = take(rootRoom * 4);
        const rootSizes = take(rootRoom * 4);
        const marks = take(cells);
        const ring = arrivalRing(params.routeHops);
        if (end !== this.stackBase || ring !== this.ring) this.resetStack(end, ring);
        this.ensure(end + stackLayout(this.stackLevels, ring).bytes);

        const buffer = this.memory.buffer;
        const words = new Int32Array(buffer);
        const copyRows = (from: Int32Array | Uint8Array, at: number): void => {
            (from instanceof Uint8Array ? new Uint8Array(buffer, at, cells) : new Int32Array(buffer, at, cells)).set(from.subarray(first, first + cells));
        };
        copyRows(grids.heights, heights);
        copyRows(grids.levels, levels);
        copyRows(grids.area, area);
        copyRows(grids.slots, slots);
        copyRows(grids.suspended, suspended);
        if (grids.mask !== null) copyRows(grids.mask, mask);
        if (grids.uplift !== null) copyRows(grids.uplift, uplift);
        copyRows(grids.donors, donors);
        if (materials !== null) {
            copyRows(materials.soil, soil);
            // The walk cuts no vertex outside the rectangle, and the heights do not change while it walks.
            if (uniform !== 0) new Int32Array(buffer, hardness, cells).fill(uniform);
            else writeVertexHardness(params, grids.heights, materials, width, rect, new Int32Array(buffer, hardness, cells), first);
        }
        new Uint8Array(buffer, marks, cells).fill(0);
        for (let n = 0; n < roots.length; n++) words[(rootList >> 2) + n] = roots[n];
        new Float64Array(buffer, ownCounters, counters.length).set(counters);
        if (otherCounters !== ownCounters) new Float64Array(buffer, otherCounters, elsewhere.length).set(elsewhere);
        words.set(neighbourOffsets(width), offsets >> 2);
        if (grids.mask === null && this.keepsErosion !== params.riverErosion) {
            words.set(keepTable(params, stack), keeps >> 2);
            this.keepsErosion = params.riverErosion;
        }

        // Grid pointers biased by the first row copied: a vertex's grid index addresses its cell.
        const bias = first * 4;
        const control = new Int32Array(buffer, 0, Control.Words);
        control.set([
            heights - bias,
            levels - bias,
            area - bias,
            slots - bias,
            mask === 0 ? 0 : mask - bias,
            suspended - bias,
            delta - bias,
            uplift === 0 ? 0 : uplift - bias,
            donors - first,
            ownCounters,
            otherCounters,
            keeps,
            offsets,
            rootList,
            roots.length,
            rootSizes,
            marks - first,
        ]);
        control.set(
            [
                steps | 0,
                width,
                depth,
                rect.x0,
                rect.y0,
                rect.x1,
                rect.y1,
                grids.countedRows?.rows.y0 ?? 0,
                grids.countedRows?.rows.y1 ?? depth,
                params.routeHops | 0,
                params.riverErosion,
                params.riverCapacity,
                params.riverUplift,
                params.riverDeposition,
            ],
            Control.Steps
        );
        control.set([end, this.stackLevels, ring, 0, -1, 0, 0], Control.Stack);
        this.placeStack(end, ring);
        control.set([soil === 0 ? 0 : soil - bias, hardness === 0 ? 0 : hardness - bias], Control.Soil);
        while (this.run() !== 0) {
            this.growStack(end, ring);
            this.placeStack(end, ring);
        }

        this.copyBack(grids, steps > 0, { area, suspended, delta, marks, first, cells, width, rect, rectCells });
        const after = this.memory.buffer;
        const sizeWords = new Int32Array(after, rootSizes, roots.length);
        for (let n = 0; n < roots.length; n++) sizes[roots[n]] = sizeWords[n];
        counters.set(new Float64Array(after, ownCounters, counters.length));
        if (otherCounters !== ownCounters) elsewhere.set(new Float64Array(after, otherCounters, elsewhere.length));
    }

    /**
     * The walked vertices' area (when stepped), suspended load and change back into the grids: the
     * rectangle's rows whole where it walked all of them, else the marked cells, row by row (in
     * order: scattered in the walk's order, the copies took 2.1 ms of a worker's half of a 512²
     * walk; 2026-12-01).
     */
    private copyBack(
        grids: RiverWalkGrids, stepped: boolean,
        at: { area: number; suspended: number; delta: number; marks: number; first: number; cells: number; width: number; rect: GridRect; rectCells: number }
    ): void {
        const buffer = this.memory.buffer;
        const walked = new Int32Array(buffer, 0, Control.Words)[Control.Walked];
        const { rect, width, first } = at;
        const suspended = new Int32Array(buffer, at.suspended, at.cells);
        const delta = new Int32Array(buffer, at.delta, at.cells);
        const area = new Int32Array(buffer, at.area, at.cells);
        if (walked === at.rectCells && rect.x0 === 0 && rect.x1 === width) {
            const start = rect.y0 * width;
            const end = start + at.rectCells;
            grids.suspended.set(suspended.subarray(start - first, end - first), start);
            grids.delta.set(delta.subarray(start - first, end - first), start);
            if (stepped) grids.area.set(area.subarray(start - first, end - first), start);
            return;
        }
        const marks = new Uint8Array(buffer, at.marks, at.cells);
        for (let y = rect.y0; y < rect.y1; y++) {
            for (let cell = y * width + rect.x0 - first, end = y * width + rect.x1 - first; cell < end; cell++) {
                if (marks[cell] === 0) continue;
                grids.suspended[cell + first] = suspended[cell];
                grids.delta[cell + first] = delta[cell];
                if (stepped) grids.area[cell + first] = area[cell];
            }
        }
    }

    /** Writes the stack's levels and its arrays' addresses (at `base`) into the control block. */
    private placeStack(base: number, ring: number): void {
        const layout = stackLayout(this.stackLevels, ring);
        const control = new Int32Array(this.memory.buffer, 0, Control.Words);
        control[Control.StackLevels] = this.stackLevels;
        control.set(
            [layout.upstream, layout.far, layout.floor, layout.lastKey, layout.bound, layout.rowOf, layout.pending, layout.arrivals].map(
                (offset) => base + offset
            ),
            Control.StackUpstream
        );
    }

    /** Puts an empty stack at `base` (rows of `ring` arrivals, each level its own, all zero). */
    private resetStack(base: number, ring: number): void {
        this.stackBase = base;
        this.ring = ring;
        const layout = stackLayout(this.stackLevels, ring);
        this.ensure(base + layout.bytes);
        new Uint8Array(this.memory.buffer, base + layout.arrivals, this.stackLevels * ring * 4).fill(0);
        const rowOf = new Int32Array(this.memory.buffer, base + layout.rowOf, this.stackLevels);
        for (let level = 0; level < this.stackLevels; level++) rowOf[level] = level * ring;
    }

    /** Doubles the stack's levels in place, keeping what its levels hold (each array moves up, the last first). */
    private growStack(base: number, ring: number): void {
        const before = stackLayout(this.stackLevels, ring);
        const levels = this.stackLevels * 2;
        const after = stackLayout(levels, ring);
        this.ensure(base + after.bytes);
        const bytes = new Uint8Array(this.memory.buffer);
        const sizes = {
            arrivals: this.stackLevels * ring * 4,
            pending: this.stackLevels,
            rowOf: this.stackLevels * 4,
            bound: this.stackLevels * 4,
            lastKey: this.stackLevels * 4,
            floor: this.stackLevels * 4,
            far: this.stackLevels * 8,
            upstream: this.stackLevels * 8,
        };
        for (const name of ["arrivals", "pending", "rowOf", "bound", "lastKey", "floor", "far", "upstream"] as const) {
            bytes.copyWithin(base + after[name], base + before[name], base + before[name] + sizes[name]);
        }
        bytes.fill(0, base + after.arrivals + sizes.arrivals, base + after.bytes);
        const rowOf = new Int32Array(this.memory.buffer, base + after.rowOf, levels);
        for (let level = this.stackLevels; level < levels; level++) rowOf[level] = level * ring;
        this.stackLevels = levels;
    }

    /** Grows the memory to hold `bytes`. */
    private ensure(bytes: number): void {
        growMemoryTo(this.memory, bytes);
    }
}

let compiled: WebAssembly.Module | null | undefined;
let thread: WasmRiverWalk | null = null;
let useWasm = true;
let firstLevels = FIRST_STACK_LEVELS;

/** The module, compiled on first use (null where this thread cannot). */
function riverWalkModule(): WebAssembly.Module | null {
    if (compiled === undefined) compiled = compileBase64Module(RIVER_WALK_WASM);
    return compiled;
}

/**
 * Runs `walkRiverBatch`'s walk (same arguments, same integers) on WebAssembly; false where this
 * thread cannot (the caller then runs the TypeScript walk), or where tests asked for the
 * TypeScript walk (`useRiverWalkWasm`).
 */
export function walkRiverBatchWasm(
    params: BatchParams, steps: number, grids: RiverWalkGrids, stack: RiverWalkStack, roots: ArrayLike<number>, sizes: Int32Array
): boolean {
    if (!useWasm) return false;
    if (thread === null) {
        const module = riverWalkModule();
        if (module === null) return false;
        thread = new WasmRiverWalk(module, firstLevels);
    }
    thread.walk(params, steps, grids, stack, roots, sizes);
    return true;
}

/**
 * For tests and the benchmark: whether this thread's river walks run on WebAssembly (true, the
 * default, where it can) or on TypeScript, and the WebAssembly stack's first levels (small ones
 * make a test's walk grow it; a new count starts the WebAssembly walk afresh).
 */
export function useRiverWalkWasm(wasm: boolean, stackLevels = FIRST_STACK_LEVELS): void {
    useWasm = wasm;
    if (stackLevels !== firstLevels) thread = null;
    firstLevels = stackLevels;
}

/** The levels this thread's WebAssembly stack holds (0 before its first walk): tests check that it grew. */
export function riverWalkWasmStackLevels(): number {
    return thread?.levels ?? 0;
}

/** Whether this thread can run the walk on WebAssembly. */
export function riverWalkWasmAvailable(): boolean {
    return riverWalkModule() !== null;
}
