/**
 * `TerrainErosion`: a Babylon behavior that erodes a `GroundMesh` a few patches per frame.
 *
 * ```ts
 * const ground = MeshBuilder.CreateGround("ground", { width: 200, height: 200, subdivisions: 512, updatable: true }, scene);
 * const erosion = new TerrainErosion({ seed: 7, hydraulic: { brushRadius: 3 } });
 * ground.addBehavior(erosion); // starts eroding a few patches per frame
 * ```
 *
 * Each frame, inside `frameBudgetMs`, it runs the next batches of the cycle schedule, regenerates
 * the changed region's positions and normals (on the GPU with the WebGPU backend, writing the
 * ground's own vertex buffers), and brings the mesh's CPU data (vertex data, height quads, picking,
 * bounds) up to date for those rows asynchronously, without a stall. The behavior holds the options
 * and the observables and checks what it is attached to; an `ErosionRunner` does the work.
 */
import type { Behavior } from "@babylonjs/core/Behaviors/behavior.js";
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { Observable, type Observer } from "@babylonjs/core/Misc/observable.js";
import type { Node } from "@babylonjs/core/node.js";
import type { Nullable } from "@babylonjs/core/types.js";
import type { ErosionCounters } from "../core/counters.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import type { ErosionStateData, MaskName } from "../core/erosionState.js";
import type { LocalErosionInput } from "../core/localErosion.js";
import { ErosionOptionError, resolveOptions, withOptionValue, type ErosionBackendName, type ErosionOptions, type ErosionOptionsInput } from "../core/options.js";
import { findOptionSpec } from "../core/optionsTable.js";
import type { ErosionSnapshot } from "../core/snapshot.js";
import { encodeHeightsPng16, type HeightRange } from "../terrain/heightmapGround.js";
import type { CycleCompletedEvent, ErosionErrorEvent, ErosionFrameStats, PatchErodedEvent } from "./erosionEvents.js";
import { ErosionRunner } from "./erosionRunner.js";
import { gpuSizeProblem } from "./gpuLimits.js";
import { ErosionTargetError, GroundBinding, validateGround } from "./groundBinding.js";
import { installInspectables } from "./inspectables.js";
import { assertMaskName } from "./masks.js";

export { MAX_FRAMES_IN_FLIGHT } from "./erosionEvents.js";
export type { CycleCompletedEvent, ErosionErrorEvent, ErosionFrameStats, PatchErodedEvent } from "./erosionEvents.js";

const NO_FRAME: ErosionFrameStats = { batches: 0, estimatedMs: 0, measuredMs: null, measuredBy: null, cpuMs: 0 };

/** Erodes a GroundMesh in staggered patches per frame. */
export class TerrainErosion implements Behavior<GroundMesh> {
    /** Behavior name. */
    public readonly name = "TerrainErosion";
    /** Fires for each batch whose results have reached the mesh. */
    public readonly onPatchErodedObservable = new Observable<PatchErodedEvent>();
    /** Fires when a cycle's last batch has reached the mesh. */
    public readonly onCycleCompletedObservable = new Observable<CycleCompletedEvent>();
    /** Fires on a fallback to the CPU backend or anything that stops erosion. */
    public readonly onErrorObservable = new Observable<ErosionErrorEvent>();

    private _options: ErosionOptions;
    private _ground: Nullable<GroundMesh> = null;
    /** The runner while attached. */
    private _runner: ErosionRunner | null = null;
    /** The last runner, attached or not (what `whenIdle` and `lastFrame` still see after a detach). */
    private _lastRunner: ErosionRunner | null = null;
    private _ready: Promise<void> = Promise.resolve();
    private _disposeObserver: Nullable<Observer<Node>> = null;
    private _uninstallInspectables: (() => void) | null = null;
    private _disposed = false;

    /**
     * @param options erosion options merged over the defaults (`OPTION_SPECS`); validated here, so a
     * bad option throws `ErosionOptionError` before anything is attached
     */
    constructor(options: ErosionOptionsInput = {}) {
        this._options = resolveOptions(options);
    }

    /** Babylon class name. */
    public getClassName(): string {
        return "TerrainErosion";
    }

    /** Part of the Behavior contract; nothing to prepare before attach. */
    public init(): void {}

