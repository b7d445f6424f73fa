/**
 * `ErosionRunner`: erodes one field (one ground, or a world of grounds). It owns the simulation (schedule and backend), the frame loop
 * inside its budget, the checkpoints and the recovery from a lost WebGPU device, and reports what
 * happens through `ErosionReports`; a reset, a restore or a rewind puts a state in force through
 * `runnerStates.ts`. It knows nothing of behaviors: `TerrainErosion` is a thin
 * Babylon behavior over it.
 */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Nullable } from "@babylonjs/core/types.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import { createInitialState, type ErosionStateData, type MaskName } from "../core/erosionState.js";
import type { GroundEdit } from "../core/groundEdits.js";
import { createLocalEvent, type LocalErosionInput } from "../core/localErosion.js";
import { worldUnits } from "./worldUnits.js";
import { resolveOptions, simulationOptions, type ErosionOptions, type SimulationOptions } from "../core/options.js";
import { ErosionSchedule } from "../core/schedule.js";
import { RunHistory } from "../core/inputLog/history.js";
import { ErosionSnapshot } from "../core/snapshot.js";
import { Checkpoints } from "./checkpoints.js";
import { RunnerMaps } from "./runnerMaps.js";
import type { Live, LiveQueue } from "./runnerLive.js";
import { DeviceRecovery } from "./deviceRecovery.js";
import { EditPreviews } from "./editPreviews.js";
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { ErosionErrorEvent, ErosionFrameStats, ErosionReports, ErosionStatus } from "./erosionEvents.js";
import type { GroundField } from "./groundField.js";
import { resolveMask } from "./masks.js";
import { WorkQueue } from "./workQueue.js";
import { RunnerFrames } from "./runnerFrames.js";
import { FrameStatsWindow } from "./frameStats.js";
import { StartupProgress } from "./startupProgress.js";
import { compareStamps, type InputStamp } from "../core/inputLog/inputEntries.js";
import { RunnerRewind } from "./runnerRewind.js";
import { RunnerStates } from "./runnerStates.js";
import { rebuildBackend, startBackend, type BackendTarget } from "./backendStart.js";
import { presenterOf } from "./backendPresenter.js";
import { WaitWatch } from "../core/waitWatch.js";
import { StallRecovery, type StallContext, type StallHost } from "./stallRecovery.js";

/** Erodes one field, frame by frame. */
export class ErosionRunner implements LiveQueue, StallHost {
    /** The erosion schedule (cycle position, options and masks in force, local events). */
    public readonly schedule: ErosionSchedule;
    /** The last cycle-boundary state. */
    public readonly checkpoints = new Checkpoints();
    /** The erosion maps: arrays and the textures materials sample. */
    public readonly maps = new RunnerMaps(this);
    /** The run's input log, undo's checkpoints and start, and the plans of undo, redo, reset, restore and give (the CPU's too). */
    public readonly history: RunHistory;
    /** Undo, redo, give and replay: the history's plans carried out in this runner's queue. */
    public readonly rewind: RunnerRewind;
    /** Resolves when the backend is ready (rejects if it could not start at all). */
    public readonly ready: Promise<void>;
    /** The backend in use, or null before it is ready, after a device loss or after `stop()`. */
    public backend: ErosionBackend | null = null;
    /** True while erosion advances every frame. */
    public running = false;
    private _options: ErosionOptions;
    // Every queued operation first finishes a batch running in pieces and applies the rows waiting: to it a batch is whole.
    private readonly _work = new WorkQueue(() => this._frames.finishPieces());
    private readonly _recovery: DeviceRecovery | null;
    private _beforeRender: Nullable<Observer<Scene>>;
    /** The rolling distribution of this run's erosion frames (`frameStats`). */
    public readonly frameStats = new FrameStatsWindow();
    /** Where the start stands (`startup`). */
    public readonly startup: StartupProgress;
    private _stopped = false;
    /** Ground edits stamped whose frame has not landed, shown on the grounds' CPU data meanwhile. */
    private readonly _previews: EditPreviews;
    /** The frame loop. */
    private readonly _frames: RunnerFrames;
    /** Every wait on the backend's device or worker, recorded while pending, each with the `stallTimeoutMs` deadline. */
    public readonly waits = new WaitWatch(() => this._options.stallTimeoutMs);
    /** What a stall does: a new backend from the last checkpoint, or a stop past `stallRetries`. */
    private readonly _stalls = new StallRecovery(this);
    /** Whether the backend that started is the WebGPU one (a rebuild makes the same kind). */
    private _gpu = false;
    /** Why erosion stopped on its own (a failed frame or start), until `start()`. */
    private _stopReason: string | null = null;
    /** Reset, restore and the putting in force of a state they and the rewinds share. */
    private readonly _states: RunnerStates;

