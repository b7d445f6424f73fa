/**
 * The decisions of the input log, as plain data: what an undo or redo rewinds to, what a reset or a
 * restore puts back, where a given entry applies and what a replay does with each entry. They are
 * made here once; the synchronous CPU simulation, a behavior's asynchronous runner, the lockstep
 * host and the replays only carry them out, so no two of them (no two peers) can read an entry in
 * two ways, and each refusal is worded once.
 */
import { createInitialState, type ErosionMasks, type ErosionStateData } from "../erosionState.js";
import type { SimulationOptions } from "../options.js";
import { compareStamps, formatStamp, startHeightsHash, type InputEntry, type InputStamp } from "./inputEntries.js";
import type { InputLog } from "./inputLog.js";
import type { RewindPoint } from "./rewindPoints.js";

/** An undo or a redo. */
export type StepKind = "undo" | "redo";

/** The kinds that act on the run as a whole (they apply where they are stamped, never held). */
export type ActKind = "reset" | "restore" | StepKind;

/** True for a reset, restore, undo or redo entry. */
export function isActKind(kind: InputEntry["kind"]): kind is ActKind {
    return kind === "reset" || kind === "restore" || kind === "undo" || kind === "redo";
}

/** An undo's or a redo's rewind: put `point` back, give `entries` again each at its `at`, run back to `here`. */
export interface RewindPlan {
    /** The point to put back (its held entries without those taken back). */
    readonly point: RewindPoint;
    /** The entries in force after it, in order: each given again (not recorded) where it was given. */
    readonly entries: readonly InputEntry[];
    /** Where the run stood: it runs back here once they are given. */
    readonly here: InputStamp;
}

/** What an undo or redo of some inputs does: the entries taken back (or given back), and the one rewind for all. */
export interface StepPlan {
    /** The inputs taken back (undo) or given back (redo), last first; empty when there was none. */
    readonly targets: readonly InputEntry[];
    /** The rewind, null when nothing was taken or given back. */
    readonly rewind: RewindPlan | null;
}

/** A reset's or a restore's: `state` and `options` in force, nothing held, and the run starts again there. */
export interface PutBackPlan {
    readonly kind: "putBack";
    /** The state to put in force (owned by the plan: nothing else holds it). */
    readonly state: ErosionStateData;
    /** Its simulation options (the runtime settings in force stay). */
    readonly options: Readonly<SimulationOptions>;
    /** The reset's or restore's seq: the run's new start (undo never reaches past it). */
    readonly seq: number;
}

/** What a logged reset, restore, undo or redo does. */
export type ActPlan = PutBackPlan | { readonly kind: "rewind"; readonly rewind: RewindPlan };

/** Where a given entry goes. */
export type GivePlan =
    /** An input: to the run's inputs at its stamp (held until then when it lies ahead). */
    | { readonly kind: "input"; readonly entry: InputEntry }
    /**
     * A reset, restore, undo or redo (or a run of undos and redos at one stamp): run to `runTo`
     * (their stamp), then act on them (`RunHistory.act`).
     */
    | { readonly kind: "act"; readonly entries: readonly InputEntry[]; readonly runTo: InputStamp };

/** What a replay does with one entry of the log since its snapshot. */
export type ReplayStep =
    /** Recorded already (a join's history: given before the snapshot and still waiting then): given again, not recorded. */
    | { readonly kind: "regive"; readonly entry: InputEntry }
    /** Given before the snapshot and still waiting then: given as it is, where the replay starts. */
    | { readonly kind: "give"; readonly entry: InputEntry }
    /** Run to where it was given (`runTo`), then give it. */
    | { readonly kind: "runThenGive"; readonly entry: InputEntry; readonly runTo: InputStamp };

/** Refuses an undo or redo `count` that is not a whole number at least 1. */
export function checkStepCount(kind: StepKind, count: number): void {
    if (!Number.isInteger(count) || count < 1) throw new RangeError(`${kind}: count is ${count}: it must be a whole number, at least 1.`);
}

/** Refuses an entry numbered at or before the log's last (`where` names the caller). */
export function checkOrder(seq: number, lastSeq: number, where: string): void {
    if (seq <= lastSeq) throw new RangeError(`${where} (seq ${seq}): the log's last entry is seq ${lastSeq}: entries must be given in order.`);
}

