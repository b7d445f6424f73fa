/**
 * Undo, redo and replay on a behavior's runner: the checkpoints undo rewinds to (the runner's
 * cycle-boundary checkpoints, kept in a ring bounded by `undoMemoryMB`, and the start of the run),
 * and the rewinds themselves: put a point's state back, give again the entries in force after it,
 * each where it was given, and run back to where the run stood. The same plan as the CPU
 * reference's (`rewindPlan`), so a replay or a peer that reads the undo entry does the same.
 */
import { createInitialState, type ErosionStateData } from "../core/erosionState.js";
import { compareStamps, formatStamp, startHeightsHash, type InputEntry, type InputStamp } from "../core/inputLog/inputEntries.js";
import type { InputLog } from "../core/inputLog/inputLog.js";
import { rewindPlan, RewindPoints, type RewindPoint } from "../core/inputLog/rewindPoints.js";
import { checkInputEntries, checkInputEntry } from "../core/inputLog/entryChecks.js";
import { adoptHistory, type InputHistory } from "../core/inputLog/inputHistory.js";
import { simulationOptions, type ErosionOptions, type SimulationOptions } from "../core/options.js";
import { ErosionSnapshot } from "../core/snapshot.js";
import type { Live } from "./runnerLive.js";
import type { ErosionSchedule } from "../core/schedule.js";

/** What a rewind needs of the runner. */
export interface RewindHost {
    /** The newest options (their `undoMemoryMB` bounds the ring). */
    readonly options: ErosionOptions;
    /** Queues `use`; `finishPieces` false for an undo or redo, which rewinds over a batch in pieces (`dropPieces`). */
    queueLive<T>(operation: string, use: (live: Live) => Promise<T>, finishPieces?: boolean): Promise<T>;
    /** Forgets a batch in pieces and applies the rows waiting, before a rewind puts an older state in force. */
    dropPieces(): void;
    /** Puts `state` in force with `options` (not logged: a rewind's own step). */
    applyState(live: Live, state: ErosionStateData, options: Readonly<SimulationOptions>, maps: null, logged: false): Promise<void>;
    /** Runs until the schedule stands at `stamp`, the edits stamped there applied. */
    runTo(live: Live, stamp: InputStamp): Promise<void>;
    /** Makes the newest options those the schedule's replay left (the runtime settings stay). */
    adoptScheduleOptions(): void;
    /** The schedule: its inputs say whether this run is a lockstep player's (`forward`). */
    readonly schedule: ErosionSchedule;
}

/** What undo's checkpoints hold. */
export interface UndoMemory {
    /** Bytes the checkpoints hold now (at most `limitBytes`). */
    readonly bytes: number;
    /** Checkpoints held now. */
    readonly points: number;
    /** The bound, `undoMemoryMB` in bytes. */
    readonly limitBytes: number;
}

/** A runner's undo, redo and replay. */
export class RunnerRewind {
    private readonly _points: RewindPoints;
    private _start: RewindPoint;

    constructor(
        private readonly _host: RewindHost,
        initial: ErosionStateData,
        options: Readonly<SimulationOptions>
    ) {
        this._points = new RewindPoints(_host.options.undoMemoryMB * 2 ** 20);
        this._start = { state: initial, options: simulationOptions(options), held: [], seq: 0 };
    }

    /** What the checkpoints hold now, and their bound. */
    public get memory(): UndoMemory {
        this._points.limitBytes = this._host.options.undoMemoryMB * 2 ** 20;
        return { bytes: this._points.bytes, points: this._points.count, limitBytes: this._points.limitBytes };
    }

    /**
     * Keeps a landed cycle-boundary checkpoint as a point to rewind to: its state as it is, shared
     * with the checkpoint (a copy the backend read for them, which neither changes), since copying
     * it again cost the main thread 13-16 ms at every cycle's end at 513².
     */
    public addPoint(point: RewindPoint): void {
        this._points.limitBytes = this._host.options.undoMemoryMB * 2 ** 20;
        this._points.add(point, true);
    }

    /** A reset or a restore: the run starts again at `state` (the entry logged as `seq`). */
    public restart(state: ErosionStateData, options: Readonly<SimulationOptions>, seq: number): void {
        this._points.clear();
        this._start = { state, options: simulationOptions(options), held: [], seq };
    }

    /**
     * Takes back the last `count` inputs in force (one rewind for all); resolves with the entries
     * taken back, last first (fewer when fewer are in force), once the terrain shows the run without them.
     */
    public undo(count = 1): Promise<InputEntry[]> {
        return this._step("undo", count);
    }

    /** Gives back the last `count` inputs taken back (unless an input came since); resolves with them. */
    public redo(count = 1): Promise<InputEntry[]> {
        return this._step("redo", count);
    }

