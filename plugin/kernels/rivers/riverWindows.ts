/**
 * A river batch run one window of rows at a time, so its scratch is a window's, not the field's
 * (a large bake's memory: the whole-field batch takes some 50 bytes a vertex of scratch).
 *
 * Why it gives the whole-field batch's integers: every phase of a river batch (`riverPhases.ts`) is
 * a Jacobi pass that reads the grids it is given at a vertex and its eight neighbours only (the
 * erode phase's uplift and settle read their own vertex). A window's first and last rows are not
 * the field's edge, but the kernels take them for one (and have no neighbours beyond them), so
 * values there may be wrong; each phase carries a wrong value at most one row further in. After all
 * P phases, rows more than P rows inside the window's cut edges hold exactly what the whole-field
 * batch computes. So the field is cut into bands, and each band runs in a window of itself plus an
 * apron of P + 2 rows on each side (clipped at the field's own edges, which are real), and only the
 * band's rows are kept. The windows' bands are run as three row bands (apron, band, apron) exactly
 * as the worker pool splits a batch, so the counters and the maps take the band's rows only. The
 * drainage area, erosion and sediment hops are one walk down the window's slot forest
 * (`riverWalk.ts`): it gives the stepped phases' integers on the window as on any field that does
 * not wrap, so the argument above holds with P counted in those phases; the aprons' vertices count
 * into counters that are dropped. At 2049², a river batch in windows of 2^20 vertices took about
 * 0.2 s walked and 0.9 s stepped (2026-12-01).
 *
 * Bands run in order, top to bottom, on the heights as they were before the batch: before a band's
 * rows are written back, the rows the next window's upper apron needs are kept aside.
 *
 * With the materials on, the soil is windowed like the state's grids (the batch changes it) and the
 * hardness factors are a view of the window's rows (it only reads them); the strata's dip is moved
 * to the window's first row (`strataDipOffset`).
 *
 * Not for a tileable terrain's river batch (`wrap`), whose rows wrap around the torus: there the
 * whole-field batch runs.
 */
import { ROW_FIELDS, type BatchParams } from "../../core/batchParams.js";
import type { ErosionMaps } from "../../core/erosionMaps.js";
import { MASK_NAMES, STATE_GRIDS, type ErosionMasks, type ErosionStateData } from "../../core/erosionState.js";
import { RIVER_SHARED_GRIDS, riverPhaseRows, riverPhases, runRiverPhase, RiverBandWork, type RiverScratch } from "./riverPhases.js";
import type { RowRange } from "../rowBands.js";
import { strataDipOffsetAt } from "../../core/materialParams.js";

/** Vertices a window holds by default (its rows times the width): about 200 MB of grids. */
export const WINDOW_VERTICES = 2 ** 22;

/**
 * Vertices a window of a `cells`-vertex field holds: an eighth of the field (its grids then take
 * some 6 bytes a field vertex), from 2^20 to `WINDOW_VERTICES` (smaller windows repeat more of
 * their aprons' work: bands of 367 rows and aprons of 72 at 2^22 and 8193 wide).
 */
export function windowVerticesFor(cells: number): number {
    return Math.min(Math.max(Math.floor(cells / 8), 2 ** 20), WINDOW_VERTICES);
}

/** Whether `params`' river batch can run in windows (not one that wraps around a tileable terrain). */
export function riverRunsInWindows(params: BatchParams): boolean {
    return params.wrap === 0;
}

/** `params` for rows `[w0, w1)` of the field, as a field of their own: rows moved and clipped to it. */
function paramsInRows(params: BatchParams, w0: number, w1: number): BatchParams {
    const moved: BatchParams = { ...params, depth: w1 - w0, strataDipOffset: strataDipOffsetAt(params, 0, w0) };
    for (const field of ROW_FIELDS) moved[field] = Math.min(Math.max(params[field] - w0, 0), w1 - w0);
    return moved;
}

/** The rows `[w0, w1)` of each of `masks` (views: masks are only read). */
function masksInRows(masks: ErosionMasks, width: number, w0: number, w1: number): ErosionMasks {
    const inRows = {} as ErosionMasks;
    for (const name of MASK_NAMES) inRows[name] = masks[name]?.subarray(w0 * width, w1 * width) ?? null;
    return inRows;
}

/** The grids a window works in, made for the largest window and cut to each one's rows, and its three row bands' work. */
class WindowGrids {
    private readonly _buffers = new Map<string, Int32Array>();
    /** The work of the upper apron, the band and the lower apron, kept from window to window as the pool keeps its bands' from batch to batch. */
    public readonly works: readonly RiverBandWork[];

    constructor(public readonly cells: number) {
        // The three row bands share the fill levels' grids: each writes only its own rows of them.
        const levelsNext = this.grid("levelsNext", cells);
        const levels = { level: this.grid("level", cells) };
        this.works = [0, 1, 2].map(() => new RiverBandWork(levelsNext, levels));
    }

    /** Grid `name` cut to `cells` cells (zeroed with `zero`). */
    public grid(name: string, cells: number, zero = false): Int32Array {
        let buffer = this._buffers.get(name);
        if (!buffer) this._buffers.set(name, (buffer = new Int32Array(this.cells)));
        const grid = buffer.subarray(0, cells);
        if (zero) grid.fill(0);
        return grid;
    }
}

/**
 * Runs river batches window by window (one thread). Keeps its grids between batches: a window's
 * worth, about 50 bytes a window vertex, and the rows kept aside for the next window.
 */