/**
 * Where a checked entry from another run (a peer, a replay) goes, the run standing at `position`
 * with `lastSeq` logged and started from `startHeights`: an input to the inputs at its
 * stamp; a reset, restore, undo or redo to act on once the run reaches its stamp. Refuses an entry
 * out of order, an act whose stamp has passed, and a reset to other start heights than this run's.
 */
export function planGive(entry: InputEntry, lastSeq: number, position: InputStamp, startHeights: Int32Array, where: string): GivePlan {
    checkOrder(entry.seq, lastSeq, where);
    if (!isActKind(entry.kind)) return { kind: "input", entry };
    if (compareStamps(entry.stamp, position) < 0) {
        throw new RangeError(
            `${where}: the ${entry.kind} entry's stamp (${formatStamp(entry.stamp)}) has passed: the run stands at ${formatStamp(position)}.`
        );
    }
    // Hashed only for a reset: the start heights are the whole grid.
    const startHash = entry.kind === "reset" ? startHeightsHash(startHeights) : "";
    if (entry.kind === "reset" && entry.heights !== startHash) {
        throw new RangeError(
            `${where}: the reset (entry ${entry.seq}) goes back to heights hashed ${entry.heights}, but this run started from heights hashed ${startHash}.`
        );
    }
    return { kind: "act", entries: [entry], runTo: entry.stamp };
}

/** The state a reset puts back: the start heights at cycle 0 with `masks` (those in force stay), nothing pending. */
export function resetState(width: number, depth: number, startHeights: Int32Array, masks: ErosionMasks): ErosionStateData {
    return {
        ...createInitialState(width, depth, startHeights),
        masks,
        edits: [],
        events: { inForce: [], pending: [] },
        sources: { inForce: [], pending: null },
    };
}

/**
 * What a replay that started at `startedAt` and stands at `position` does with `entry`, the next of
 * the log since its snapshot (`started`: an entry at or after `startedAt` came already). Throws a
 * `RangeError` for an entry given before where the replay stands (a log that does not follow the snapshot).
 */
export function planReplayStep(log: InputLog, entry: InputEntry, position: InputStamp, startedAt: InputStamp, started: boolean, where: string): ReplayStep {
    // Recorded already: a join's history holds it (the log starts empty otherwise, and numbers each entry once).
    const recorded = log.entry(entry.seq);
    if (recorded) return { kind: "regive", entry: recorded };
    if (!started && compareStamps(entry.at, startedAt) < 0) return { kind: "give", entry };
    if (compareStamps(entry.at, position) < 0) {
        throw new RangeError(
            `${where}: entry ${entry.seq} (${entry.kind}) was given at ${formatStamp(entry.at)}, but the replay ` +
                `already stands at ${formatStamp(position)}: the log does not follow this snapshot.`
        );
    }
    return { kind: "runThenGive", entry, runTo: entry.at };
}

/**
 * The entry a lockstep player's undo or redo makes, stamped `here` and numbered after the log's
 * last: it takes back (gives back) that player's own last input, never another's. Null when the
 * player has nothing to take back (give back).
 */
export function playerStepEntry(log: InputLog, kind: StepKind, player: string, here: InputStamp): InputEntry | null {
    const target = kind === "undo" ? log.undoableBy(player) : log.redoableBy(player);
    return target ? { kind, target: target.seq, seq: log.lastSeq + 1, at: here, stamp: here, player } : null;
}

/**
 * Splits checked entries into what is given one at a time and the runs of undos and redos at one
 * stamp (a lockstep player's stroke taken back: its edits' undos come together), which take one
 * rewind for the run, as `undo(count)` does.
 */
export function stepRuns(entries: readonly InputEntry[]): InputEntry[][] {
    const runs: InputEntry[][] = [];
    for (let i = 0; i < entries.length; ) {
        const first = entries[i];
        let end = i + 1;
        if (first.kind === "undo" || first.kind === "redo") {
            const joins = (entry: InputEntry) => (entry.kind === "undo" || entry.kind === "redo") && compareStamps(entry.stamp, first.stamp) === 0;
            while (end < entries.length && joins(entries[end])) end++;
        }
        runs.push(entries.slice(i, end));
        i = end;
    }
    return runs;
}
