/**
 * Reads of a runner's whole state, each queued after everything issued so far (the frames in
 * flight and the operations before it): heights, fixed-point heights, the fingerprint, counters,
 * a snapshot, and the mesh's CPU data brought up to date.
 */
import { fixedToHeights } from "../core/fixedPoint.js";
import { fingerprintOf } from "../core/fingerprint.js";
import { countersToObject, type ErosionCounters } from "../core/counters.js";
import type { ErosionStateData } from "../core/erosionState.js";
import { ErosionSnapshot } from "../core/snapshot.js";
import type { ErosionRunner } from "./erosionRunner.js";
import type { Live } from "./runnerLive.js";
import { presenterOf } from "./backendPresenter.js";

/** Runs `use` in the queue on the whole state after everything issued so far, with the masks and events in force. */
export function readCurrentState<T>(runner: ErosionRunner, operation: string, use: (state: ErosionStateData, live: Live) => T): Promise<T> {
    return runner.queueLive(operation, async (live) => {
        // A backend reports the masks of the last batch it ran, which at a cycle boundary may precede a change.
        const masks = live.schedule.masks;
        const inputs = live.schedule.inputsOf();
        const state = await live.backend.readState(live.schedule.cycle, live.schedule.batch);
        state.masks = masks;
        Object.assign(state, inputs);
        return use(state, live);
    });
}

/** Heights in the ground's local units. */
export function readHeights(runner: ErosionRunner): Promise<Float32Array> {
    return readCurrentState(runner, "readHeights", (state, { field }) => fixedToHeights(state.heights, undefined, field.cellSize));
}

/** The exact state's heights in fixed point. */
export function exportFixedHeights(runner: ErosionRunner): Promise<Int32Array> {
    return readCurrentState(runner, "exportFixedHeights", (state) => state.heights);
}

/** The contract fingerprint of the whole state. */
export function fingerprint(runner: ErosionRunner): Promise<string> {
    return readCurrentState(runner, "fingerprint", fingerprintOf);
}

/** Material counters. */
export function readCounters(runner: ErosionRunner): Promise<ErosionCounters> {
    return readCurrentState(runner, "readCounters", (state) => countersToObject(state.counters));
}

/** A copy of the whole state and the options in force. */
export function snapshot(runner: ErosionRunner): Promise<ErosionSnapshot> {
    return readCurrentState(
        runner, "snapshot", (state, { schedule, field }) => new ErosionSnapshot(state, schedule.options, field.cellSize, runner.history.lastSeq)
    );
}

/** Brings the mesh's CPU data fully up to date. */
export function flush(runner: ErosionRunner): Promise<void> {
    return readCurrentState(runner, "flush", (state, { backend, field }) => field.writeRows(state.heights, 0, state.depth, presenterOf(backend).uploadsRows));
}
