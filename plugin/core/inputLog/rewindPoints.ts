/**
 * Where undo rewinds to: cycle-boundary states kept in a ring whose memory is bounded (the newest
 * that fit), each with the log's last seq when it was taken, and the start of the run (attach, the
 * last reset or restore), always kept. An undo or a redo of entry `t` puts back the newest point
 * taken before `t` was given and re-gives the entries in force after it (`rewindPlan`).
 */
import { cloneState, type ErosionStateData } from "../erosionState.js";
import { WATER_CARRIED_GRIDS } from "../waterModel.js";
import { MATERIAL_GRIDS } from "../materials.js";
import type { SimulationOptions } from "../options.js";
import type { InputEntry } from "./inputEntries.js";
import type { InputLog } from "./inputLog.js";

/** A state undo can rewind to. */
export interface RewindPoint {
    /** The whole state (its events, sources and queued edits included), owned by the point. */
    readonly state: ErosionStateData;
    /** The simulation options in force there. */
    readonly options: SimulationOptions;
    /** Entries given before it that wait for a later stamp (not in the state). */
    readonly held: readonly InputEntry[];
    /** The log's last seq when it was taken: the state holds every entry up to it that applied by then. */
    readonly seq: number;
}

/** Bytes a state's grids take. */
export function stateBytes(state: ErosionStateData): number {
    const cells = state.width * state.depth;
    const masks = Object.values(state.masks).filter((mask) => mask !== null).length;
    return 4 * cells * (4 + masks + (state.water ? WATER_CARRIED_GRIDS.length : 0) + (state.materials ? MATERIAL_GRIDS.length : 0));
}

/** The ring of rewind points, bounded by `limitBytes`. */
export class RewindPoints {
    private _points: RewindPoint[] = [];
    private _bytes = 0;

    constructor(private _limitBytes: number) {}

    /** The bound, in bytes. */
    public get limitBytes(): number {
        return this._limitBytes;
    }

    public set limitBytes(bytes: number) {
        this._limitBytes = bytes;
        this._evict();
    }

    /** Bytes the points hold now (at most `limitBytes`). */
    public get bytes(): number {
        return this._bytes;
    }

    /** Points held now. */
    public get count(): number {
        return this._points.length;
    }

    /**
     * Keeps a copy of `point`'s state, dropping the oldest points past the bound.
     * @param owned true where `point.state` is already a copy no one changes (`CpuErosionSimulation`'s
     *   `getState()`, a checkpoint read at a cycle boundary): kept as it is, rather than copied a
     *   second time at every cycle's end
     */
    public add(point: RewindPoint, owned = false): void {
        if (stateBytes(point.state) > this._limitBytes) return;
        this._points.push({ ...point, state: owned ? point.state : cloneState(point.state), held: [...point.held] });
        this._bytes += stateBytes(point.state);
        this._evict();
    }

    /** The newest point taken before entry `seq` was given, if any. */
    public before(seq: number): RewindPoint | null {
        for (let i = this._points.length - 1; i >= 0; i--) {
            if (this._points[i].seq < seq) return this._points[i];
        }
        return null;
    }

    /** Drops the points taken after entry `seq` was given (they hold its effect, or its absence). */
    public dropFrom(seq: number): void {
        this._points = this._points.filter((point) => point.seq < seq);
        this._bytes = this._points.reduce((sum, point) => sum + stateBytes(point.state), 0);
    }

    /** Drops every point (a reset or a restore starts the run again). */
    public clear(): void {
        this._points = [];
        this._bytes = 0;
    }

    private _evict(): void {
        while (this._bytes > this._limitBytes && this._points.length > 0) {
            this._bytes -= stateBytes(this._points.shift()!.state);
        }
    }
}

/**
 * How to undo or redo entry `target.seq`: the point to put back (the newest before the entry, else
 * `start`) and the entries to give again after it, in order (those in force: not taken back, and
 * not undos or redos themselves). Drops the points the change makes wrong.
 */
export function rewindPlan(log: InputLog, points: RewindPoints, start: RewindPoint, targetSeq: number): { point: RewindPoint; entries: InputEntry[] } {
    points.dropFrom(targetSeq);
    const kept = points.before(targetSeq);
    const point = kept && kept.seq >= start.seq ? kept : start;
    const entries = log.since(point.seq).filter((entry) => entry.kind !== "undo" && entry.kind !== "redo" && !log.isExcluded(entry.seq));
    return { point: { ...point, held: point.held.filter((entry) => !log.isExcluded(entry.seq)) }, entries };
}
