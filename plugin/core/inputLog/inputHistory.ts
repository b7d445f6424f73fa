/**
 * What a joiner needs to undo an input given before it joined: the run's start (construction, or
 * its last reset or restore), as a snapshot, and every entry since it. A joiner records these in its
 * log without giving them (it starts from the host's state now), so its undo stacks are the host's
 * and a rewind to before its join starts from the same point the host's does.
 */
import { ErosionSnapshot } from "../snapshot.js";
import type { InputEntry } from "./inputEntries.js";
import type { InputLog } from "./inputLog.js";
import type { RewindPoint } from "./rewindPoints.js";
import { checkInputEntries } from "./entryChecks.js";
import type { InputField } from "./inputChecks.js";

/** A run's start and its log since: the history a lockstep join carries. */
export interface InputHistory {
    /** `ErosionSnapshot.toArrayBuffer()` of the run's start (its `logSeq` the reset's or restore's seq; 0 for construction). */
    readonly start: Uint8Array;
    /** The entries since the start, up to the joiner's snapshot, in order. */
    readonly entries: readonly InputEntry[];
}

/**
 * Records `history` in an empty `log` (entries checked whole, not given: the state they made is the
 * joiner's snapshot) and returns the start as the point a rewind before the join puts back.
 */
export function adoptHistory(log: InputLog, history: InputHistory, field: InputField): RewindPoint {
    if (log.entries.length > 0) throw new RangeError("The history of a join goes into an empty log.");
    let start: ErosionSnapshot;
    try {
        start = ErosionSnapshot.fromArrayBuffer((history.start as Uint8Array).slice().buffer);
    } catch (error) {
        throw new RangeError(`The join's history start cannot be read (${error instanceof Error ? error.message : String(error)}).`);
    }
    if (start.state.width !== field.width || start.state.depth !== field.depth) {
        throw new RangeError(`The join's history starts on a ${start.state.width} x ${start.state.depth} field, not this ${field.width} x ${field.depth} one.`);
    }
    if (!Array.isArray(history.entries)) throw new RangeError("The join's history entries are not a list.");
    const entries = checkInputEntries(history.entries, field, "The join's history: entry");
    log.continueFrom(start.logSeq + 1);
    for (const { seq, at, stamp, player, ...payload } of entries) {
        if (seq <= start.logSeq) throw new RangeError(`The join's history: entry ${seq} is not after its start (seq ${start.logSeq}).`);
        log.record(payload, at, stamp, seq, player);
    }
    return { state: start.state, options: start.options, held: [], seq: start.logSeq };
}
