/**
 * `ErosionController`: what `TerrainErosion` (one ground, a Babylon behavior) and
 * `TerrainErosionWorld` (a grid of grounds) share: the options, the observables, attach and detach
 * (`_bind`, `_unbind`, `whenReady`), running and pausing, and the erosion's position and backend.
 * The operations on the eroded field are its four facets', built with it and reaching whichever
 * runner is bound: `edits` (ground edits, water sources, masks), `history` (the input log, undo,
 * snapshots, reset), `lockstep` (a peer's side of a lockstep game) and `maps` (heights, maps,
 * textures, counters). Subclasses decide what is eroded and when (`_bind` and `_unbind`).
 *
 * "The field" below is what is eroded: the ground itself for `TerrainErosion`, the grounds stitched
 * into one grid for a world (vertex order row by row from the far, +z, edge, then column by column
 * from the -x edge, shared edge vertices once).
 */
import { Observable } from "@babylonjs/core/Misc/observable.js";
import {
    ErosionOptionError, resolveOptions, simulationOptions, withOptionValue, type ErosionBackendName, type ErosionOptions, type ErosionOptionsInput,
} from "../core/options.js";
import { findOptionSpec } from "../core/optionsTable.js";
import {
    IDLE_FRAME, type CycleCompletedEvent, type ErosionErrorEvent, type ErosionFrameStats, type ErosionStatus, type PatchErodedEvent,
} from "./erosionEvents.js";
import type { WaitingNow } from "../core/waitWatch.js";
import { ErosionRunner } from "./erosionRunner.js";
import { AttachReadiness } from "./attachReadiness.js";
import { chooseBackend } from "./backendChoice.js";
import { presenterOf } from "./backendPresenter.js";
import type { GroundDataUpdate } from "./groundBinding.js";
import type { GroundField } from "./groundField.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { FrameStatsWindow, type FrameStatsSummary } from "./frameStats.js";
import type { ErosionStartup } from "./startupProgress.js";
import * as reads from "./runnerReads.js";
import type { FacetLink } from "./facets/facetLink.js";
import { EditsFacet } from "./facets/editsFacet.js";
import { HistoryFacet } from "./facets/historyFacet.js";
import { LockstepFacet } from "./facets/lockstepFacet.js";
import { MapsFacet } from "./facets/mapsFacet.js";

/**
 * The options, observables, attach, status and facets shared by `TerrainErosion` and
 * `TerrainErosionWorld`. One class: the facets keep it small, so no base class splits it.
 */
export abstract class ErosionController {
    /** Ground edits, local erosion, water sources and masks. */
    public readonly edits: EditsFacet;
    /** The input log, undo and redo, snapshots, replay and reset. */
    public readonly history: HistoryFacet;
    /** A lockstep peer's side: forwarding inputs, giving a host's entries, the horizon, region checks. */
    public readonly lockstep: LockstepFacet;
    /** The field's heights, erosion maps, map textures and counters. */
    public readonly maps: MapsFacet;

    /** Fires for each batch whose results have reached the mesh. */
    public readonly onPatchErodedObservable = new Observable<PatchErodedEvent>();
    /** Fires when a cycle's last batch has reached the mesh. */
    public readonly onCycleCompletedObservable = new Observable<CycleCompletedEvent>();
    /** Fires on a fallback to the CPU backend or anything that stops erosion. */
    public readonly onErrorObservable = new Observable<ErosionErrorEvent>();
    /**
     * Fires once per ground whose CPU data (positions, normals, height quads, picking data, bounds)
     * a frame, `flush()`, `history.reset()` or `history.restore()` brought up to date, with the world-space box that
     * changed: physics, navigation meshes and thin-instance vegetation refresh only that.
     */
    public readonly onCpuDataUpdatedObservable = new Observable<GroundDataUpdate>();
    /**
     * Fires when erosion starts on a field (a `TerrainErosion` attached, a `TerrainErosionWorld`
     * created), before its backend is ready (`await whenReady()` for that). Add-ons that read the
     * erosion's textures (the material plugin, the water surface) bind them again from here.
     */
    public readonly onAttachedObservable = new Observable<ErosionController>();
    /**
     * Fires when erosion stops on its field (detach, dispose), after the runner let its textures and
     * buffers go: add-ons drop what they hold of them here, so nothing draws a freed texture.
     */
    public readonly onDetachedObservable = new Observable<ErosionController>();
    /**
     * Fires at each step of a start, from attach to the first batches on the mesh: a phase begun
     * (compiling kernels, starting workers, uploading, first batch, running) or a kernel compiled.
     */
    public readonly onStartupObservable = new Observable<ErosionStartup>();