    /** The ground being eroded, or null when detached. */
    public get ground(): Nullable<GroundMesh> {
        return this._ground;
    }

    /** Behavior contract: the node this behavior is attached to. */
    public get attachedNode(): Nullable<GroundMesh> {
        return this._ground;
    }

    /** The newest options (a change waiting for the next cycle boundary included). */
    public get options(): Readonly<ErosionOptions> {
        return this._runner?.schedule.latestOptions ?? this._options;
    }

    /**
     * Changes options (merged over the current ones, validated). Simulation options take effect at
     * the next cycle boundary; `frameBudgetMs`, `maxCycles` and `autoStart` at once. `backend` is
     * fixed once attached.
     */
    public setOptions(options: ErosionOptionsInput): void {
        const next = resolveOptions(options, this.options);
        if (this._ground && next.backend !== this.options.backend) {
            throw new ErosionOptionError("backend", next.backend, `Erosion option "backend" cannot change while attached (it is ${JSON.stringify(this.options.backend)}); detach first.`);
        }
        this._options = next;
        this._runner?.setOptions(next);
    }

    /** Changes one option by dotted path (e.g. `"hydraulic.inertia"`); see `setOptions`. */
    public setOption(path: string, value: unknown): void {
        const spec = findOptionSpec(path);
        if (spec && !spec.tunable && this._ground) {
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
        return this._runner?.backend?.inWorker ?? false;
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

    /** Local erosion events (`erodeAt`) of the current cycle and those waiting for the next boundary. */
    public get localEvents(): { inForce: number; pending: number } {
        const schedule = this._runner?.schedule;
        return { inForce: schedule?.events.length ?? 0, pending: schedule?.pendingEvents.length ?? 0 };
    }

    /** What the last frame did. */
    public get lastFrame(): ErosionFrameStats {
        return this._lastRunner?.lastFrame ?? NO_FRAME;
    }

    /** The state at the last cycle boundary (read back asynchronously), or null before the first. */
    public get checkpoint(): Readonly<ErosionStateData> | null {
        return this._runner?.checkpoints.state ?? null;
    }

    /** Resolves when the backend is ready (rejects if it could not start at all). */
    public whenReady(): Promise<void> {
        return this._ready;
    }

    /** Resolves when every operation started so far (frames, reads, a detach's final sync) is done. */
    public async whenIdle(): Promise<void> {
        await this._lastRunner?.whenIdle();
    }

    /**
     * Attaches to a ground (called by `ground.addBehavior(erosion)`). Throws `ErosionTargetError`
     * for a target that cannot be eroded and `ErosionOptionError` for `backend: "webgpu"` on an
     * engine without compute shaders, before any GPU work.
     */
    public attach(ground: GroundMesh): void {
        if (this._disposed) {
            throw new Error("TerrainErosion: attach() after dispose().");
        }
        if (this._ground) {
            throw new ErosionTargetError(`This TerrainErosion is already attached to "${this._ground.name}"; detach it first.`);
        }
        validateGround(ground);
        const other = ground.behaviors.find((behavior) => (behavior as unknown) !== this && behavior.name === "TerrainErosion");
        if (other) {
            throw new ErosionTargetError(`The ground "${ground.name}" already has a TerrainErosion; a ground takes one.`);
        }
        const engine = ground.getScene().getEngine();
        const hasCompute = engine.getCaps().supportComputeShaders === true;
        const backend = this._options.backend;
        if (backend === "webgpu" && !hasCompute) {
            throw new ErosionOptionError("backend", backend, `Erosion option "backend" is "webgpu" but this engine has no compute shaders (engine.getCaps().supportComputeShaders is false); use a WebGPUEngine, or backend "cpu" or "auto".`);
        }
        let useGpu = backend === "webgpu" || (backend === "auto" && hasCompute);
        if (useGpu) {
            const problem = gpuSizeProblem(engine as WebGPUEngine, ground, this._options.patchSize);
            if (problem && backend === "webgpu") {
                throw new ErosionTargetError(problem);
            }
            if (problem) {
                useGpu = false;
                queueMicrotask(() => this._report("fallback", `${problem} Using the CPU backend.`));
            }
        }
        const binding = new GroundBinding(ground);
        this._ground = ground;
        this._runner = new ErosionRunner(binding, this._options, useGpu, {
            patchEroded: (event) => this.onPatchErodedObservable.notifyObservers(event),
            cycleCompleted: (event) => this.onCycleCompletedObservable.notifyObservers(event),
            error: (event) => this.onErrorObservable.notifyObservers(event),
        });
        this._lastRunner = this._runner;
        this._ready = this._runner.ready;
        this._disposeObserver = ground.onDisposeObservable.add(() => this.detach());
        this._uninstallInspectables = installInspectables(ground, this, (message, error) => this._report("rejected", message, error));
    }

    /**
     * Detaches: erosion stops, every GPU buffer and observer the component created is released, and
     * the eroded terrain stays on the mesh. The GPU backend brings the mesh's CPU data fully up to
     * date asynchronously first (`await erosion.whenIdle()`, or `await erosion.flush()` before
     * detaching, when you need it at once). Call `reset()` before detaching to restore the original.
     * Safe to call twice.
     */
    public detach(): void {
        const ground = this._ground;
        const runner = this._runner;
        if (!ground || !runner) {
            return;
        }
        ground.onDisposeObservable.remove(this._disposeObserver);
        this._disposeObserver = null;
        this._uninstallInspectables?.();
        this._uninstallInspectables = null;
        this._options = runner.schedule.latestOptions;
        runner.stop();
        this._runner = null;
        this._ground = null;
    }

    /** Starts (or resumes) eroding every frame. */
    public start(): void {
        this._attached("start").running = true;
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
     * Local erosion during gameplay: rains droplets over a disc of `radius` world units around
     * `worldPosition` (its x and z, in the ground's local space, so a moved, rotated or scaled ground
     * works), from the next cycle boundary, through the same patch system and frame budget. It
     * changes nothing farther from the disc than a walk can reach (maxSteps + brushRadius + 1
     * cells), is deterministic given its inputs and that cycle, and is recorded in the state, so
     * `reset()` (which clears it), `snapshot()` and `fingerprint()` stay consistent.
     * @param options droplets (default two per cell of the disc) and droplet options for this event
     */
    public erodeAt(worldPosition: { x: number; y: number; z: number }, radius: number, options: LocalErosionInput = {}): void {
        this._attached("erodeAt").erodeAt(worldPosition, radius, options);
    }

    /** Heights in the ground's local units (its positions' y), in its vertex order, after everything issued so far. */
    public readHeights(): Promise<Float32Array> {
        return this._withRunner("readHeights", (runner) => runner.readHeights());
    }

    /** The exact state's heights in fixed point (1/65536 of the ground's cell size), in the ground's vertex order. */
    public exportFixedHeights(): Promise<Int32Array> {
        return this._withRunner("exportFixedHeights", (runner) => runner.exportFixedHeights());
    }

    /**
     * The eroded heights as a 16-bit grayscale PNG (top row = far, +z, edge) and the height range
     * its samples map (`range`, default the heights' own minimum and maximum).
     */
    public exportPng16(range?: HeightRange): Promise<{ png: Uint8Array; range: HeightRange }> {
        return this._withRunner("exportPng16", async (runner) => encodeHeightsPng16(await runner.readHeights(), runner.binding.width, runner.binding.depth, range));
    }

    /**
     * The erosion maps accumulated since attach or `resetMaps()`, as arrays (both backends): water
     * (droplet visits), wear and deposition (1/65536 of the cell size), the drainage direction of
     * every vertex from the current state as the river operator routes it (slot 0..7: +x, -x, +y, -y,
     * then diagonals; 255 where nothing is lower), and the drainage area (cells, the river operator's state).
     */
    public readMaps(): Promise<ErosionMaps & { direction: Uint8Array; drainageArea: Int32Array }> {
        return this._withRunner("readMaps", (runner) => runner.readMaps());
    }

    /** Starts the erosion maps again from zero. */
    public resetMaps(): Promise<void> {
        return this._withRunner("resetMaps", (runner) => runner.resetMaps());
    }

    /**
     * The maps as a texture bound to the GPU data (no readback), for materials: RGBA32F, one texel
     * per vertex (row 0 is the ground's far, +z, edge), r = droplet visits, g = wear and b =
     * deposition in the ground's local units, a = drainage direction slot (-1 where nothing is lower).
     * Written after every frame from the first call on. Null on the CPU backend, whose maps come from
     * `readMaps()`. Maps added later (drainage area) come from `getMapTexture(name)`.
     */
    public getMapsTexture(): Promise<RawTexture | null> {
        return this._withRunner("getMapsTexture", (runner) => runner.getMapsTexture());
    }

    /**
     * A map added after `getMapsTexture()`'s layout was fixed, as a texture bound to the GPU data (no
     * readback): `"drainageArea"`, R32F, one texel per vertex (row 0 at the far, +z, edge), the river
     * operator's drainage area in cells. Written after every frame from the first call on. Null on the
     * CPU backend, whose maps come from `readMaps()`.
     */
    public getMapTexture(name: "drainageArea"): Promise<RawTexture | null> {
        if (name !== "drainageArea") {
            return Promise.reject(new RangeError(`getMapTexture: name is ${JSON.stringify(name)}: it must be "drainageArea".`));
        }
        return this._withRunner("getMapTexture", (runner) => runner.getAreaTexture());
    }

    /**
     * Sets (or, with null, clears) an operator's mask: a value in [0, 1] per vertex, in the ground's
     * vertex order, or a texture whose red channel is sampled at the vertices (nearest texel; row 0
     * at the far, +z, edge). 0 holds the ground out, 1 erodes at full strength; for `"uplift"` it is
     * the uplift map. Values are quantised to 1/65536. Like options, it takes effect at the next
     * cycle boundary, and it is part of the state: fingerprints, snapshots and reset() carry it.
     */
    public setMask(operator: MaskName, mask: ArrayLike<number> | BaseTexture | null): Promise<void> {
        try {
            assertMaskName(operator);
        } catch (error) {
            return Promise.reject(error);
        }
        return this._attached("setMask").setMask(operator, mask);
    }

    /** The contract fingerprint of the whole state at the last completed batch (docs/simulation.md). */
    public fingerprint(): Promise<string> {
        return this._withRunner("fingerprint", (runner) => runner.fingerprint());
    }

    /** Material counters (outflow, droplet steps...) after everything issued so far. */
    public readCounters(): Promise<ErosionCounters> {
        return this._withRunner("readCounters", (runner) => runner.readCounters());
    }

    /** Restores the state at attach exactly: heights, position (cycle 0), and the mesh's original vertex data. */
    public reset(): Promise<void> {
        return this._withRunner("reset", (runner) => runner.reset());
    }

    /** A copy of the whole state and the options in force, at the last completed batch. */
    public snapshot(): Promise<ErosionSnapshot> {
        return this._withRunner("snapshot", (runner) => runner.snapshot());
    }

    /** Restores a snapshot of this ground: state, position and options. */
    public restore(snapshot: ErosionSnapshot): Promise<void> {
        return this._withRunner("restore", (runner) => runner.restore(snapshot));
    }

    /**
     * Brings the mesh's CPU vertex data, height quads, picking data and bounds fully up to date, so
     * serializers, exporters and physics see the eroded terrain.
     */
    public flush(): Promise<void> {
        return this._withRunner("flush", (runner) => runner.flush());
    }

    /** Detaches (if attached) and clears every observer. Safe to call twice. */
    public dispose(): void {
        if (this._ground) {
            this._ground.removeBehavior(this as unknown as Behavior<Node>);
            this.detach();
        }
        this._disposed = true;
        this.onPatchErodedObservable.clear();
        this.onCycleCompletedObservable.clear();
        this.onErrorObservable.clear();
    }

    /** The runner, for an operation that needs the ground attached (throws otherwise). */
    private _attached(operation: string): ErosionRunner {
        if (!this._runner) {
            throw new Error(`TerrainErosion.${operation}(): attach it to a ground first (ground.addBehavior(erosion)).`);
        }
        return this._runner;
    }

    /** `use(runner)`, or a rejection saying what is missing when detached. */
    private _withRunner<T>(operation: string, use: (runner: ErosionRunner) => Promise<T>): Promise<T> {
        if (!this._runner) {
            return Promise.reject(new Error(`TerrainErosion.${operation}(): not attached to a ground (or its backend failed to start).`));
        }
        return use(this._runner);
    }

    private _report(kind: ErosionErrorEvent["kind"], message: string, error?: unknown): void {
        this.onErrorObservable.notifyObservers({ kind, message, error });
    }
}
