/**
 * One run's history: its input log, the points undo rewinds to and the run's start, and every
 * decision about them (`historyPlans.ts`): what an undo or redo takes back and rewinds to, what a
 * reset or restore puts back, where a given entry applies, what a replay does with each entry.
 * The history records the entries and hands back plans; the CPU simulation (synchronously) and a
 * behavior's runner (in its queue) carry them out, so both read the log the same way.
 */
import type { ErosionSchedule } from "../schedule.js";
import { simulationOptions } from "../options.js";
import { ErosionSnapshot } from "../snapshot.js";
import { startHeightsHash, type InputEntry, type InputStamp } from "./inputEntries.js";
import type { InputLog } from "./inputLog.js";
import { rewindPlan, RewindPoints, type RewindPoint } from "./rewindPoints.js";
import { checkInputEntry } from "./entryChecks.js";
import { adoptHistory, type InputHistory } from "./inputHistory.js";
import type { InputField } from "./inputChecks.js";
import {
    checkOrder,
    checkStepCount,
    planGive,
    planReplayStep,
    resetState,
    type ActPlan,
    type GivePlan,
    type PutBackPlan,
    type ReplayStep,
    type RewindPlan,
    type StepKind,
    type StepPlan,
} from "./historyPlans.js";

// The plans and the rules that make them, reached through the history they belong to.
export { checkStepCount, isActKind, planGive, planReplayStep, playerStepEntry, resetState, stepRuns } from "./historyPlans.js";
export type { ActKind, ActPlan, GivePlan, PutBackPlan, ReplayStep, RewindPlan, StepKind, StepPlan } from "./historyPlans.js";

/** What undo's rewind points hold. */
export interface HistoryMemory {
    /** Bytes the points hold now (at most `limitBytes`). */
    readonly bytes: number;
    /** Points held now. */
    readonly points: number;
    /** The bound, in bytes. */
    readonly limitBytes: number;
}

/** A run's input log, rewind points and start, and the plans that act on them. */
export class RunHistory {
    private readonly _points: RewindPoints;
    private _start: RewindPoint;

    /**
     * @param _schedule the run's schedule: its inputs' log is this history's, its position where entries are given
     * @param _startHeights the heights the run started from (what a reset goes back to; not copied, never changed)
     * @param start the run's start, where a rewind with no point old enough begins
     * @param limitBytes the bound of the rewind points' memory
     */
    constructor(
        private readonly _schedule: ErosionSchedule,
        private readonly _startHeights: Int32Array,
        start: RewindPoint,
        limitBytes: number
    ) {
        this._points = new RewindPoints(limitBytes);
        this._start = start;
    }

    /** The log itself (read it; entries enter it through this history or the schedule's inputs). */
    public get log(): InputLog {
        return this._schedule.inputs.log;
    }

    /** Every entry since the log began, in `seq` order. */
    public get entries(): readonly InputEntry[] {
        return this.log.entries;
    }

    /** The last entry's seq (0 before the first). */
    public get lastSeq(): number {
        return this.log.lastSeq;
    }

    /** The entry `undo` would take back, or null. */
    public get undoable(): InputEntry | null {
        return this.log.undoable;
    }

    /** The entry `redo` would give back, or null. */
    public get redoable(): InputEntry | null {
        return this.log.redoable;
    }

    /** The entries a replay from a snapshot taken after entry `seq`, standing at `position`, needs (`InputLog.sinceSnapshot`). */
    public sinceSnapshot(seq: number, position: InputStamp): InputEntry[] {
        return this.log.sinceSnapshot(seq, position);
    }

    /** Calls `listener` with each entry as it is stamped; returns the function that stops it. */
    public onEntry(listener: (entry: InputEntry) => void): () => void {
        return this.log.onEntry(listener);
    }

    /** The bound of the rewind points' memory, in bytes. */
    public get limitBytes(): number {
        return this._points.limitBytes;
    }

    public set limitBytes(bytes: number) {
        this._points.limitBytes = bytes;
    }

    /** What the rewind points hold now, and their bound. */
    public get memory(): HistoryMemory {
        return { bytes: this._points.bytes, points: this._points.count, limitBytes: this._points.limitBytes };
    }

    /** Keeps a cycle-boundary point to rewind to (`owned`: its state is a copy no one changes, kept as it is). */
    public addPoint(point: RewindPoint, owned: boolean): void {
        this._points.add(point, owned);
    }

    /** The run's start: construction, its last reset or restore, or a join's history start. */
    public get start(): RewindPoint {
        return this._start;
    }

    /** The run starts again at `point` (a reset or restore carried out): the points before it are dropped. */
    public restart(point: RewindPoint): void {
        this._points.clear();
        this._start = point;
    }

    /**
     * A replay's start: the log emptied, and the run starting at `point` (its snapshot), or, with a
     * lockstep join's `history`, the history recorded (checked whole, not given) and its start the run's.
     */
    public startReplay(point: RewindPoint, history: InputHistory | undefined, field: InputField): void {
        this.log.clear();
        this.restart(history ? adoptHistory(this.log, history, field) : point);
    }

    /** What a joiner needs to undo inputs given before it joined: the start as a snapshot and the entries since it up to `upTo`. */
    public joinHistory(cellSize: number | undefined, upTo = this.lastSeq): InputHistory {
        const start = this._start;
        const snapshot = new ErosionSnapshot(start.state, start.options, cellSize, start.seq);
        return { start: new Uint8Array(snapshot.toArrayBuffer()), entries: this.entries.filter((entry) => entry.seq > start.seq && entry.seq <= upTo) };
    }

