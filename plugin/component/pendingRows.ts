/**
 * The changed rows frames bring back, applied to the grounds' CPU data as they land, or, when they
 * would cost more than the frame's budget, a band at a time over the next frames (within
 * `DRAIN_FRAMES`). A whole-field batch's rows (the rivers') cost about 12 ms of main thread at 513²
 * on the CPU backend (positions, normals, picking data, the vertex buffers' and maps textures'
 * uploads). Each frame's rows go in the order the frames landed; a band's normals are computed
 * again with the next band (`GroundField.writeRows` recomputes one row beyond what it writes).
 */
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { MapsTexels } from "../core/erosionMaps.js";
import type { PlannedBatch } from "../core/schedule.js";
import { presenterOf } from "./backendPresenter.js";

/** A frame's rows as they came back, with the batches that changed them. */
export interface LandedRows {
    readonly backend: ErosionBackend;
    /** Heights of rows `y0 .. y1 - 1`, columns `x0 .. x1 - 1` (whole rows where absent), row after row. */
    readonly rows: Int32Array | null;
    readonly y0: number;
    readonly y1: number;
    /** The first column of `rows`, `texels` and `normals` (0 where absent). */
    readonly x0?: number;
    /** The column after their last (the field's width where absent). */
    readonly x1?: number;
    readonly texels: MapsTexels | null;
    /** The vertex normals of the same region where the backend computed them (`FramePresentation.normals`), else null. */
    readonly normals?: Float32Array | null;
    readonly batches: readonly PlannedBatch[];
    /** Called once its last row is applied. */
    readonly applied?: () => void;
}

/** Applies rows `y0 .. y1 - 1` of `landed` (its texels cut to them), in order. */
export type ApplyRowBand = (landed: LandedRows, y0: number, y1: number, texels: MapsTexels | null) => void;

/** The fewest rows a band applies: a frame always makes some progress. */
const MIN_BAND_ROWS = 8;
/**
 * Frames within which a landed frame's rows are all applied when the budget holds them: the
 * grounds' CPU data (picking, height queries, and the CPU backend's vertex buffers) is then never
 * more than this many frames behind what came back. A whole-field batch's rows at 513² take three
 * frames of about 4 ms each on the CPU backend (one of 12 ms before).
 */
export const DRAIN_FRAMES = 3;
/**
 * Frames within which a landed frame's rows are all applied whatever the budget: when the rows
 * waiting before them and their own cost more than `DRAIN_FRAMES` budgets, they get as many frames
 * as the budget needs for them and one more, up to this many (a deadline forces its frame's rows
 * whatever they cost: seen at a 4 ms budget, a whole field's rows landing behind others forced
 * bands of 130 rows, 13 ms, into one frame).
 */
export const MAX_DRAIN_FRAMES = 6;
/**
 * Vertices whose rows one frame interval uploads at most, per millisecond of the frame budget (the
 * CPU backend's rows: vertex buffers and maps textures, 24 to 60 bytes a vertex), whatever the
 * budget's estimate of their cost, except for the rows due by a landed frame's deadline (which
 * counts the frames its uploads need, up to `MAX_DRAIN_FRAMES`). An upload waits when the GPU
 * process has not taken the ones before: measured on Chromium's WebGL2 (SwiftShader, 513², the
 * maps texture on, a 4 ms budget), bands of 320-450 rows, 7-10 MB, waited 20-37 ms now and then
 * (the rows' own work 3 ms); in bands of at most 128 rows (65,536 vertices) none did in nine cycles.
 * At 4 ms this allows 64 rows a frame: in the bench the longest main-thread frame was 2.2, 2.6 and
 * 6.6 ms in three runs (4.6-12.9 ms in five at twice the rate, p95 1.2-1.5 ms against 1.9-2.7), a
 * cycle 3.9-4.4 s against 2.1-3.1: a small budget asks for thin frames before fast erosion.
 */
export const UPLOAD_VERTICES_PER_MS = 8192;
/**
 * Vertices a frame interval may upload whatever the budget (0.4-1 MB, far below the uploads that
 * waited): at a budget of a fraction of a millisecond the rows would otherwise come back a band of
 * a few rows a frame, and the batches wait for them.
 */