    /**
     * Starts a backend for `field`'s grounds (WebGPU when `useGpu`, else the CPU reference) and
     * erodes from the next frame on when `options.autoStart`.
     */
    constructor(
        public readonly field: GroundField,
        options: ErosionOptions,
        useGpu: boolean,
        private readonly _reports: ErosionReports
    ) {
        this._options = options;
        this._previews = new EditPreviews(field);
        // A cycle that completes after a recovery starts the count of stalls in a row again.
        const frameReports: ErosionReports = { ..._reports, cycleCompleted: (event) => (this._stalls.cycleCompleted(), _reports.cycleCompleted(event)) };
        this._frames = new RunnerFrames(this, frameReports, this._previews);
        this.schedule = new ErosionSchedule({ width: field.width, depth: field.depth, cellSize: field.cellSize, worldScale: field.worldScale }, options);
        const scene = field.scene;
        const engine = scene.getEngine() as WebGPUEngine;
        const initial = createInitialState(field.width, field.depth, field.originalHeights);
        const start = { state: initial, options: simulationOptions(options), held: [], seq: 0 };
        this.history = new RunHistory(this.schedule, field.originalHeights, start, options.undoMemoryMB * 2 ** 20);
        this.rewind = new RunnerRewind(this);
        this.checkpoints.onPoint = (point) => this.rewind.addPoint(point);
        this._states = new RunnerStates({
            history: this.history, rewind: this.rewind, checkpoints: this.checkpoints, maps: this.maps, previews: this._previews,
            options: () => this._options,
            takeOptions: (inForce) => (this._options = inForce),
            live: (operation) => this._live(operation),
            queue: (operation, task) => this._queue(operation, task),
        });
        this.startup = new StartupProgress((event) => this._reports.startup?.(event));
        this.ready = this._startBackend(useGpu, engine, initial);
        this.ready.catch((error) => {
            this.startup.enter("failed");
            this._stopReason = `The backend could not start: ${error instanceof Error ? error.message : String(error)}`;
        });
        this._recovery = useGpu ? new DeviceRecovery(engine, this) : null;
        this._work.reset(this.ready.catch(() => undefined));
        this._beforeRender = scene.onBeforeRenderObservable.add(() => this._frames.onFrame());
    }

    /** The newest options (a change waiting for the next cycle boundary included). */
    public get options(): ErosionOptions {
        return this._options;
    }

    /** Takes `options` (resolved): simulation options from the next cycle boundary, the others at once. */
    public setOptions(options: ErosionOptions): void {
        this._options = options;
        this.schedule.setOptions(options);
        this.checkpoints.noteBoundaryOptions(this.schedule);
    }

    /** What the last frame did. */
    public get lastFrame(): ErosionFrameStats {
        return this._frames.lastFrame;
    }

    /** True while a queued operation waits or runs (frames must not start). */
    public get holdsFrames(): boolean {
        return this._work.holdsFrames;
    }

    /** True while no frame may run: from a WebGPU device loss or a stall until recovery, and stopped for stalls. */
    public get lost(): boolean {
        return (this._recovery?.lost ?? false) || this._stalls.recovering || this._stalls.halted;
    }

    /** True once stopped for good (`stop()`). */
    public get detached(): boolean {
        return this._stopped;
    }

    /** Reports an event (recovery and the behavior report through here too). */
    public report(kind: ErosionErrorEvent["kind"], message: string, error?: unknown): void {
        this.reportEvent({ kind, message, error });
    }

    /** Reports `event`; a `"stopped"` one is what `status` names until `start()`. */
    public reportEvent(event: ErosionErrorEvent): void {
        if (event.kind === "stopped") this._stopReason = event.message;
        this._reports.error(event);
    }

