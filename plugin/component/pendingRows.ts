/**
 * The changed rows frames bring back, applied to the grounds' CPU data a band at a time within the
 * frame's budget. A whole-field batch's rows (the rivers') cost about 12 ms of main thread at 513²
 * on the CPU backend (positions, normals, picking data, the vertex buffers' and maps textures'
 * uploads): more than a frame's budget, so they are spread over the next frames. Each frame's rows
 * go in the order the frames landed; a band's normals are computed again with the next band
 * (`GroundField.writeRows` recomputes one row beyond what it writes).
 */
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { MapsTexels } from "../core/erosionMaps.js";
import type { PlannedBatch } from "../core/schedule.js";

/** A frame's rows as they came back, with the batches that changed them. */
export interface LandedRows {
    readonly backend: ErosionBackend;
    readonly rows: Int32Array | null;
    readonly y0: number;
    readonly y1: number;
    readonly texels: MapsTexels | null;
    readonly batches: readonly PlannedBatch[];
    /** Called once its last row is applied. */
    readonly applied?: () => void;
}

/** Applies rows `y0 .. y1 - 1` of `landed` (its texels cut to them), in order. */
export type ApplyRowBand = (landed: LandedRows, y0: number, y1: number, texels: MapsTexels | null) => void;

/** The fewest rows a band applies: a frame always makes some progress. */
const MIN_BAND_ROWS = 8;
/**
 * Milliseconds a vertex of a row costs to apply before any was measured: pessimistic (513 vertices
 * a row, 0.1 ms), so the first band does not overrun; the running estimate then learns.
 */
const INITIAL_MS_PER_VERTEX = 2e-4;
/** How much of the costliest recent cost per vertex a frame's measurement keeps. */
const PEAK_DECAY = 0.9;
/** Share of a new measurement in the running cost per vertex. */
const SMOOTHING = 0.25;

/** Rows that came back and are not yet on the grounds. */
export class PendingRows {
    private readonly _queue: { landed: LandedRows; next: number }[] = [];
    private _msPerVertex = INITIAL_MS_PER_VERTEX;
    private _peakMsPerVertex = INITIAL_MS_PER_VERTEX;

    /** @param _width vertices a row (of the field) */
    constructor(
        private readonly _width: number,
        private readonly _apply: ApplyRowBand
    ) {}

    /** Whether rows are waiting. */
    public get pending(): boolean {
        return this._queue.length > 0;
    }

    /** Queues a frame's rows (a frame without rows still goes in order: its previews' bookkeeping). */
    public add(landed: LandedRows): void {
        this._queue.push({ landed, next: landed.rows ? landed.y0 : landed.y1 });
    }

    /**
     * Applies waiting rows of `current`'s frames for about `budgetMs` (at least one band); the rows
     * of another backend (a lost device's) are dropped. Returns the milliseconds it took.
     */
    public applyWithin(budgetMs: number, current: ErosionBackend | null): number {
        const started = performance.now();
        let rowsApplied = 0;
        while (this._queue.length > 0) {
            const entry = this._queue[0];
            if (entry.landed.backend !== current) {
                this._queue.shift();
                continue;
            }
            const spent = performance.now() - started;
            if (rowsApplied > 0 && spent >= budgetMs) break;
            // Sized by the costliest rows lately, not the average: rows whose heights all changed
            // (a river batch's) cost about twice what a mostly unchanged band does.
            const rows = Math.max(MIN_BAND_ROWS, Math.floor((budgetMs - spent) / (Math.max(this._msPerVertex, this._peakMsPerVertex) * this._width)));
            rowsApplied += this._applyBand(entry, rows);
        }
        const ms = performance.now() - started;
        if (rowsApplied > 0) {
            const measured = ms / (rowsApplied * this._width);
            this._msPerVertex += SMOOTHING * (measured - this._msPerVertex);
            this._peakMsPerVertex = Math.max(measured, this._peakMsPerVertex * PEAK_DECAY);
        }
        return ms;
    }

    /** Applies every waiting row of `current` now (before a queued operation, or an unbudgeted frame's own rows). */
    public flush(current: ErosionBackend | null): void {
        this.applyWithin(Infinity, current);
    }

    private _applyBand(entry: { landed: LandedRows; next: number }, rows: number): number {
        const { landed } = entry;
        const y0 = entry.next;
        const y1 = Math.min(landed.y1, y0 + rows);
        this._apply(landed, y0, y1, landed.texels ? bandTexels(landed.texels, this._width, landed.y0, y0, y1) : null);
        entry.next = y1;
        if (y1 >= landed.y1) {
            this._queue.shift();
            landed.applied?.();
        }
        return y1 - y0;
    }
}

/** The texels of rows `y0 .. y1 - 1` of a frame's texels that start at row `from` (maps and water RGBA, area R, `width` vertices a row). */
function bandTexels(texels: MapsTexels, width: number, from: number, y0: number, y1: number): MapsTexels {
    const cut = (array: Float32Array, channels: number) => array.subarray((y0 - from) * width * channels, (y1 - from) * width * channels);
    return { maps: cut(texels.maps, 4), area: cut(texels.area, 1), water: texels.water ? cut(texels.water, 4) : null };
}
