/**
 * An undo or redo with nothing to take back (or give back) answers at once. Queued, it would wait
 * for the frames in flight and the rest of a batch in pieces (seconds a frame on a software
 * adapter) only to answer the same empty list: with no queued operation ahead of it (a reset, a
 * restore, a replay, a peer's entry: the only things that could change what is in force before its
 * turn), what it would find is what the log holds now. An empty answer logs nothing, so replays and
 * peers see the same log either way.
 */
import type { InputEntry } from "../core/inputLog/inputEntries.js";
import type { ErosionRunner } from "./erosionRunner.js";

/** `[]` at once when `kind` has nothing to act on and nothing is queued; null when it must queue. */
export function emptyStepAtOnce(runner: ErosionRunner, kind: "undo" | "redo", count: number): Promise<InputEntry[]> | null {
    // A lockstep player's undo is a request: the host knows what of the player's is in force, not this log.
    if (!Number.isInteger(count) || count < 1 || runner.holdsFrames || runner.schedule.inputs.forward) return null;
    const { history } = runner;
    return (kind === "undo" ? history.undoable : history.redoable) === null ? Promise.resolve([]) : null;
}