    /** The options given: while bound, its runtime settings are those in force (the schedule holds the simulation options). */
    protected _options: ErosionOptions;
    /** The runner while bound. */
    protected _runner: ErosionRunner | null = null;
    /** The last runner, bound or not (what `whenIdle` and `lastFrame` still see after an unbind). */
    private _lastRunner: ErosionRunner | null = null;
    /** What `whenReady()` returns: the runner's start, or the next attach's while none is bound. */
    protected readonly _readiness = new AttachReadiness();

    /**
     * @param options erosion options merged over the defaults (`OPTION_SPECS`); validated here, so a
     * bad option throws `ErosionOptionError` before anything is attached
     */
    constructor(options: ErosionOptionsInput = {}) {
        this._options = resolveOptions(options);
        this.edits = new EditsFacet(this._linkFor("edits"));
        this.history = new HistoryFacet(this._linkFor("history"));
        this.lockstep = new LockstepFacet(this._linkFor("lockstep"));
        this.maps = new MapsFacet(this._linkFor("maps"));
    }

    /** Babylon class name. */
    public abstract getClassName(): string;

    /** The grounds eroded (one for `TerrainErosion` while attached, none detached; every tile of a world). */
    public abstract getGrounds(): GroundMesh[];

    /** Why an operation that needs the runner cannot run now. */
    protected abstract get _notLiveReason(): string;

    /** The newest options (a change waiting for the next cycle boundary included). */
    public get options(): Readonly<ErosionOptions> {
        const runner = this._runner;
        // The runtime settings are this controller's; the simulation options are the schedule's (an undo, a replay or a peer's entry changes them).
        return runner ? { ...this._options, ...runner.schedule.latestOptions } : this._options;
    }

    /**
     * Changes options (merged over the current ones, validated). Simulation options take effect at
     * the next cycle boundary; `frameBudgetMs`, `maxCycles` and `autoStart` at once. `backend` is
     * fixed once attached.
     */
    public setOptions(options: ErosionOptionsInput): void {
        const next = resolveOptions(options, this.options);
        if (this._runner && next.backend !== this.options.backend) {
            throw new ErosionOptionError(
                "backend", next.backend, `Erosion option "backend" cannot change while attached (it is ${JSON.stringify(this.options.backend)}); detach first.`
            );
        }
        this._options = next;
        this._runner?.setOptions(next);
    }

    /** Changes one option by dotted path (e.g. `"hydraulic.inertia"`); see `setOptions`. */
    public setOption(path: string, value: unknown): void {
        const spec = findOptionSpec(path);
        if (spec && !spec.tunable && this._runner) {
            throw new ErosionOptionError(path, value, `Erosion option "${path}" cannot change while attached; detach first.`);
        }
        const next = withOptionValue(this.options, path, value);
        this._options = next;
        this._runner?.setOptions(next);
    }

    /** The backend in use (`"webgpu"` or `"cpu"`), or null before it is ready. */
    public get backend(): Exclude<ErosionBackendName, "auto"> | null {
        return this._runner?.backend?.name ?? null;
    }

    /** True when the CPU backend runs in a Web Worker. */
    public get backendInWorker(): boolean {
        const backend = this._runner?.backend;
        return backend ? (presenterOf(backend).describe()?.inWorker ?? false) : false;
    }

    /**
     * The CPU backend's workers (with its pool's helpers, `cpuWorkers`), whether they share memory (an
     * isolated page, Node), and whether its kernels run on WebAssembly (else TypeScript: same terrain,
     * slower); null on the WebGPU backend or before it is ready.
     */
    public get cpuPool(): { readonly workers: number; readonly sharedMemory: boolean; readonly webAssembly: boolean } | null {
        const backend = this._runner?.backend;
        const pool = backend ? presenterOf(backend).describe() : null;
        return pool ? { workers: pool.workers, sharedMemory: pool.sharedMemory, webAssembly: pool.webAssembly } : null;
    }