    private _step(kind: "undo" | "redo", count: number): Promise<InputEntry[]> {
        if (!Number.isInteger(count) || count < 1) return Promise.reject(new RangeError(`${kind}: count is ${count}: it must be a whole number, at least 1.`));
        // A lockstep player asks at once (not behind the frames and checks its queue holds, which on a
        // slow page kept the request from the host for as long as the page was behind): the host takes
        // back this player's own last inputs, and its entries bring the undo here.
        const forward = this._host.schedule.inputs.forward;
        if (forward) {
            for (let k = 0; k < count; k++) forward({ kind });
            return Promise.resolve([]);
        }
        return this._host.queueLive(kind, async (live) => {
            const log = live.schedule.inputs.log;
            const here = live.schedule.inputs.position;
            const targets: InputEntry[] = [];
            for (
                let target = kind === "undo" ? log.undoable : log.redoable;
                target && targets.length < count;
                target = kind === "undo" ? log.undoable : log.redoable
            ) {
                log.record({ kind, target: target.seq }, here, here);
                targets.push(target);
            }
            if (targets.length > 0) await this.rewind(live, Math.min(...targets.map((target) => target.seq)), here);
            return targets;
        }, false);
    }

    /**
     * Where a rebuilt backend resumes (after a stall): the newest point and the entries in force
     * given since, which the run gives again at their stamps (nothing is taken back).
     */
    public resumePlan(log: InputLog): { point: RewindPoint; entries: InputEntry[] } {
        return rewindPlan(log, this._points, this._start, log.lastSeq + 1);
    }

    /**
     * Rewinds for an undo or redo of entry `targetSeq` just logged: the newest point before it back
     * in force, the entries in force after it given again where they were, and the run back at `here`.
     */
    public async rewind(live: Live, targetSeq: number, here: InputStamp): Promise<void> {
        const inputs = live.schedule.inputs;
        const { point, entries } = rewindPlan(inputs.log, this._points, this._start, targetSeq);
        this._host.dropPieces();
        await this._host.applyState(live, point.state, point.options, null, false);
        inputs.setHeld(point.held);
        for (const entry of entries) {
            await this._host.runTo(live, entry.at);
            inputs.regive(entry);
        }
        await this._host.runTo(live, here);
        this._host.adoptScheduleOptions();
    }

    /**
     * Gives a log entry from another run (a peer, a replay) where it says: an input at its stamp
     * (held until then if ahead); a reset, restore, undo or redo once the run reaches its stamp. The
     * entry is checked whole first (`checkInputEntry`): a bad one is refused, naming its seq and
     * field, and changes nothing. Call it from inside the queue.
     */
    public async give(live: Live, raw: InputEntry, where = "give"): Promise<void> {
        const { schedule, field } = live;
        const entry = checkInputEntry(raw, field, where);
        if (entry.seq <= schedule.inputs.log.lastSeq) {
            throw new RangeError(`${where} (seq ${entry.seq}): the log's last entry is seq ${schedule.inputs.log.lastSeq}: entries must be given in order.`);
        }
        const { seq, at, stamp, player, ...payload } = entry;
        if (payload.kind !== "reset" && payload.kind !== "restore" && payload.kind !== "undo" && payload.kind !== "redo") {
            schedule.inputs.give(payload, stamp, seq, player, undefined, at);
            return;
        }
        if (compareStamps(stamp, schedule.inputs.position) < 0) {
            throw new RangeError(
                `give: the ${payload.kind} entry's stamp (${formatStamp(stamp)}) has passed: the run stands at ${formatStamp(schedule.inputs.position)}.`
            );
        }
        if (payload.kind === "reset" && payload.heights !== startHeightsHash(field.originalHeights)) {
            throw new RangeError(
                `give: the reset (entry ${seq}) goes back to heights hashed ${payload.heights}, but ` +
                    `this ground started from heights hashed ${startHeightsHash(field.originalHeights)}.`
            );
        }
        await this._host.runTo(live, stamp);
        const logged = schedule.inputs.log.record(payload, stamp, stamp, seq, player);
        if (payload.kind === "undo" || payload.kind === "redo") {
            await this.rewind(live, payload.target, stamp);
            return;
        }
        let state: ErosionStateData;
        let options: Readonly<SimulationOptions>;
        if (payload.kind === "restore") {
            ({ state, options } = ErosionSnapshot.fromArrayBuffer(payload.snapshot.slice().buffer));
        } else {
            state = {
                ...createInitialState(field.width, field.depth, field.originalHeights),
                masks: schedule.latestMasks,
                edits: [],
                events: { inForce: [], pending: [] },
                sources: { inForce: [], pending: null },
            };
            options = schedule.latestOptions;
        }
        await this._host.applyState(live, state, options, null, false);
        schedule.inputs.setHeld([]);
        this.restart(state, options, logged.seq);
    }