    /** A wait on `backend` failed with `error`: a stall is reported and recovered from (true), anything else is the caller's. */
    public stalled(error: unknown, backend: ErosionBackend | null, where: StallContext): boolean {
        return this._stalls.onError(error, backend, where);
    }

    /** Whether erosion runs, and why not when it stopped on its own. */
    public get status(): ErosionStatus {
        const stalls = this._stalls.count;
        if (this._stalls.halted) return { state: "stopped", reason: this._stalls.reason, stalls };
        if (this.lost) return { state: "recovering", reason: this._stalls.reason ?? "The WebGPU device was lost.", stalls };
        if (this._stopReason && !this.running) return { state: "stopped", reason: this._stopReason, stalls };
        return { state: !this.backend ? "starting" : this.running ? "running" : "paused", reason: null, stalls };
    }

    /** Starts (or resumes) eroding every frame; stopped for stalls, it first rebuilds the backend where the run stands. */
    public start(): void {
        this._stopReason = null;
        if (!this._stalls.retry()) this.running = true;
    }

    /** A new backend of the kind that runs, on `state` (`StallRecovery`). */
    public rebuild(state: ErosionStateData): Promise<ErosionBackend> {
        return rebuildBackend(this._gpu, this._target(), state);
    }

    private _target(): BackendTarget {
        return { engine: this.field.scene.getEngine() as WebGPUEngine, field: this.field, options: this._options, watch: this.waits };
    }

    /** Counts `work` among what `whenIdle` waits for. */
    public track(work: Promise<unknown>): void {
        this._work.track(work);
    }

    /** Resolves when every operation started so far (frames, reads, the final sync of `stop()`) is done. */
    public async whenIdle(): Promise<void> {
        await this._work.whenIdle();
        this._frames.flushRows();
    }

    /**
     * Stops for good: no more frames, observers removed, and the mesh's CPU data brought fully up to
     * date before the backend is released (asynchronously; `whenIdle()` waits for it).
     */
    public stop(): void {
        if (this._stopped) {
            return;
        }
        this._stopped = true;
        this.running = false;
        const field = this.field;
        field.scene.onBeforeRenderObservable.remove(this._beforeRender);
        this._beforeRender = null;
        this._recovery?.dispose();
        // A backend still starting sees `_stopped` and disposes itself (_startBackend).
        const backend = this.backend;
        const lost = (this._recovery?.lost ?? false) || this._stalls.recovering;
        const finalSync = this._work.queue(async () => {
            try {
                if (backend && !lost) {
                    const state = await backend.readState(this.schedule.cycle, this.schedule.batch);
                    field.writeRows(state.heights, 0, state.depth, presenterOf(backend).uploadsRows);
                }
            } finally {
                backend?.dispose();
                this.maps.dispose();
            }
        });
        this._work.reset(finalSync.catch((error) => this.report("stopped", "Could not bring the detached grounds' CPU data up to date.", error)));
        this.backend = null;
    }

    /** Advances to the `count`-th next cycle boundary now; the mesh's CPU data is up to date when it resolves. */
    public runCycles(count: number): Promise<void> {
        return this._queue("runCycles", async () => {
            const live = this._live("runCycles");
            const { schedule } = live;
            for (let done = 0; done < count; done++) {
                if (!(await this._frames.runUnbudgeted(live))) {
                    // Only a horizon ends a frame of unbounded budget before the cycle's end.
                    throw new RangeError(
                        `runCycles: the horizon (cycle ${schedule.horizon?.cycle}, batch ${schedule.horizon?.batch}) ` +
                            `stops the run before ${count - done} more cycle(s); move it on first.`
                    );
                }
            }
        });
    }

    /** Queues a local erosion event over a disc around a world position (see `TerrainErosion.erodeAt`). */
    public erodeAt(worldPosition: { x: number; y: number; z: number }, radius: number, options: LocalErosionInput): void {
        const { field, schedule } = this;
        const { column, row, cellsPerWorldUnit } = field.toGrid(worldPosition);
        if (!Number.isFinite(radius) || radius <= 0) {
            throw new RangeError(`erodeAt: radius is ${radius}: it must be a positive number of world units.`);
        }
        schedule.queueEvent(
            createLocalEvent(schedule.latestOptions, field.width, field.depth, column, row, radius * cellsPerWorldUnit, options, worldUnits(field))
        );
    }