    /**
     * Whether erosion runs, and why not when it stopped on its own: `"recovering"` after a device
     * loss or a stall, `"stopped"` after more stalls in a row than `stallRetries` (reads answer from
     * the last checkpoint), a failed frame or a backend that could not start, with the reason.
     */
    public get status(): ErosionStatus {
        return this._runner?.status ?? { state: "detached", reason: null, stalls: 0 };
    }

    /**
     * The waits on the device or a worker not settled yet (readbacks, the GPU's submitted work,
     * worker replies, kernel compiles), oldest first, with how long each has waited: what a frame
     * that does not settle is waiting for. Each fails as a stall after `stallTimeoutMs`.
     */
    public get pendingWaits(): readonly WaitingNow[] {
        return this._runner?.waits.pending ?? [];
    }

    /** True while erosion advances every frame. */
    public get isRunning(): boolean {
        return this._runner?.running ?? false;
    }

    /** Completed cycles since attach or reset (as dispatched; the mesh follows within `MAX_FRAMES_IN_FLIGHT` frames). */
    public get cyclesCompleted(): number {
        return this._runner?.schedule.cycle ?? 0;
    }

    /** Position within the current cycle, 0..1. */
    public get progress(): number {
        const schedule = this._runner?.schedule;
        return schedule && schedule.batchesPerCycle > 0 ? schedule.batch / schedule.batchesPerCycle : 0;
    }

    /** Batches per cycle with the options in force. */
    public get batchesPerCycle(): number {
        return this._runner?.schedule.batchesPerCycle ?? 0;
    }

    /** Local erosion events (`edits.erodeAt`) of the current cycle and those waiting for the next boundary. */
    public get localEvents(): { inForce: number; pending: number } {
        const schedule = this._runner?.schedule;
        return { inForce: schedule?.events.length ?? 0, pending: schedule?.pendingEvents.length ?? 0 };
    }

    /** What the last frame did. */
    public get lastFrame(): ErosionFrameStats {
        return this._lastRunner?.lastFrame ?? IDLE_FRAME;
    }

    /** Where the start stands (the last attach's): its phase, kernels compiled, and each phase's time since the attach; null before any attach. */
    public get startup(): ErosionStartup | null {
        return this._lastRunner?.startup.current ?? null;
    }

    /**
     * The erosion time and main-thread time of the last erosion frames (up to 240: about 4 s at 60
     * frames a second): median, 95th percentile and maximum, milliseconds. A frame that pays for a
     * whole-field batch shows as a maximum far above the median.
     */
    public get frameStats(): FrameStatsSummary {
        return this._lastRunner?.frameStats.summary ?? new FrameStatsWindow().summary;
    }


    /**
     * Resolves when the backend is ready. Before the attach (Babylon defers `addBehavior` while the
     * scene is loading, e.g. a PBR material's textures) and after a detach, it waits for the next
     * attach. Rejects with the reason if the attach fails (asked before or after it, until an
     * attach succeeds), the backend could not start at all, or the erosion is disposed first.
     */
    public whenReady(): Promise<void> {
        return this._readiness.ready;
    }

    /** True while erosion runs on a field (a `TerrainErosion` attached, a `TerrainErosionWorld` not disposed). */
    public get isAttached(): boolean {
        return this._runner !== null;
    }

    /** Resolves when every operation started so far (frames, reads, a detach's final sync) is done. */
    public async whenIdle(): Promise<void> {
        await this._lastRunner?.whenIdle();
    }

    /** Starts (or resumes) eroding every frame; stopped after stalls, it first rebuilds the backend where the run stands. */
    public start(): void {
        this._live("start").start();
    }

    /** Stops eroding after the frame in progress; `start()` resumes from the same batch. */
    public pause(): void {
        if (this._runner) this._runner.running = false;
    }