    /**
     * Gives several entries in order, as `give` does each, but with one rewind for each run of
     * undos and redos at one stamp (a lockstep player's stroke taken back: its edits' undos come
     * together), as `undo(count)` makes one. Every entry is checked before the first is given.
     */
    public async giveAll(live: Live, raw: readonly InputEntry[]): Promise<void> {
        if (!Array.isArray(raw)) throw new RangeError(`giveAll: entries is ${typeof raw}: it must be a list of input-log entries.`);
        const entries = checkInputEntries(raw, live.field, "giveAll: entry");
        const log = live.schedule.inputs.log;
        for (let i = 0; i < entries.length; ) {
            const first = entries[i];
            if (first.kind !== "undo" && first.kind !== "redo") {
                await this.give(live, first);
                i++;
                continue;
            }
            let end = i;
            while (
                end < entries.length &&
                (entries[end].kind === "undo" || entries[end].kind === "redo") &&
                compareStamps(entries[end].stamp, first.stamp) === 0
            )
                end++;
            if (end - i === 1) {
                await this.give(live, first);
                i++;
                continue;
            }
            if (compareStamps(first.stamp, live.schedule.inputs.position) < 0) {
                throw new RangeError(
                    `giveAll: the ${first.kind} entry's stamp (${formatStamp(first.stamp)}) has ` +
                        `passed: the run stands at ${formatStamp(live.schedule.inputs.position)}.`
                );
            }
            await this._host.runTo(live, first.stamp);
            let target = Infinity;
            for (const { seq, stamp, player, ...payload } of entries.slice(i, end)) {
                if (seq <= log.lastSeq)
                    throw new RangeError(`giveAll (seq ${seq}): the log's last entry is seq ${log.lastSeq}: entries must be given in order.`);
                log.record(payload, stamp, stamp, seq, player);
                target = Math.min(target, (payload as { target: number }).target);
            }
            await this.rewind(live, target, first.stamp);
            i = end;
        }
    }

    /**
     * Gives `entries` (a log since `snapshot`, from this run or another) from `snapshot`: the run
     * starts again there with a log of its own that numbers them as they were, and each is given
     * where it was given; it ends standing at `until` (default where the last was given). With a
     * lockstep join's `history`, the log since the run's start is recorded first (not given), so an
     * undo can take back an input given before the snapshot, from the start as the host does.
     */
    public replay(snapshot: ErosionSnapshot, entries: readonly InputEntry[], until: InputStamp | undefined, history?: InputHistory): Promise<void> {
        return this._host.queueLive("replay", async (live) => {
            // Everything checked before the run starts again: a bad entry leaves the run as it was.
            const { width, depth } = snapshot.state;
            if (width !== live.field.width || depth !== live.field.depth) {
                throw new RangeError(`replay: the snapshot is of a ${width} x ${depth} field, not this ground's ${live.field.width} x ${live.field.depth}.`);
            }
            if (!Array.isArray(entries)) throw new RangeError(`replay: entries is ${typeof entries}: it must be a list of input-log entries.`);
            checkInputEntries(entries, live.field, "replay: entry");
            const inputs = live.schedule.inputs;
            inputs.log.clear();
            inputs.setHeld([]);
            const start = history ? adoptHistory(inputs.log, history, live.field) : null;
            await this._host.applyState(live, snapshot.state, snapshot.options, null, false);
            this.restart(snapshot.state, snapshot.options, 0);
            if (start) this._start = start;
            for (const entry of entries) {
                const recorded = inputs.log.entry(entry.seq);
                if (recorded) {
                    // Given before the snapshot and still waiting then: in the history already, given again.
                    inputs.regive(recorded);
                    continue;
                }
                if (compareStamps(entry.at, inputs.position) < 0) {
                    throw new RangeError(
                        `replay: entry ${entry.seq} (${entry.kind}) was given at ${formatStamp(entry.at)}, but the replay ` +
                            `already stands at ${formatStamp(inputs.position)}: the log does not follow this snapshot.`
                    );
                }
                await this._host.runTo(live, entry.at);
                await this.give(live, entry, "replay");
            }
            const last = until ?? entries.at(-1)?.at;
            if (last) await this._host.runTo(live, last);
            this._host.adoptScheduleOptions();
        });
    }
}

/** The bytes a restore entry carries: the state put in force as a snapshot. */
export function restoreBytes(state: ErosionStateData, options: Readonly<SimulationOptions>, cellSize: number): Uint8Array {
    return new Uint8Array(new ErosionSnapshot(state, options, cellSize).toArrayBuffer());
}