export class RiverWindows {
    private _grids: WindowGrids | null = null;
    /** Counters of the aprons' rows: worked out, then dropped. */
    private readonly _apronCounters: Float64Array;

    /** @param windowVertices about how many vertices a window holds (its band grows to twice the apron at least) */
    constructor(
        counters: number,
        private readonly _windowVertices: number = WINDOW_VERTICES
    ) {
        this._apronCounters = new Float64Array(counters);
    }

    /** Rows of apron a window needs above and below its band for a batch of `phases` phases (one a phase, and a margin). */
    public apronRows(phases: number): number {
        return phases + 2;
    }

    /** Rows of each window's band for a field `width` wide and an apron of `apron` rows. */
    public bandRows(width: number, apron: number): number {
        // The band takes at least the apron's rows, so the next window's upper apron lies in this band.
        return Math.max(Math.floor(this._windowVertices / width) - 2 * apron, 2 * apron, 1);
    }

    /** Runs one river batch of `steps` drainage-area steps over `state` (the maps and counters take its changes). */
    public run(params: BatchParams, steps: number, state: ErosionStateData, masks: ErosionMasks, maps: ErosionMaps | null): void {
        if (!riverRunsInWindows(params)) throw new Error("Internal error: a tileable terrain's river batch wraps around the field and cannot run in windows.");
        const { width, depth } = state;
        // P counts the stepped phases: the walk gives their integers, so their reach bounds its.
        const apron = this.apronRows(riverPhases(params, steps).length);
        const band = this.bandRows(width, apron);
        const windowCells = width * Math.min(depth, band + 2 * apron);
        if (this._grids?.cells !== windowCells) this._grids = new WindowGrids(windowCells);
        const grids = this._grids;
        // The grids the batch changes: the state's, and the soil where the materials run (their hardness is only read).
        const materials = params.materials !== 0 ? (state.materials ?? null) : null;
        const names: string[] = [...STATE_GRIDS, ...(materials ? ["soil"] : [])];
        const fieldGrids = [...STATE_GRIDS.map((name) => state[name]), ...(materials ? [materials.soil] : [])];
        // The rows above the current band, as they were before the batch.
        const before = fieldGrids.map(() => new Int32Array(apron * width));
        for (let c0 = 0; c0 < depth; c0 += band) {
            const c1 = Math.min(c0 + band, depth);
            const w0 = Math.max(c0 - apron, 0);
            const w1 = Math.min(c1 + apron, depth);
            const cells = (w1 - w0) * width;
            const windowGrids = fieldGrids.map((field, k) => {
                const grid = grids.grid(names[k], cells);
                // Rows above the band from the copy kept before the band above was written back.
                grid.set(before[k].subarray((apron - (c0 - w0)) * width), 0);
                grid.set(field.subarray(c0 * width, w1 * width), (c0 - w0) * width);
                return grid;
            });
            const window: ErosionStateData = { ...state, depth: w1 - w0, masks: masksInRows(masks, width, w0, w1), water: null, counters: state.counters };
            STATE_GRIDS.forEach((name, k) => (window[name] = windowGrids[k]));
            window.materials = materials && { soil: windowGrids[STATE_GRIDS.length], hardness: materials.hardness.subarray(w0 * width, w1 * width) };
            this._runWindow(params, steps, window, maps, w0, { y0: c0 - w0, y1: c1 - w0 }, grids);
            fieldGrids.forEach((field, k) => {
                if (c1 < depth) before[k].set(field.subarray((c1 - apron) * width, c1 * width));
                field.set(windowGrids[k].subarray((c0 - w0) * width, (c1 - w0) * width), c0 * width);
            });
        }
    }

    /** The batch over `window` (rows `w0..` of the field), keeping the counters and maps of `band`'s rows. */
    private _runWindow(
        params: BatchParams, steps: number, window: ErosionStateData, maps: ErosionMaps | null, w0: number, band: RowRange, grids: WindowGrids
    ): void {
        const { width, depth } = window;
        const cells = width * depth;
        const local = paramsInRows(params, w0, w0 + depth);
        const scratch = {} as RiverScratch;
        for (const name of RIVER_SHARED_GRIDS) scratch[name] = grids.grid(name, cells, true);
        const bandMaps = maps && {
            water: maps.water.subarray(w0 * width, (w0 + depth) * width),
            wear: maps.wear.subarray(w0 * width, (w0 + depth) * width),
            deposition: maps.deposition.subarray(w0 * width, (w0 + depth) * width),
        };
        const bands = [
            { rows: { y0: 0, y1: band.y0 }, counters: this._apronCounters, maps: null },
            { rows: band, counters: window.counters, maps: bandMaps },
            { rows: { y0: band.y1, y1: depth }, counters: this._apronCounters, maps: null },
        ].map((part, k) => ({
            ...part,
            context: { params: local, state: window, masks: window.masks, scratch, work: grids.works[k], counters: part.counters, maps: part.maps },
        }));
        for (const phase of riverPhases(local, steps, true)) {
            if (phase.kind === "walk") {
                // One walk over the whole window (trees cross the bands); the aprons' vertices count apart.
                const [, inBand] = bands;
                runRiverPhase(phase, band, { ...inBand.context, countedRows: { rows: band, elsewhere: this._apronCounters } });
                continue;
            }
            const rows = riverPhaseRows(local, phase);
            for (const part of bands) {
                const y0 = Math.min(Math.max(rows.y0, part.rows.y0), part.rows.y1);
                runRiverPhase(phase, { y0, y1: Math.max(y0, Math.min(rows.y1, part.rows.y1)) }, part.context);
            }
        }
    }
}
