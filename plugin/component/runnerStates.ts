/**
 * How a runner puts a whole state in force: a reset (the state at attach), a restore (a snapshot of
 * this ground) and the step every rewind, stall recovery and world load ends with (`apply`). The
 * runner keeps its queue, frames and status; this module is what changes the backend's state, the
 * schedule's position and inputs, and the grounds' CPU data together, so they never part.
 */
import type { ErosionMaps } from "../core/erosionMaps.js";
import type { ErosionStateData } from "../core/erosionState.js";
import type { RunHistory } from "../core/inputLog/history.js";
import { resolveOptions, simulationOptions, type ErosionOptions, type SimulationOptions } from "../core/options.js";
import type { ErosionSchedule } from "../core/schedule.js";
import type { ErosionSnapshot } from "../core/snapshot.js";
import { presenterOf } from "./backendPresenter.js";
import type { Checkpoints } from "./checkpoints.js";
import type { EditPreviews } from "./editPreviews.js";
import type { Live } from "./runnerLive.js";
import type { RunnerMaps } from "./runnerMaps.js";
import { restoreBytes, type RunnerRewind } from "./runnerRewind.js";

/** What putting a state in force needs of the runner: its parts, and the few private steps it lends (its queue, its live parts, its options). */
export interface StatesHost {
    /** The run's history: a reset and a restore are logged there, and it says what they put back. */
    readonly history: RunHistory;
    /** Starts the run's rewinds again from the state put in force. */
    readonly rewind: RunnerRewind;
    /** The last cycle-boundary state (a reset's is the initial state). */
    readonly checkpoints: Checkpoints;
    /** The erosion maps, read again from the state put in force. */
    readonly maps: RunnerMaps;
    /** Ground edits shown on the CPU data until their frame lands: a state put in force drops them. */
    readonly previews: EditPreviews;
    /** The newest options (their runtime settings stay over a state put in force). */
    options(): ErosionOptions;
    /** Makes `options` the newest options (the simulation's of the state put in force, the runtime settings kept). */
    takeOptions(options: ErosionOptions): void;
    /** The live backend, schedule and field, or a throw naming `operation` when not attached. */
    live(operation: string): Live;
    /** Queues `task` after everything issued so far (`ErosionRunner.queueLive` without the live parts). */
    queue<T>(operation: string, task: () => Promise<T>): Promise<T>;
}

/** A runner's reset, restore and the putting in force of a state they and its rewinds share. */
export class RunnerStates {
    constructor(private readonly _host: StatesHost) {}

    /** Restores the state at attach exactly (heights, cycle 0, the mesh's original vertex data). */
    public reset(): Promise<void> {
        const host = this._host;
        return host.queue("reset", async () => {
            const { backend, schedule, field } = host.live("reset");
            refuseForLockstepPlayer(schedule, "reset");
            // The history logs it and says what it puts back (`resetState`); this reset also puts the meshes' vertex data back.
            const { state: initial, seq } = host.history.reset(schedule.inputs.position);
            schedule.inputs.setHeld([]);
            await backend.writeState(initial);
            field.restoreOriginal();
            await host.maps.refresh(host.live("reset"));
            schedule.resumeAt(0, schedule.latestOptions, schedule.latestOptions, schedule.latestMasks, schedule.latestMasks);
            schedule.setEvents([], []);
            schedule.setEdits([]);
            host.previews.clear();
            schedule.setSourceState([], null);
            host.checkpoints.set(initial, schedule);
            host.rewind.restart(initial, schedule.latestOptions, seq);
        });
    }

    /** Restores a snapshot of this ground: state, position and options (the backend option stays). */
    public restore(snapshot: ErosionSnapshot): Promise<void> {
        const host = this._host;
        return host.queue("restore", async () => {
            const live = host.live("restore");
            refuseForLockstepPlayer(live.schedule, "restore");
            const { state } = snapshot;
            const { field } = live;
            if (state.width !== field.width || state.depth !== field.depth) {
                throw new RangeError(`restore: the snapshot is ${state.width} x ${state.depth} vertices but the ground is ${field.width} x ${field.depth}.`);
            }
            if (Math.abs(snapshot.cellSize - field.cellSize) > 1e-9 * field.cellSize) {
                throw new RangeError(
                    `restore: the snapshot was taken on a ground with cells ${snapshot.cellSize} units apart, but this ground's are ${field.cellSize}: its ` +
                        `heights count 1/65536 of that cell, so it would restore at another scale. Restore it on a ground of the same size and subdivisions.`
                );
            }
            await this.apply(live, state, snapshot.options, null);
        });
    }

    /**
     * Puts `state` in force at its position, with the simulation options of `options` (the
     * runtime settings in force stay: `RUNTIME_SETTINGS`) and, when
     * given, `maps`: the backend's state, the schedule (position, options, masks, events) and every
     * ground's CPU data. Call it from inside the queue (`queueLive`). `logged` (a restore) records it
     * in the input log and starts the run again there; a rewind's own step is not logged.
     */
    public async apply(live: Live, state: ErosionStateData, options: Readonly<SimulationOptions>, maps: ErosionMaps | null, logged = true): Promise<void> {
        const host = this._host;
        const { backend, schedule, field } = live;
        if (logged) {
            // A restore: logged with its state (read back first by the history: a state that does not fit is refused whole), and
            // the run starts again there; `state` itself is put in force (the plan's is the same, read back from its bytes).
            const { seq } = host.history.restore(restoreBytes(state, options, field.cellSize), field, schedule.inputs.position);
            schedule.inputs.setHeld([]);
            host.rewind.restart(state, options, seq);
        }
        const inForce = resolveOptions(simulationOptions(options), host.options());
        host.takeOptions(inForce);
        schedule.resumeAtState(state, inForce);
        host.previews.clear();
        await backend.writeState(state);
        if (maps) {
            await backend.writeMaps(maps);
        }
        field.writeRows(state.heights, 0, state.depth, presenterOf(backend).uploadsRows);
        await host.maps.refresh(live);
    }
}

/** A lockstep player's reset or restore would part it from its host: the shared game's are the host's to make. */
function refuseForLockstepPlayer(schedule: ErosionSchedule, kind: "reset" | "restore"): void {
    if (schedule.inputs.forward) throw new RangeError(`A ${kind} is the lockstep host's to make: a player (forwardInputs set) cannot ${kind} the shared game.`);
}