    /** Shows a just-stamped edit on the grounds' CPU data at once, until its frame lands (`EditPreviews`). */
    public previewEdit(edit: GroundEdit): void {
        this._previews.add(edit, this.backend ? presenterOf(this.backend).uploadsRows : false);
    }

    /** Sets or clears an operator's mask from the next cycle boundary. */
    public async setMask(operator: MaskName, mask: ArrayLike<number> | BaseTexture | null): Promise<void> {
        const quantised = await resolveMask(operator, mask, this.field.width, this.field.depth);
        this.schedule.setMasks({ ...this.schedule.latestMasks, [operator]: quantised });
    }

    /** Restores the state at attach exactly (heights, cycle 0, the mesh's original vertex data). */
    public reset(): Promise<void> {
        return this._states.reset();
    }

    /** Restores a snapshot of this ground: state, position and options (the backend option stays). */
    public restore(snapshot: ErosionSnapshot): Promise<void> {
        return this._states.restore(snapshot);
    }

    /**
     * Puts `state` in force at its position with the simulation options of `options` and, when given,
     * `maps` (`RunnerStates.apply`). Call it from inside the queue (`queueLive`); `logged` (a restore)
     * records it in the input log, a rewind's own step is not logged.
     */
    public applyState(live: Live, state: ErosionStateData, options: Readonly<SimulationOptions>, maps: ErosionMaps | null, logged = true): Promise<void> {
        return this._states.apply(live, state, options, maps, logged);
    }

    /**
     * Runs `use` in the queue, after everything issued so far, with the live backend, schedule and
     * field; a batch in pieces is finished first unless `finishPieces` is false (see `dropPieces`).
     */
    public queueLive<T>(operation: string, use: (live: Live) => Promise<T>, finishPieces = true): Promise<T> {
        return this._queue(operation, () => use(this._live(operation)), finishPieces);
    }

    /** Forgets a batch in pieces and applies the rows waiting: a rewind puts an older state in force over it. */
    public dropPieces(): void {
        this._frames.dropPieces();
    }

    /**
     * Queues `task` (`WorkQueue.queue`), after any recovery under way; a stall of one of its waits is
     * recovered from (`StallRecovery`) and the operation fails with it.
     */
    private _queue<T>(operation: string, task: () => Promise<T>, finishPieces = true): Promise<T> {
        return this._work.queue(async () => {
            await this._stalls.settled();
            const backend = this.backend;
            const { cycle, batch } = this.schedule;
            try {
                return await task();
            } catch (error) {
                this._stalls.onError(error, backend, { during: operation, cycle, batch });
                throw error;
            }
        }, finishPieces);
    }

    /**
     * Runs until the schedule stands at `stamp` (the edits stamped there applied), ignoring the
     * frame budget: an undo's or a replay's fast-forward. Call it from inside the queue.
     */
    public async runTo(live: Live, stamp: InputStamp): Promise<void> {
        const { schedule } = live;
        const horizon = schedule.horizon;
        schedule.horizon = stamp;
        try {
            while (compareStamps(schedule.inputs.position, stamp) < 0 || schedule.editDue) await this._frames.runUnbudgeted(live);
        } finally {
            schedule.horizon = horizon;
        }
    }

    /** The newest options become those the schedule holds after a rewind or a replay (the runtime settings stay). */
    public adoptScheduleOptions(): void {
        this._options = resolveOptions(simulationOptions(this.schedule.latestOptions), this._options);
    }

    private async _startBackend(useGpu: boolean, engine: WebGPUEngine, initial: ErosionStateData): Promise<void> {
        const { backend, gpu } = await startBackend(
            useGpu, { ...this._target(), engine }, initial, (kind, message, error) => this.report(kind, message, error), this.startup
        );
        this._gpu = gpu;
        this._frames.startOn(gpu);
        if (this._stopped) {
            backend.dispose(); // detached while starting
            return;
        }
        this.backend = backend;
        this.startup.enter("first-batch");
        this.checkpoints.set(initial, this.schedule);
        if (this._options.autoStart) {
            this.running = true;
        }
    }

    private _live(operation: string): Live {
        if (!this.backend || this._stopped) {
            throw new Error(`TerrainErosion.${operation}(): not attached to a ground (or its backend failed to start).`);
        }
        return { backend: this.backend, schedule: this.schedule, field: this.field };
    }
}