    /**
     * Advances to the `count`-th next cycle boundary now (finishing a cycle in progress counts as
     * one), for tools, baking and tests; the mesh's CPU data is up to date when it resolves.
     */
    public runCycles(count: number): Promise<void> {
        if (!Number.isInteger(count) || count < 0) {
            return Promise.reject(new RangeError(`runCycles: count is ${count}: it must be a non-negative integer.`));
        }
        return this._withRunner("runCycles", (runner) => runner.runCycles(count));
    }

    /**
     * Brings the mesh's CPU vertex data, height quads, picking data and bounds fully up to date, so
     * serializers, exporters and physics see the eroded terrain.
     */
    public flush(): Promise<void> {
        return this._withRunner("flush", (runner) => reads.flush(runner));
    }

    /** The contract fingerprint of the whole state at the last completed batch (docs/simulation.md). */
    public fingerprint(): Promise<string> {
        return this._withRunner("fingerprint", (runner) => reads.fingerprint(runner));
    }

    /**
     * Starts a runner on `field` with the backend the options ask for: throws `ErosionOptionError`
     * for `backend: "webgpu"` on an engine without compute shaders and `ErosionTargetError` for a
     * field too large for it, before any GPU work (`"auto"` falls back to the CPU backend instead).
     */
    protected _bind(field: GroundField): ErosionRunner {
        const { useGpu, fallback } = chooseBackend(field, this._options);
        if (fallback) queueMicrotask(() => this._report("fallback", fallback));
        field.onDataUpdated = (update) => this.onCpuDataUpdatedObservable.notifyObservers(update);
        const runner = new ErosionRunner(field, this._options, useGpu, {
            patchEroded: (event) => this.onPatchErodedObservable.notifyObservers(event),
            cycleCompleted: (event) => this.onCycleCompletedObservable.notifyObservers(event),
            error: (event) => this.onErrorObservable.notifyObservers(event),
            startup: (event) => this.onStartupObservable.notifyObservers(event),
        });
        runner.history.onEntry((entry) => this.history.onInputObservable.notifyObservers(entry));
        this._runner = runner;
        this._lastRunner = runner;
        this._readiness.attached(runner.ready);
        this.onAttachedObservable.notifyObservers(this);
        return runner;
    }

    /** Stops the runner (erosion stops; the field's CPU data is brought up to date asynchronously). */
    protected _unbind(): void {
        const runner = this._runner;
        if (!runner) {
            return;
        }
        this._options = { ...this._options, ...simulationOptions(runner.schedule.latestOptions) };
        runner.stop();
        this._runner = null;
        this._readiness.detached();
        this.onDetachedObservable.notifyObservers(this);
    }

    /** Clears every observer. */
    protected _clearObservers(): void {
        this.onPatchErodedObservable.clear();
        this.onCycleCompletedObservable.clear();
        this.onErrorObservable.clear();
        this.onCpuDataUpdatedObservable.clear();
        this.onAttachedObservable.clear();
        this.onDetachedObservable.clear();
        this.history.onInputObservable.clear();
        this.lockstep.onRegionsPartedObservable.clear();
        this.onStartupObservable.clear();
    }

    /** The runner, for an operation that needs it (throws otherwise). */
    protected _live(operation: string): ErosionRunner {
        if (!this._runner) {
            throw new Error(`${this.getClassName()}.${operation}(): ${this._notLiveReason}`);
        }
        return this._runner;
    }

    /** `use(runner)`, or a rejection saying what is missing when detached. */
    protected _withRunner<T>(operation: string, use: (runner: ErosionRunner) => Promise<T>): Promise<T> {
        if (!this._runner) {
            return Promise.reject(new Error(`${this.getClassName()}.${operation}(): ${this._notLiveReason}`));
        }
        return use(this._runner);
    }

    /** A facet's link: this controller's runner, with its operations named `facet.operation`. */
    private _linkFor(facet: string): FacetLink {
        // Getters, not copies: the runner changes with each attach and detach, the facets stay.
        const controller = this;
        return {
            get runner() {
                return controller._runner;
            },
            live: (operation) => this._live(`${facet}.${operation}`),
            withRunner: (operation, use) => this._withRunner(`${facet}.${operation}`, use),
        };
    }

    protected _report(kind: ErosionErrorEvent["kind"], message: string, error?: unknown): void {
        this.onErrorObservable.notifyObservers({ kind, message, error });
    }
}
