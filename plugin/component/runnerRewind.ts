/**
 * Undo, redo, give and replay on a behavior's runner, carried out in its queue: the decisions (what
 * an undo takes back and rewinds to, what a reset or restore puts back, where an entry applies) are
 * the run's history's (`RunHistory`, the same plans the CPU reference follows), so a replay or a peer
 * that reads the undo entry does the same. This module only carries them out: put a point's state
 * back, give again the entries in force after it, each where it was given, and run back.
 */
import type { ErosionStateData } from "../core/erosionState.js";
import type { InputEntry, InputStamp } from "../core/inputLog/inputEntries.js";
import type { RewindPoint } from "../core/inputLog/rewindPoints.js";
import { checkInputEntries } from "../core/inputLog/entryChecks.js";
import type { InputHistory } from "../core/inputLog/inputHistory.js";
import type { RunHistory } from "../core/inputLog/history.js";
import { checkStepCount, stepRuns, type ActPlan, type GivePlan, type RewindPlan, type StepKind } from "../core/inputLog/historyPlans.js";
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
    /** The run's history: its log, rewind points and start, and the plans this module carries out. */
    readonly history: RunHistory;
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

/** A runner's undo, redo, give and replay: the history's plans, carried out in the runner's queue. */
export class RunnerRewind {
    constructor(private readonly _host: RewindHost) {}

    private get _history(): RunHistory {
        return this._host.history;
    }

    /** The history, its rewind points bounded by the newest `undoMemoryMB` (read when the points are, or one is added). */
    private _bounded(): RunHistory {
        this._host.history.limitBytes = this._host.options.undoMemoryMB * 2 ** 20;
        return this._host.history;
    }

    /** What the checkpoints hold now, and their bound. */
    public get memory(): UndoMemory {
        return this._bounded().memory;
    }

    /**
     * Keeps a landed cycle-boundary checkpoint as a point to rewind to: its state as it is, shared
     * with the checkpoint (a copy the backend read for them, which neither changes), since copying
     * it again cost the main thread 13-16 ms at every cycle's end at 513².
     */
    public addPoint(point: RewindPoint): void {
        this._bounded().addPoint(point, true);
    }

    /** A reset or a restore carried out: the run starts again at `state` (the entry logged as `seq`). */
    public restart(state: ErosionStateData, options: Readonly<SimulationOptions>, seq: number): void {
        this._history.restart({ state, options: simulationOptions(options), held: [], seq });
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

    private _step(kind: StepKind, count: number): Promise<InputEntry[]> {
        try {
            checkStepCount(kind, count);
        } catch (error) {
            return Promise.reject(error);
        }
        // A lockstep player asks at once (not behind the frames and checks its queue holds, which on a
        // slow page kept the request from the host for as long as the page was behind): the host takes
        // back this player's own last inputs, and its entries bring the undo here.
        const forward = this._host.schedule.inputs.forward;
        if (forward) {
            for (let k = 0; k < count; k++) forward({ kind });
            return Promise.resolve([]);
        }
        return this._host.queueLive(kind, async (live) => {
            const { targets, rewind } = this._history.step(kind, count, live.schedule.inputs.position);
            if (rewind) await this.rewind(live, rewind);
            return [...targets];
        }, false);
    }

    /**
     * Carries out a rewind (an undo's or redo's, just logged): the plan's point back in force, the
     * entries in force after it given again where they were, and the run back where it stood.
     */
    public async rewind(live: Live, { point, entries, here }: RewindPlan): Promise<void> {
        const inputs = live.schedule.inputs;
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
    public give(live: Live, raw: InputEntry, where = "give"): Promise<void> {
        return this._carryOut(live, this._history.give(raw, live.field, where), where);
    }

    private async _carryOut(live: Live, plan: GivePlan, where: string): Promise<void> {
        if (plan.kind === "input") {
            const { seq, at, stamp, player, ...payload } = plan.entry;
            live.schedule.inputs.give(payload, stamp, seq, player, undefined, at);
            return;
        }
        await this._host.runTo(live, plan.runTo);
        await this._act(live, this._history.act(plan.entries, where));
    }

    /** Carries out a logged reset's, restore's, undo's or redo's plan. */
    private async _act(live: Live, plan: ActPlan): Promise<void> {
        if (plan.kind === "rewind") return this.rewind(live, plan.rewind);
        // A reset or a restore: its state in force, nothing held, and the run starts again there.
        await this._host.applyState(live, plan.state, plan.options, null, false);
        live.schedule.inputs.setHeld([]);
        this.restart(plan.state, plan.options, plan.seq);
    }

    /**
     * Gives several entries in order, as `give` does each, but with one rewind for each run of
     * undos and redos at one stamp (`stepRuns`: a lockstep player's stroke taken back: its edits'
     * undos come together), as `undo(count)` makes one. Every entry is checked before the first is given.
     */
    public async giveAll(live: Live, raw: readonly InputEntry[]): Promise<void> {
        if (!Array.isArray(raw)) throw new RangeError(`giveAll: entries is ${typeof raw}: it must be a list of input-log entries.`);
        const history = this._history;
        for (const run of stepRuns(checkInputEntries(raw, live.field, "giveAll: entry"))) {
            if (run.length === 1) {
                await this.give(live, run[0]);
                continue;
            }
            await this._carryOut(live, history.giveRun(run, "giveAll"), "giveAll");
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
            inputs.setHeld([]);
            this._history.startReplay({ state: snapshot.state, options: simulationOptions(snapshot.options), held: [], seq: 0 }, history, live.field);
            await this._host.applyState(live, snapshot.state, snapshot.options, null, false);
            const startedAt = inputs.position;
            let started = false;
            for (const entry of entries) {
                // The plan (`planReplayStep`) is the one the CPU reference's replay follows.
                const step = this._history.replayStep(entry, startedAt, started, "replay");
                if (step.kind === "regive") inputs.regive(step.entry);
                else if (step.kind === "give") await this.give(live, step.entry, "replay");
                else {
                    started = true;
                    await this._host.runTo(live, step.runTo);
                    await this.give(live, entry, "replay");
                }
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