export const MIN_UPLOAD_VERTICES = 16384;
/** Milliseconds of rows applied the moment they land whatever the budget (below it, spreading them would only delay the grounds). */
const AT_ONCE_MS = 2;
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
    private readonly _queue: { landed: LandedRows; next: number; deadline: number }[] = [];
    /** Calls of `applyWithin` so far (a frame each): what the deadlines count. */
    private _frames = 0;
    private _msPerVertex = INITIAL_MS_PER_VERTEX;
    private _peakMsPerVertex = INITIAL_MS_PER_VERTEX;
    /** Vertices uploaded as frames landed since the last `applyWithin` (they count against its `UPLOAD_VERTICES_PER_MS`). */
    private _uploadedSinceFrame = 0;

    /**
     * @param _width vertices a row (of the field)
     * @param _atOnceMs rows that cost no more than this are applied as they land whatever the budget
     * @param _uploadVerticesPerMs vertices a frame interval uploads at most per millisecond of frame budget (`UPLOAD_VERTICES_PER_MS`)
     * @param _minUploadVertices vertices a frame interval may upload whatever the budget (`MIN_UPLOAD_VERTICES`)
     */
    constructor(
        private readonly _width: number,
        private readonly _apply: ApplyRowBand,
        private readonly _atOnceMs = AT_ONCE_MS,
        private readonly _uploadVerticesPerMs = UPLOAD_VERTICES_PER_MS,
        private readonly _minUploadVertices = MIN_UPLOAD_VERTICES
    ) {}

    /** Whether rows are waiting. */
    public get pending(): boolean {
        return this._queue.length > 0;
    }

    /**
     * Takes a frame's rows as they land: applied at once when nothing waits before them, they cost
     * no more than `budgetMs` (or the constructor's `atOnceMs`, whichever is more) by the estimate
     * and their uploads fit in what is left of the frame interval's; else queued for the next
     * frames, to be applied within `DRAIN_FRAMES` frames, or more when the rows waiting and their
     * own cost more than that many `frameBudgetMs` or uploads (`MAX_DRAIN_FRAMES` at most). A frame
     * without rows goes in order too (its previews' bookkeeping). Returns the milliseconds it spent applying.
     */
    public add(landed: LandedRows, budgetMs = Infinity, frameBudgetMs = budgetMs): number {
        const rows = landed.rows ? landed.y1 - landed.y0 : 0;
        const vertices = rows * this._width;
        const costMs = vertices * this._costPerVertex;
        const uploads = uploadsRows(landed.backend);
        const framesForCost = Math.ceil((this.backlogMs(landed.backend) + costMs) / frameBudgetMs);
        const uploadCap = this._uploadCap(frameBudgetMs);
        const framesForUploads = uploads ? Math.ceil((this._backlogRows(landed.backend) * this._width + vertices) / uploadCap) : 0;
        const framesNeeded = Math.max(framesForCost, framesForUploads) + 1;
        const drainFrames = Math.min(MAX_DRAIN_FRAMES, Math.max(DRAIN_FRAMES, Number.isFinite(framesNeeded) ? framesNeeded : MAX_DRAIN_FRAMES));
        this._queue.push({ landed, next: landed.rows ? landed.y0 : landed.y1, deadline: this._frames + drainFrames });
        if (this._queue.length > 1 || costMs > Math.max(budgetMs, this._atOnceMs)) return 0;
        if (uploads && this._uploadedSinceFrame + vertices > uploadCap) return 0;
        const started = performance.now();
        this._applyBand(this._queue[0], rows);
        if (uploads) this._uploadedSinceFrame += vertices;
        const ms = performance.now() - started;
        this._learn(rows, ms);
        return ms;
    }

    /**
     * The estimated milliseconds of `current`'s rows still waiting (what the frames ahead must
     * apply), at the average cost of a row lately (bands are sized by the costliest instead).
     */
    public backlogMs(current: ErosionBackend | null): number {
        return this._backlogRows(current) * this._width * this._msPerVertex;
    }

    /**
     * Whether the rows waiting are more than the next `DRAIN_FRAMES - 1` frames apply: by their cost
     * at `frameBudgetMs`, or by their uploads (`UPLOAD_VERTICES_PER_MS`). New batches wait
     * meanwhile: a backend that erodes faster than the main thread applies rows (the CPU backend's
     * workers) would otherwise have the frames apply more than the budget to keep the deadlines.
     */
    public backlogged(current: ErosionBackend, frameBudgetMs: number): boolean {
        const ahead = DRAIN_FRAMES - 1;
        const uploadBacklog = uploadsRows(current) && this._backlogRows(current) * this._width > ahead * this._uploadCap(frameBudgetMs);
        return uploadBacklog || this.backlogMs(current) > ahead * frameBudgetMs;
    }

    /** Vertices a frame interval uploads at most at `frameBudgetMs`. */
    private _uploadCap(frameBudgetMs: number): number {
        return Math.max(this._minUploadVertices, this._uploadVerticesPerMs * frameBudgetMs);
    }

    /** Rows of `current`'s frames still waiting. */
    private _backlogRows(current: ErosionBackend | null): number {
        let rows = 0;
        for (const { landed, next } of this._queue) if (landed.backend === current && landed.rows) rows += landed.y1 - next;
        return rows;
    }

    /**
     * The cost a band is sized by: the costliest rows lately, not the average (rows whose heights
     * all changed, a river batch's, cost about twice what a mostly unchanged band does).
     */
    private get _costPerVertex(): number {
        return Math.max(this._msPerVertex, this._peakMsPerVertex);
    }

    private _learn(rows: number, ms: number): void {
        if (rows <= 0) return;
        const measured = ms / (rows * this._width);
        this._msPerVertex += SMOOTHING * (measured - this._msPerVertex);
        this._peakMsPerVertex = Math.max(measured, this._peakMsPerVertex * PEAK_DECAY);
    }

    /**
     * Applies waiting rows of `current`'s frames for about `budgetMs`, and at least what keeps each
     * frame's rows within `DRAIN_FRAMES` frames of landing (so the rows never fall behind what the
     * frames bring, however small the budget); the rows of another backend (a lost device's) are
     * dropped. Returns the milliseconds it took.
     */
    public applyWithin(budgetMs: number, current: ErosionBackend | null, frameBudgetMs = budgetMs): number {
        this._frames++;
        const started = performance.now();
        let rowsApplied = 0;
        let uploaded = this._uploadedSinceFrame;
        this._uploadedSinceFrame = 0;
        while (this._queue.length > 0) {
            const entry = this._queue[0];
            if (entry.landed.backend !== current) {
                this._queue.shift();
                continue;
            }
            const remaining = entry.landed.y1 - entry.next;
            const due = Math.ceil(remaining / Math.max(1, entry.deadline - this._frames + 1));
            const spent = performance.now() - started;
            const affordable = Math.floor((budgetMs - spent) / (this._costPerVertex * this._width));
            let rows = Math.max(due, affordable, rowsApplied === 0 ? MIN_BAND_ROWS : 0);
            const uploads = uploadsRows(entry.landed.backend);
            if (uploads && Number.isFinite(frameBudgetMs)) {
                // What the interval's uploads leave, but the rows due by the deadline whatever they upload
                // (`add` gave the frame as many frames as its uploads need, up to `MAX_DRAIN_FRAMES`).
                const room = Math.floor((this._uploadCap(frameBudgetMs) - uploaded) / this._width);
                rows = Math.min(rows, Math.max(room, due, rowsApplied === 0 && uploaded === 0 ? MIN_BAND_ROWS : 0));
            }
            if (rows <= 0 && remaining > 0) break;
            const applied = this._applyBand(entry, rows);
            rowsApplied += applied;
            if (uploads) uploaded += applied * this._width;
            if (this._queue[0] === entry) break; // this frame's share of it is done; the next ones wait their turn
        }
        const ms = performance.now() - started;
        this._learn(rowsApplied, ms);
        return ms;
    }

    /** Applies every waiting row of `current` now (before a queued operation, or an unbudgeted frame's own rows). */
    public flush(current: ErosionBackend | null): void {
        this.applyWithin(Infinity, current);
    }

    private _applyBand(entry: { landed: LandedRows; next: number; deadline: number }, rows: number): number {
        const { landed } = entry;
        const y0 = entry.next;
        const y1 = Math.min(landed.y1, y0 + rows);
        this._apply(landed, y0, y1, landed.texels ? bandTexels(landed.texels, (landed.x1 ?? this._width) - (landed.x0 ?? 0), landed.y0, y0, y1) : null);
        entry.next = y1;
        if (y1 >= landed.y1) {
            this._queue.shift();
            landed.applied?.();
        }
        return y1 - y0;
    }
}

/**
 * Whether applying `backend`'s rows uploads them (the CPU backend's; the GPU backend's vertices and
 * maps are written on the GPU): its presenter's `uploadsRows`.
 */
function uploadsRows(backend: ErosionBackend): boolean {
    return presenterOf(backend).uploadsRows;
}

/** The texels of rows `y0 .. y1 - 1` of a frame's texels that start at row `from` (maps, water and materials RGBA, area R, `columns` vertices a row). */
function bandTexels(texels: MapsTexels, columns: number, from: number, y0: number, y1: number): MapsTexels {
    const cut = (array: Float32Array, channels: number) => array.subarray((y0 - from) * columns * channels, (y1 - from) * columns * channels);
    return {
        maps: cut(texels.maps, 4),
        area: cut(texels.area, 1),
        water: texels.water ? cut(texels.water, 4) : null,
        materials: texels.materials ? cut(texels.materials, 4) : null,
    };
}
