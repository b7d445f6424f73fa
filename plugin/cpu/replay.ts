/**
 * Replay: a snapshot and the log since it give the live run's state at every stamp, on the CPU
 * reference in Node, a worker or a page. Each entry is given again where it was given (its `at`),
 * in order, so the schedule does exactly what it did live.
 */
import { CpuErosionSimulation } from "./cpuSimulation.js";
import type { ErosionSnapshot } from "../core/snapshot.js";
import type { InputEntry, InputStamp } from "../core/inputLog/inputEntries.js";
import { planReplayStep } from "../core/inputLog/historyPlans.js";
import { checkInputEntries } from "../core/inputLog/entryChecks.js";
import type { InputHistory } from "../core/inputLog/inputHistory.js";

/** How far to replay, and what to watch on the way. */
export interface ReplayOptions {
    /** Stop here (default: where the last entry was given). */
    readonly until?: InputStamp;
    /** The run's start heights (fixed point), for a log with a reset; default the snapshot's. */
    readonly startHeights?: Int32Array;
    /** Called where each entry is given, just before it is (the simulation stands at its `at`). */
    readonly onEntry?: (entry: InputEntry, simulation: CpuErosionSimulation) => void;
    /** A lockstep join's history (`LockstepJoin.history`): recorded first, so an undo can reach inputs before the snapshot. */
    readonly history?: InputHistory;
}

/**
 * Replays `entries` (a log since `snapshot`, in order: `InputLog.sinceSnapshot`) from `snapshot` on
 * a new CPU simulation and returns it, standing at `until`. Every entry is checked before the replay
 * starts (`checkInputEntry`: a bad one is refused, naming its seq and field). Throws a `RangeError`
 * naming the entry when one was given before where the replay stands (a log that does not follow
 * the snapshot).
 */
export function replayInputLog(snapshot: ErosionSnapshot, entries: readonly InputEntry[], options: ReplayOptions = {}): CpuErosionSimulation {
    // Every entry checked before the replay starts (each again as it is given).
    checkInputEntries(entries, { width: snapshot.state.width, depth: snapshot.state.depth }, "Replay: entry");
    const simulation = CpuErosionSimulation.fromSnapshot(snapshot, options.startHeights, options.history);
    const startedAt = simulation.stamp;
    let started = false;
    for (const entry of entries) {
        // The plan (`planReplayStep`) is the one a behavior's replay follows: they cannot read a log in two ways.
        const step = planReplayStep(simulation.log, entry, simulation.stamp, startedAt, started, "Replay");
        if (step.kind === "regive") simulation.schedule.inputs.regive(step.entry);
        else if (step.kind === "give") simulation.give(step.entry);
        else {
            started = true;
            simulation.runUntil(step.runTo);
            options.onEntry?.(entry, simulation);
            simulation.give(entry);
        }
    }
    const last = entries.at(-1);
    const until = options.until ?? last?.at;
    if (until) simulation.runUntil(until);
    return simulation;
}