    /**
     * Takes back (undo) or gives back (redo) the last `count` inputs, logging an entry for each,
     * stamped `here`: the plan names them, last first, and the one rewind that puts the run without
     * (with) them, back to `here`.
     */
    public step(kind: StepKind, count: number, here: InputStamp): StepPlan {
        checkStepCount(kind, count);
        const log = this.log;
        const targets: InputEntry[] = [];
        for (let target = this._stepTarget(kind); target && targets.length < count; target = this._stepTarget(kind)) {
            log.record({ kind, target: target.seq }, here, here);
            targets.push(target);
        }
        return { targets, rewind: targets.length > 0 ? this._rewind(Math.min(...targets.map((target) => target.seq)), here) : null };
    }

    /** Where a rebuilt backend resumes (a stall, a lost device): the newest point and the entries in force since, nothing taken back. */
    public resumePlan(): RewindPlan {
        return this._rewind(this.lastSeq + 1, this._schedule.inputs.position);
    }

    /**
     * Checks an entry from another run (a peer, a replay) whole and says where it goes (`planGive`);
     * `where` names the caller in a refusal. Nothing is recorded yet.
     */
    public give(raw: unknown, field: InputField, where: string): GivePlan {
        const entry = checkInputEntry(raw, field, where);
        return planGive(entry, this.lastSeq, this._schedule.inputs.position, this._startHeights, where);
    }

    /**
     * Says where a run of undos and redos at one stamp (`stepRuns`, checked) goes: checked as its
     * first entry is (the order, the stamp not passed); the rest are checked as they are logged.
     */
    public giveRun(entries: readonly InputEntry[], where: string): GivePlan {
        const { runTo } = planGive(entries[0], this.lastSeq, this._schedule.inputs.position, this._startHeights, where) as { runTo: InputStamp };
        return { kind: "act", entries, runTo };
    }

    /**
     * Records a run of reset, restore, undo or redo entries given where the run stands (their
     * stamp, reached) and says what they do: one rewind for a run of undos and redos (to the
     * oldest target), a put-back for a reset or a restore (a run of one).
     */
    public act(entries: readonly InputEntry[], where = "give"): ActPlan {
        let target = Infinity;
        let last: InputEntry | null = null;
        // The payload keeps the entry's `at`, which `record` writes over with the stamp (an act applies where it is given).
        for (const { seq, stamp, player, ...payload } of entries) {
            checkOrder(seq, this.lastSeq, where);
            last = this.log.record(payload, stamp, stamp, seq, player);
            if (last.kind === "undo" || last.kind === "redo") target = Math.min(target, last.target);
        }
        if (!last) throw new RangeError(`${where}: no entry to act on.`);
        return this._planFor(last, target);
    }

    /** Logs a reset stamped `here` and says what it puts back: the start heights, the options and masks in force. */
    public reset(here: InputStamp): PutBackPlan {
        const entry = this.log.record({ kind: "reset", heights: startHeightsHash(this._startHeights) }, here, here);
        return this._planFor(entry, Infinity) as PutBackPlan;
    }

    /**
     * Logs a restore of `snapshot` (a snapshot's bytes) stamped `here` and says what it puts back.
     * The bytes are read back first as any restore entry's are: a state that does not fit is refused whole.
     */
    public restore(snapshot: Uint8Array, field: InputField, here: InputStamp): PutBackPlan {
        checkInputEntry({ kind: "restore", snapshot, seq: this.lastSeq + 1, at: here, stamp: here }, field, "restore");
        return this._planFor(this.log.record({ kind: "restore", snapshot }, here, here), Infinity) as PutBackPlan;
    }

    /** What a replay that started at `startedAt` (`started`: past it already) does with `entry` (`planReplayStep`). */
    public replayStep(entry: InputEntry, startedAt: InputStamp, started: boolean, where: string): ReplayStep {
        return planReplayStep(this.log, entry, this._schedule.inputs.position, startedAt, started, where);
    }

    private _stepTarget(kind: StepKind): InputEntry | null {
        return kind === "undo" ? this.log.undoable : this.log.redoable;
    }

    /** The plan of a logged act entry (`target`: the oldest an undo or redo run reaches). */
    private _planFor(entry: InputEntry, target: number): ActPlan {
        const schedule = this._schedule;
        switch (entry.kind) {
            case "undo":
            case "redo":
                return { kind: "rewind", rewind: this._rewind(target, entry.stamp) };
            case "restore": {
                const { state, options } = ErosionSnapshot.fromArrayBuffer(entry.snapshot.slice().buffer);
                return { kind: "putBack", state, options, seq: entry.seq };
            }
            case "reset": {
                const { width, depth } = schedule.grid;
                const state = resetState(width, depth, this._startHeights, schedule.latestMasks);
                return { kind: "putBack", state, options: simulationOptions(schedule.latestOptions), seq: entry.seq };
            }
            default:
                throw new Error(`Internal error: a ${entry.kind} entry is an input, not an act on the run.`);
        }
    }

    /** The rewind for an undo or redo of entry `targetSeq`: the points after it dropped (`rewindPlan`), back to `here`. */
    private _rewind(targetSeq: number, here: InputStamp): RewindPlan {
        return { ...rewindPlan(this.log, this._points, this._start, targetSeq), here };
    }
}
