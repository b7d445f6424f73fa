/**
 * `erosion.history`: the run's past: the input log (every input that changed the terrain, as
 * `onInputObservable` sends it), undo and redo over it, snapshots and their restore, a replay of a
 * log from a snapshot, the reset to the state at attach, and the last cycle boundary's checkpoint.
 */
import { Observable } from "@babylonjs/core/Misc/observable.js";
import type { ErosionStateData } from "../../core/erosionState.js";
import type { InputEntry, InputStamp } from "../../core/inputLog/inputEntries.js";
import type { InputHistory } from "../../core/inputLog/inputHistory.js";
import type { ErosionSnapshot } from "../../core/snapshot.js";
import { emptyStepAtOnce } from "../emptyUndo.js";
import type { UndoMemory } from "../runnerRewind.js";
import * as reads from "../runnerReads.js";
import type { FacetLink } from "./facetLink.js";

/** The input log, undo and redo, snapshots, replay and reset (`erosion.history`). */
export class HistoryFacet {
    /**
     * Fires with each entry of the input log as it is stamped: every input that changes the terrain
     * (options, masks, `erodeAt`, ground edits, water sources, reset, restore, undo, redo), in the
     * serialisable form `serializeInputLog` writes. A lockstep peer or a replay gives them back.
     */
    public readonly onInputObservable = new Observable<InputEntry>();

    /** @param _link the controller's runner and guards */
    constructor(private readonly _link: FacetLink) {}

    /** Every entry of the input log since attach, in order (see `onInputObservable`); empty when detached. */
    public get inputLog(): readonly InputEntry[] {
        return this._link.runner?.history.entries ?? [];
    }

    /**
     * The entries a replay from `snapshot` (taken of this erosion with `snapshot()`) needs: those
     * given after it, and those given before it that still waited then (`replayInputLog`, `replay`).
     */
    public inputsSince(snapshot: ErosionSnapshot): InputEntry[] {
        return this._link.live("inputsSince").history.sinceSnapshot(snapshot.logSeq, snapshot.state);
    }

    /** The input `undo()` would take back (the last in force since attach, the last reset or restore), or null. */
    public get undoable(): InputEntry | null {
        return this._link.runner?.history.undoable ?? null;
    }

    /** The input `redo()` would give back, or null. */
    public get redoable(): InputEntry | null {
        return this._link.runner?.history.redoable ?? null;
    }

    /**
     * Takes back the last `count` inputs still in force (default 1: ground edits, `erodeAt`, options,
     * mask and water-source changes, the Inspector's included): the terrain becomes exactly the run in
     * which they never happened, by putting back the newest checkpoint before them and replaying the
     * rest of the log (checkpoints within `undoMemoryMB`; from the start when none is old enough).
     * Each is logged as an entry, so a replay or a peer undoes it too. Resolves with the entries
     * taken back, last first (empty when there was none: then at once, not after the frames in
     * flight). A lockstep player (`lockstep.forwardInputs` set) sends `count` undo requests instead
     * and resolves with none: the host takes back the player's own last inputs, and its entries bring
     * the undo here through `lockstep.give`.
     */
    public undo(count = 1): Promise<InputEntry[]> {
        return this._link.withRunner("undo", (runner) => emptyStepAtOnce(runner, "undo", count) ?? runner.rewind.undo(count));
    }

    /** Gives back the last `count` inputs `undo()` took (unless an input came since); resolves with them. */
    public redo(count = 1): Promise<InputEntry[]> {
        return this._link.withRunner("redo", (runner) => emptyStepAtOnce(runner, "redo", count) ?? runner.rewind.redo(count));
    }

    /** What undo's checkpoints hold now: bytes (at most `undoMemoryMB`), checkpoints, and the bound in bytes. */
    public get undoMemory(): UndoMemory {
        return this._link.live("undoMemory").rewind.memory;
    }

    /** Restores the state at attach exactly: heights, position (cycle 0), and the mesh's original vertex data. */
    public reset(): Promise<void> {
        return this._link.withRunner("reset", (runner) => runner.reset());
    }

    /** A copy of the whole state and the options in force, at the last completed batch. */
    public snapshot(): Promise<ErosionSnapshot> {
        return this._link.withRunner("snapshot", (runner) => reads.snapshot(runner));
    }

    /** Restores a snapshot of this ground: state, position and simulation options (the runtime settings in force stay: `RUNTIME_SETTINGS`). */
    public restore(snapshot: ErosionSnapshot): Promise<void> {
        return this._link.withRunner("restore", (runner) => runner.restore(snapshot));
    }

    /**
     * Starts again from `snapshot` and gives `entries` (a log since it: `inputsSince`, or a saved
     * one) each where it was given, on this behavior's backend, ending at `until` (default where the
     * last was given). The log starts again with them; with `history` (a lockstep join's: the run's
     * start and its log up to the snapshot) it holds those first, so an undo of an input given
     * before the snapshot works here as on the host.
     */
    public replay(snapshot: ErosionSnapshot, entries: readonly InputEntry[], until?: InputStamp, history?: InputHistory): Promise<void> {
        return this._link.withRunner("replay", (runner) => runner.rewind.replay(snapshot, entries, until, history));
    }

    /** The state at the last cycle boundary (read back asynchronously), or null before the first. */
    public get checkpoint(): Readonly<ErosionStateData> | null {
        return this._link.runner?.checkpoints.state ?? null;
    }
}
