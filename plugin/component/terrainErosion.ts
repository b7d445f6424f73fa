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
 * bounds) up to date for those rows asynchronously, without a stall.
 */
import type { Behavior } from "@babylonjs/core/Behaviors/behavior.js";
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { Observable, type Observer } from "@babylonjs/core/Misc/observable.js";
import type { Nullable } from "@babylonjs/core/types.js";
import type { Node } from "@babylonjs/core/node.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { countersToObject, type ErosionCounters } from "../core/counters.js";
import { cloneState, createInitialState, fingerprintOf, type ErosionStateData } from "../core/erosionState.js";
import { fixedToHeights } from "../core/fixedPoint.js";
import { cloneOptions, ErosionOptionError, resolveOptions, withOptionValue, type ErosionBackendName, type ErosionOptions, type ErosionOptionsInput } from "../core/options.js";
import { findOptionSpec } from "../core/optionsTable.js";
import { expandRect, unionRect, type GridRect, type OperatorName } from "../core/patches.js";
import { ErosionSchedule, type PlannedBatch } from "../core/schedule.js";
import { ErosionSnapshot } from "../core/snapshot.js";
import { CpuErosionBackend } from "./cpuErosionBackend.js";
import type { ErosionBackend, FrameResult } from "./erosionBackend.js";
import { batchWorkUnits, FrameBudget } from "./frameBudget.js";
import { GpuErosionBackend } from "./gpuErosionBackend.js";
import { ErosionTargetError, GroundBinding, validateGround } from "./groundBinding.js";
import { encodeHeightsPng16, type HeightRange } from "../terrain/heightmapGround.js";
import { drainageDirections, type ErosionMaps } from "../core/erosionMaps.js";
import { MASKED_OPERATORS, type MaskName } from "../core/erosionState.js";
import { batchExtent } from "../core/batchParams.js";
import { createLocalEvent, type LocalErosionInput } from "../core/localErosion.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import { installInspectables } from "./inspectables.js";

/** Emitted when a batch's results have reached the mesh. */
export interface PatchErodedEvent {
    /** Cycle the batch belonged to. */
    readonly cycle: number;
    /** Position of the batch in its cycle. */
    readonly batch: number;
    /** Patch index (row-major). */
    readonly patchIndex: number;
    /** The operator, or "local" for an `erodeAt` event's batch. */
    readonly operator: OperatorName | "local";
    /** Vertices the batch may have changed. */
    readonly region: GridRect;
}

/** Emitted when a cycle's last batch has reached the mesh. */
export interface CycleCompletedEvent {
    /** Completed cycles, this one included. */
    readonly cyclesCompleted: number;
}

/** Emitted when something stops erosion or changes how it runs. */
export interface ErosionErrorEvent {
    /**
     * `"fallback"`: the WebGPU backend could not start (or the ground is too large for it) and the CPU
     * backend took over; `"deviceLost"`: the WebGPU device was lost and erosion stopped;
     * `"recovered"`: erosion resumed from the last checkpoint after the engine was restored;
     * `"rejected"`: a change (from the Inspector, say) was refused; `"stopped"`: erosion stopped.
     */
    readonly kind: "fallback" | "deviceLost" | "recovered" | "rejected" | "stopped";
    readonly message: string;
    readonly error?: unknown;
}

/** What the last frame did. */
export interface ErosionFrameStats {
    /** Batches run. */
    readonly batches: number;
    /** Estimated erosion cost, milliseconds. */
    readonly estimatedMs: number;
    /** Measured cost where available, milliseconds. */
    readonly measuredMs: number | null;
    /** How it was measured: GPU timestamp queries, GPU submit to work-done, or CPU compute time. */
    readonly measuredBy: "timestamp" | "submitted" | "cpu" | null;
    /** Main-thread time the component spent planning and recording the frame, milliseconds. */
    readonly cpuMs: number;
}

/**
 * Frames whose changed rows may still be on their way back before the component stops starting new
 * work: the CPU copy of the mesh (getHeightAtCoordinates, picking, bounds) is never more than this
 * many frames behind the eroded terrain on screen, plus the frame that reads it back.
 */
export const MAX_FRAMES_IN_FLIGHT = 2;

/** A mask as Q16 per vertex, validating every value. */
function quantiseMask(values: ArrayLike<number>, cells: number, operator: string): Int32Array {
    if (values.length !== cells) {
        throw new RangeError(`setMask("${operator}"): the mask has ${values.length} values but the ground has ${cells} vertices.`);
    }
    const out = new Int32Array(cells);
    for (let i = 0; i < cells; i++) {
        const value = values[i];
        if (!(value >= 0 && value <= 1)) {
            throw new RangeError(`setMask("${operator}"): mask[${i}] is ${value}: mask values must be numbers in [0, 1].`);
        }
        out[i] = Math.round(value * 65536);
    }
    return out;
}

/** The red channel of a texture at each vertex (nearest texel), in [0, 1]. */
async function sampleTextureMask(texture: BaseTexture, width: number, depth: number): Promise<Float64Array> {
    const size = texture.getSize();
    const pixels = await texture.readPixels();
    if (!pixels || size.width < 1 || size.height < 1) {
        throw new Error("setMask: the texture's pixels could not be read (is it loaded?).");
    }
    const scale = pixels instanceof Uint8Array || pixels instanceof Uint8ClampedArray ? 1 / 255 : 1;
    const values = new Float64Array(width * depth);
    for (let y = 0; y < depth; y++) {
        const ty = Math.round((y * (size.height - 1)) / Math.max(1, depth - 1));
        for (let x = 0; x < width; x++) {
            const tx = Math.round((x * (size.width - 1)) / Math.max(1, width - 1));
            values[y * width + x] = Math.min(1, Math.max(0, (pixels as unknown as ArrayLike<number>)[(ty * size.width + tx) * 4] * scale));
        }
    }
    return values;
}

/**
 * The whole state after everything issued so far, with the masks in force (a backend reports the
 * masks of the last batch it ran, which at a cycle boundary may precede a change).
 */
async function readCurrentState(backend: ErosionBackend, schedule: ErosionSchedule): Promise<ErosionStateData> {
    const masks = schedule.masks;
    const events = { inForce: [...schedule.events], pending: [...schedule.pendingEvents] };
    const state = await backend.readState(schedule.cycle, schedule.batch);
    state.masks = masks;
    state.events = events;
    return state;
}

/**
 * Why a ground cannot run on this WebGPU device, or null: its buffers must fit the adapter's
 * storage-buffer binding limit. Checked at attach, before any GPU work.
 */
function gpuSizeProblem(engine: WebGPUEngine, ground: GroundMesh, patchSize: number): string | null {
    const limit = engine.currentLimits?.maxStorageBufferBindingSize;
    if (!limit) {
        return null;
    }
    const internals = ground as unknown as { _subdivisionsX: number; _subdivisionsY: number };
    const width = internals._subdivisionsX + 1;
    const depth = internals._subdivisionsY + 1;
    const needs = [
        ["heights", width * depth * 4],
        ["sediment routing", width * depth * 8],
        ["vertex positions", width * depth * 12],
        ["thermal flux", (patchSize + 1) * (patchSize + 1) * 8 * 4],
    ] as const;
    for (const [what, bytes] of needs) {
        if (bytes > limit) {
            return (
                `The ${what} buffer of the ${width} x ${depth} ground "${ground.name}" needs ${bytes} bytes, more than this adapter's maxStorageBufferBindingSize of ${limit} bytes. ` +
                `Raise it when creating the engine (new WebGPUEngine(canvas, { deviceDescriptor: { requiredLimits: { maxStorageBufferBindingSize: ${bytes} } } }), up to the adapter's own limit), erode a smaller ground, or use backend: "cpu".`
            );
        }
    }
    return null;
}

/**
 * Waits until the engine really runs on a new device. Babylon 9.28 signals onContextRestoredObservable
 * before its asynchronous re-initialisation has replaced the device and buffer manager (it does not
 * await it), so buffers created at that signal would belong to the dead device.
 */
async function untilNewDevice(engine: WebGPUEngine, lostDevice: unknown): Promise<void> {
    const internals = engine as unknown as { _device?: unknown; _bufferManager?: { _device?: unknown } };
    const started = performance.now();
    while (internals._device === lostDevice || internals._bufferManager?._device !== internals._device) {
        if (engine.isDisposed) {
            throw new Error("The engine was disposed while waiting for a new WebGPU device.");
        }
        if (performance.now() - started > 30000) {
            throw new Error("The WebGPU engine did not get a new device within 30 s of the device loss.");
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
    }
}

/** Initial cost guess before a frame has been measured: milliseconds per unit of work (GPU). */
const GPU_INITIAL_MS_PER_UNIT = 2e-5;
/** Initial cost guess for the CPU backend (about 5 M steps per second). */
const CPU_INITIAL_MS_PER_UNIT = 2e-4;

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
    private _binding: GroundBinding | null = null;
    private _schedule: ErosionSchedule | null = null;
    private _backend: ErosionBackend | null = null;
    private _budget = new FrameBudget(GPU_INITIAL_MS_PER_UNIT);
    private _ready: Promise<void> = Promise.resolve();
    private _running = false;
    private _framesInFlight = 0;
    private _exclusive: Promise<unknown> = Promise.resolve();
    private _exclusiveDepth = 0;
    private _idle: Promise<unknown> = Promise.resolve();
    private _beforeRenderObserver: Nullable<Observer<Scene>> = null;
    private _disposeObserver: Nullable<Observer<Node>> = null;
    private _checkpoint: ErosionStateData | null = null;
    /** Options in force for the cycle that starts at the checkpoint. */
    private _checkpointOptions: ErosionOptions | null = null;
    private _contextLostObserver: Nullable<Observer<AbstractEngine>> = null;
    private _contextRestoredObserver: Nullable<Observer<AbstractEngine>> = null;
    private _deviceLost = false;
    private _runningBeforeLoss = false;
    private _deviceGeneration = 0;
    private _lostDevice: unknown = null;
    private _lastFrame: ErosionFrameStats = { batches: 0, estimatedMs: 0, measuredMs: null, measuredBy: null, cpuMs: 0 };
    private _disposed = false;
    private _uninstallInspectables: (() => void) | null = null;

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
        return this._schedule?.latestOptions ?? this._options;
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
        this._schedule?.setOptions(next);
        this._noteBoundaryOptions();
    }

    /** Changes one option by dotted path (e.g. `"hydraulic.inertia"`); see `setOptions`. */
    public setOption(path: string, value: unknown): void {
        const spec = findOptionSpec(path);
        if (spec && !spec.tunable && this._ground) {
            throw new ErosionOptionError(path, value, `Erosion option "${path}" cannot change while attached; detach first.`);
        }
        const next = withOptionValue(this.options, path, value);
        this._options = next;
        this._schedule?.setOptions(next);
        this._noteBoundaryOptions();
    }

    /** A change made at a cycle boundary is in force for that cycle, so the checkpoint there resumes with it. */
    private _noteBoundaryOptions(): void {
        const schedule = this._schedule;
        if (schedule && schedule.atCycleBoundary && this._checkpoint?.cycle === schedule.cycle) {
            this._checkpointOptions = cloneOptions(schedule.options);
        }
    }

    /** The backend in use (`"webgpu"` or `"cpu"`), or null before it is ready. */
    public get backend(): Exclude<ErosionBackendName, "auto"> | null {
        return this._backend?.name ?? null;
    }

    /** True when the CPU backend runs in a Web Worker. */
    public get backendInWorker(): boolean {
        return this._backend?.inWorker ?? false;
    }

    /** True while erosion advances every frame. */
    public get isRunning(): boolean {
        return this._running;
    }

    /** Completed cycles since attach or reset (as dispatched; the mesh follows within `MAX_FRAMES_IN_FLIGHT` frames). */
    public get cyclesCompleted(): number {
        return this._schedule?.cycle ?? 0;
    }

    /** Position within the current cycle, 0..1. */
    public get progress(): number {
        const schedule = this._schedule;
        return schedule && schedule.batchesPerCycle > 0 ? schedule.batch / schedule.batchesPerCycle : 0;
    }

    /** Batches per cycle with the options in force. */
    public get batchesPerCycle(): number {
        return this._schedule?.batchesPerCycle ?? 0;
    }

    /** Local erosion events (`erodeAt`) of the current cycle and those waiting for the next boundary. */
    public get localEvents(): { inForce: number; pending: number } {
        return { inForce: this._schedule?.events.length ?? 0, pending: this._schedule?.pendingEvents.length ?? 0 };
    }

    /** What the last frame did. */
    public get lastFrame(): ErosionFrameStats {
        return this._lastFrame;
    }

    /** The state at the last cycle boundary (read back asynchronously), or null before the first. */
    public get checkpoint(): Readonly<ErosionStateData> | null {
        return this._checkpoint;
    }

    /** Resolves when the backend is ready (rejects if it could not start at all). */
    public whenReady(): Promise<void> {
        return this._ready;
    }

    /** Resolves when every operation started so far (frames, reads, a detach's final sync) is done. */
    public async whenIdle(): Promise<void> {
        let previous: unknown;
        do {
            previous = this._idle;
            await this._idle.catch(() => undefined);
        } while (previous !== this._idle);
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
        this._binding = binding;
        this._schedule = new ErosionSchedule({ width: binding.width, depth: binding.depth, cellSize: binding.cellSize, worldScale: binding.worldScale }, this._options);
        this._checkpoint = null;
        const initial = createInitialState(binding.width, binding.depth, binding.originalHeights);
        this._ready = this._startBackend(useGpu, engine as WebGPUEngine, initial);
        if (useGpu) {
            this._contextLostObserver = engine.onContextLostObservable.add(() => this._onDeviceLost());
            this._contextRestoredObserver = engine.onContextRestoredObservable.add(() => this._onDeviceRestored());
        }
        this._idle = this._ready.catch(() => undefined);
        const scene = ground.getScene();
        this._beforeRenderObserver = scene.onBeforeRenderObservable.add(() => this._onFrame());
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
        if (!ground) {
            return;
        }
        this._running = false;
        ground.getScene().onBeforeRenderObservable.remove(this._beforeRenderObserver);
        const engine = ground.getScene().getEngine();
        engine.onContextLostObservable.remove(this._contextLostObserver);
        engine.onContextRestoredObservable.remove(this._contextRestoredObserver);
        this._contextLostObserver = null;
        this._contextRestoredObserver = null;
        ground.onDisposeObservable.remove(this._disposeObserver);
        this._beforeRenderObserver = null;
        this._disposeObserver = null;
        this._uninstallInspectables?.();
        this._uninstallInspectables = null;
        // A backend still starting sees the binding change and disposes itself (_startBackend).
        const backend = this._backend;
        const binding = this._binding;
        const schedule = this._schedule;
        const finalSync = this._queue(async () => {
            try {
                if (backend && binding && schedule && !ground.isDisposed() && !this._deviceLost) {
                    const state = await backend.readState(schedule.cycle, schedule.batch);
                    binding.writeRows(state.heights, 0, state.depth, backend.name === "cpu");
                }
            } finally {
                backend?.dispose();
            }
        });
        this._idle = finalSync.catch((error) => this._report("stopped", "Could not bring the detached ground's CPU data up to date.", error));
        this._backend = null;
        this._ground = null;
        this._binding = null;
        this._schedule = null;
    }

    /** Starts (or resumes) eroding every frame. */
    public start(): void {
        this._assertAttached("start");
        this._running = true;
    }

    /** Stops eroding after the frame in progress; `start()` resumes from the same batch. */
    public pause(): void {
        this._running = false;
    }

    /**
     * Advances to the `count`-th next cycle boundary now (finishing a cycle in progress counts as
     * one), for tools, baking and tests; the mesh's CPU data is up to date when it resolves.
     */
    public runCycles(count: number): Promise<void> {
        if (!Number.isInteger(count) || count < 0) {
            return Promise.reject(new RangeError(`runCycles: count is ${count}: it must be a non-negative integer.`));
        }
        return this._queue(async () => {
            const { backend, schedule, binding } = this._live("runCycles");
            for (let done = 0; done < count; done++) {
                const frame = this._planFrame(schedule, Infinity);
                const running = backend.runFrame(frame.batches, frame.changed);
                const completeCycle = this._readCheckpoint(backend, schedule);
                const result = await running;
                this._applyRows(result, binding, backend);
                this._emitBatches(frame.batches);
                await completeCycle();
            }
        });
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
        const { binding, schedule } = this._liveSchedule("erodeAt");
        const ground = binding.ground;
        const world = ground.getWorldMatrix();
        const local = Vector3.TransformCoordinates(new Vector3(worldPosition.x, worldPosition.y, worldPosition.z), world.clone().invert());
        const scale = Vector3.TransformNormal(new Vector3(1, 0, 0), world).length();
        const internals = ground as unknown as { _width: number; _height: number };
        const column = (local.x + internals._width / 2) / binding.cellSize;
        const row = (internals._height / 2 - local.z) / binding.cellSize;
        const radiusCells = radius / (scale * binding.cellSize);
        if (!Number.isFinite(radius) || radius <= 0) {
            throw new RangeError(`erodeAt: radius is ${radius}: it must be a positive number of world units.`);
        }
        schedule.queueEvent(createLocalEvent(schedule.latestOptions, binding.width, binding.depth, column, row, radiusCells, options));
    }

    /** Heights in the ground's local units (its positions' y), in its vertex order, after everything issued so far. */
    public readHeights(): Promise<Float32Array> {
        return this._readCurrentState("readHeights", (state, live) => fixedToHeights(state.heights, undefined, live.binding.cellSize));
    }

    /** The exact state's heights in fixed point (1/65536 of the ground's cell size), in the ground's vertex order. */
    public exportFixedHeights(): Promise<Int32Array> {
        return this._readCurrentState("exportFixedHeights", (state) => state.heights);
    }

    /**
     * The eroded heights as a 16-bit grayscale PNG (top row = far, +z, edge) and the height range
     * its samples map (`range`, default the heights' own minimum and maximum).
     */
    public async exportPng16(range?: HeightRange): Promise<{ png: Uint8Array; range: HeightRange }> {
        const binding = this._live("exportPng16").binding;
        return encodeHeightsPng16(await this.readHeights(), binding.width, binding.depth, range);
    }

    /**
     * The erosion maps accumulated since attach or `resetMaps()`, as arrays (both backends): water
     * (droplet visits), wear and deposition (1/65536 of the cell size), and the flow direction of every vertex from
     * the current heights as the river operator routes it (slot 0..7: +x, -x, +y, -y, then diagonals;
     * 255 where nothing is lower), and the drainage area (cells, the river operator's state).
     */
    public readMaps(): Promise<ErosionMaps & { direction: Uint8Array; drainageArea: Int32Array }> {
        return this._queue(async () => {
            const { backend, schedule } = this._live("readMaps");
            const maps = await backend.readMaps();
            const state = await backend.readState(schedule.cycle, schedule.batch);
            return { ...maps, direction: drainageDirections(state.heights, state.fillLevels, state.width, state.depth, schedule.options.tileable), drainageArea: state.drainageArea };
        });
    }

    /** Starts the erosion maps again from zero. */
    public resetMaps(): Promise<void> {
        return this._queue(async () => {
            await this._live("resetMaps").backend.resetMaps();
        });
    }

    /**
     * The maps as a texture bound to the GPU data (no readback), for materials: RGBA32F, one texel
     * per vertex (row 0 is the ground's far, +z, edge), r = droplet visits, g = wear and b =
     * deposition in the ground's local units, a = drainage direction slot (-1 where nothing is lower).
     * Written after every frame from the first call on. Null on the CPU backend, whose maps come from
     * `readMaps()`. Maps added later (drainage area) come from `getMapTexture(name)`.
     */
    public getMapsTexture(): Promise<RawTexture | null> {
        return this._queue(async () => {
            const { backend, binding } = this._live("getMapsTexture");
            if (!(backend instanceof GpuErosionBackend)) {
                return null;
            }
            return backend.enableMapsTexture(binding.ground.getScene(), () => this._schedule?.options.tileable ?? false);
        });
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
        return this._queue(async () => {
            const { backend, binding } = this._live("getMapTexture");
            return backend instanceof GpuErosionBackend ? backend.enableAreaTexture(binding.ground.getScene()) : null;
        });
    }

    /**
     * Sets (or, with null, clears) an operator's mask: a value in [0, 1] per vertex, in the ground's
     * vertex order, or a texture whose red channel is sampled at the vertices (nearest texel; row 0
     * at the far, +z, edge). 0 holds the ground out, 1 erodes at full strength; values are quantised
     * to 1/65536. Like options, it takes effect at the next cycle boundary, and it is part of the
     * state: fingerprints, snapshots and reset() carry it.
     */
    public setMask(operator: MaskName, mask: ArrayLike<number> | BaseTexture | null): Promise<void> {
        if (!(MASKED_OPERATORS as readonly string[]).includes(operator)) {
            return Promise.reject(new RangeError(`setMask: operator is ${JSON.stringify(operator)}: it must be one of ${MASKED_OPERATORS.map((name) => JSON.stringify(name)).join(", ")}.`));
        }
        const { binding, schedule } = this._liveSchedule("setMask");
        return (async () => {
            let values: ArrayLike<number> | null = null;
            if (mask && typeof (mask as BaseTexture).readPixels === "function") {
                values = await sampleTextureMask(mask as BaseTexture, binding.width, binding.depth);
            } else if (mask) {
                values = mask as ArrayLike<number>;
            }
            const quantised = values ? quantiseMask(values, binding.width * binding.depth, operator) : null;
            schedule.setMasks({ ...schedule.latestMasks, [operator]: quantised });
        })();
    }

    /** The contract fingerprint of the whole state at the last completed batch (docs/simulation.md). */
    public fingerprint(): Promise<string> {
        return this._readCurrentState("fingerprint", fingerprintOf);
    }

    /** Material counters (outflow, droplet steps...) after everything issued so far. */
    public readCounters(): Promise<ErosionCounters> {
        return this._readCurrentState("readCounters", (state) => countersToObject(state.counters));
    }

    /** Restores the state at attach exactly: heights, position (cycle 0), and the mesh's original vertex data. */
    public reset(): Promise<void> {
        return this._queue(async () => {
            const { backend, schedule, binding } = this._live("reset");
            const initial = createInitialState(binding.width, binding.depth, binding.originalHeights);
            initial.masks = schedule.latestMasks;
            await backend.writeState(initial);
            binding.restoreOriginal();
            schedule.resumeAt(0, schedule.latestOptions, schedule.latestOptions, schedule.latestMasks, schedule.latestMasks);
            schedule.setEvents([], []);
            this._checkpoint = cloneState(initial);
            this._checkpointOptions = cloneOptions(schedule.options);
        });
    }

    /** A copy of the whole state and the options in force, at the last completed batch. */
    public snapshot(): Promise<ErosionSnapshot> {
        return this._readCurrentState("snapshot", (state, { schedule, binding }) => new ErosionSnapshot(state, schedule.options, binding.cellSize));
    }

    /** Restores a snapshot of this ground: state, position and options. */
    public restore(snapshot: ErosionSnapshot): Promise<void> {
        return this._queue(async () => {
            const { backend, schedule, binding } = this._live("restore");
            const state = snapshot.state;
            if (state.width !== binding.width || state.depth !== binding.depth) {
                throw new RangeError(`restore: the snapshot is ${state.width} x ${state.depth} vertices but the ground is ${binding.width} x ${binding.depth}.`);
            }
            if (Math.abs(snapshot.cellSize - binding.cellSize) > 1e-9 * binding.cellSize) {
                throw new RangeError(`restore: the snapshot was taken on a ground with cells ${snapshot.cellSize} units apart, but this ground's are ${binding.cellSize}: its heights count 1/65536 of that cell, so it would restore at another scale. Restore it on a ground of the same size and subdivisions.`);
            }
            const options = { ...cloneOptions(snapshot.options), backend: this.options.backend };
            this._options = options;
            schedule.resumeAt(state.cycle, options, options, state.masks, state.masks);
            schedule.setEvents(state.events?.inForce ?? [], state.events?.pending ?? []);
            schedule.setPosition(state.cycle, state.batch);
            await backend.writeState(state);
            binding.writeRows(state.heights, 0, state.depth, backend.name === "cpu");
        });
    }

    /**
     * Brings the mesh's CPU vertex data, height quads, picking data and bounds fully up to date, so
     * serializers, exporters and physics see the eroded terrain.
     */
    public flush(): Promise<void> {
        return this._readCurrentState("flush", (state, { backend, binding }) => binding.writeRows(state.heights, 0, state.depth, backend.name === "cpu"));
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

    private async _startBackend(useGpu: boolean, engine: WebGPUEngine, initial: ErosionStateData): Promise<void> {
        const binding = this._binding!;
        let backend: ErosionBackend | null = null;
        if (useGpu) {
            try {
                backend = await GpuErosionBackend.create(engine, binding, initial, this._options.patchSize);
                this._budget = new FrameBudget(GPU_INITIAL_MS_PER_UNIT);
            } catch (error) {
                if (this._options.backend === "webgpu") {
                    this._report("stopped", "The WebGPU erosion backend could not start.", error);
                    throw error;
                }
                this._report("fallback", `The WebGPU erosion backend could not start (${error instanceof Error ? error.message : String(error)}); using the CPU backend.`, error);
            }
        }
        if (!backend) {
            backend = await CpuErosionBackend.create(initial, true);
            this._budget = new FrameBudget(CPU_INITIAL_MS_PER_UNIT);
        }
        if (this._binding !== binding) {
            backend.dispose(); // detached while starting
            return;
        }
        this._backend = backend;
        this._checkpoint = cloneState(initial);
        this._checkpointOptions = cloneOptions(this._schedule!.options);
        if (this._options.autoStart) {
            this._running = true;
        }
    }

    private _onFrame(): void {
        if (!this._running || !this._backend || this._deviceLost || this._exclusiveDepth > 0 || this._framesInFlight >= (this._backend.inWorker ? 1 : MAX_FRAMES_IN_FLIGHT)) {
            return;
        }
        const schedule = this._schedule!;
        const maxCycles = this.options.maxCycles;
        if (maxCycles > 0 && schedule.cycle >= maxCycles) {
            this._running = false;
            return;
        }
        const started = performance.now();
        const { batches, changed, estimatedMs, units, cycleCompleted } = this._planFrame(schedule, this.options.frameBudgetMs);
        if (maxCycles > 0 && schedule.cycle >= maxCycles) {
            this._running = false;
        }
        const backend = this._backend;
        const binding = this._binding!;
        this._framesInFlight++;
        const running = backend.runFrame(batches, changed);
        const completeCycle = cycleCompleted ? this._readCheckpoint(backend, schedule) : null;
        const frame = running
            .then(async (result) => {
                if (this._backend !== backend) return; // detached meanwhile
                if (result.measuredMs !== null) this._budget.record(units, result.measuredMs);
                this._lastFrame = { batches: batches.length, estimatedMs, measuredMs: result.measuredMs, measuredBy: result.measuredBy, cpuMs: this._lastFrame.cpuMs };
                this._applyRows(result, binding, backend);
                this._emitBatches(batches);
                if (completeCycle) {
                    await completeCycle();
                }
            })
            .catch(async (error) => {
                // A readback fails just before the device reports its loss: let the loss handler own that.
                if (backend instanceof GpuErosionBackend && (await backend.deviceLostWithin(1000))) {
                    return;
                }
                if (this._deviceLost || this._backend !== backend) {
                    return; // a detached backend is gone
                }
                this._running = false;
                this._report("stopped", "Erosion stopped: a frame failed.", error);
            })
            .finally(() => {
                this._framesInFlight--;
            });
        this._idle = Promise.all([this._idle, frame]);
        this._lastFrame = { ...this._lastFrame, cpuMs: performance.now() - started };
    }

    private _onDeviceLost(): void {
        if (this._deviceLost || !this._backend) {
            return;
        }
        this._deviceLost = true;
        this._lostDevice = (this._ground?.getScene().getEngine() as unknown as { _device?: unknown })._device ?? null;
        this._runningBeforeLoss = this._running;
        this._running = false;
        // Release the dead device's buffers now, before Babylon's restore tries to rebuild them.
        const lost = this._backend;
        this._backend = null;
        try {
            lost.dispose();
        } catch {
            // its buffers died with the device
        }
        this._report("deviceLost", `The WebGPU device was lost; erosion stopped and will resume from the checkpoint at cycle ${this._checkpoint?.cycle ?? 0} once Babylon restores the engine.`);
    }

    /** After Babylon restores the engine: a new backend resumes from the last cycle-boundary checkpoint. */
    private _onDeviceRestored(): void {
        if (!this._deviceLost) {
            return;
        }
        const binding = this._binding;
        const schedule = this._schedule;
        const checkpoint = this._checkpoint;
        const checkpointOptions = this._checkpointOptions;
        const ground = this._ground;
        if (!binding || !schedule || !checkpoint || !checkpointOptions || !ground) {
            return;
        }
        const recovery = (async () => {
            const engine = ground.getScene().getEngine() as WebGPUEngine;
            await untilNewDevice(engine, this._lostDevice);
            // Babylon 9.28 rebuilds vertex buffers before its new device exists; give the ground
            // buffers on the new device, from its (up to date) CPU data.
            binding.recreateGpuBuffers();
            this._deviceGeneration++;
            const backend = await GpuErosionBackend.create(engine, binding, checkpoint, checkpointOptions.patchSize, this._deviceGeneration);
            await backend.writeState(checkpoint);
            schedule.resumeAt(checkpoint.cycle, checkpointOptions, this._options, checkpoint.masks, schedule.latestMasks);
            // Events of the checkpoint's cycle run again; any queued since wait for the next boundary.
            const replay = checkpoint.events?.inForce ?? [];
            schedule.setEvents(replay, [...(checkpoint.events?.pending ?? []), ...schedule.pendingEvents.filter((event) => !replay.includes(event))]);
            binding.writeRows(checkpoint.heights, 0, checkpoint.depth, false);
            this._backend = backend;
            this._deviceLost = false;
            this._running = this._runningBeforeLoss;
            this._report("recovered", `Erosion resumed from the checkpoint at cycle ${checkpoint.cycle}.`);
        })().catch((error) => this._report("stopped", "Erosion could not resume after the WebGPU device was restored.", error));
        this._idle = Promise.all([this._idle, recovery]);
    }

    /**
     * Takes the next batches off the schedule: as many as the budget's estimate allows (at least one),
     * stopping at the cycle boundary, so a frame never spans two cycles and the checkpoint read
     * after it is the boundary's state.
     */
    private _planFrame(schedule: ErosionSchedule, budgetMs: number): { batches: PlannedBatch[]; changed: GridRect | null; estimatedMs: number; units: number; cycleCompleted: boolean } {
        const batches: PlannedBatch[] = [];
        let changed: GridRect | null = null;
        let estimatedMs = 0;
        let units = 0;
        for (;;) {
            const planned = schedule.planNext();
            if (planned) {
                const cost = this._budget.estimateMs(planned);
                if (batches.length > 0 && estimatedMs + cost > budgetMs) {
                    return { batches, changed, estimatedMs, units, cycleCompleted: false };
                }
                batches.push(planned);
                estimatedMs += cost;
                units += batchWorkUnits(planned);
                const rect = this._changedRect(planned);
                changed = changed ? unionRect(changed, rect) : rect;
            }
            // With no operator enabled a cycle is empty and completes at once.
            if (schedule.advance()) {
                return { batches, changed, estimatedMs, units, cycleCompleted: true };
            }
        }
    }

    /**
     * Reads the cycle-boundary state a frame just reached. Called right after that frame is issued and
     * before any later one, so the read sees exactly the boundary (backends run calls in order); the
     * options, masks and events in force there are taken now for the same reason, since the schedule
     * moves on with the next frame. The returned step notifies observers and keeps the checkpoint once
     * the frame has landed.
     */
    private _readCheckpoint(backend: ErosionBackend, schedule: ErosionSchedule): () => Promise<void> {
        const cycle = schedule.cycle;
        // The options of the cycle that starts here are already in force (pending ones applied at the boundary).
        const options = cloneOptions(schedule.options);
        const masks = schedule.masks;
        const events = { inForce: [...schedule.events], pending: [...schedule.pendingEvents] };
        const reading = backend.readState(cycle, 0);
        reading.catch(() => undefined); // a failure surfaces through the frame that awaits it
        return async () => {
            this.onCycleCompletedObservable.notifyObservers({ cyclesCompleted: cycle });
            const checkpoint = await reading;
            checkpoint.masks = masks;
            checkpoint.events = events;
            if (this._backend === backend && checkpoint.cycle >= (this._checkpoint?.cycle ?? 0)) {
                this._checkpoint = checkpoint;
                this._checkpointOptions = options;
            }
        };
    }

    /** Region a batch may change, grown by one vertex for the normals around it. */
    private _changedRect(planned: PlannedBatch): GridRect {
        const p = planned.params;
        // The extent: the batch's region and as far as its sediment was routed (whole axes where a
        // tileable river batch wraps).
        const rect = { ...batchExtent(p) };
        if (p.seam !== 0) {
            // tile_seam copies the first column and row into the last: a change at either edge shows at both.
            if (rect.x0 === 0 || rect.x1 >= p.width - 1) {
                rect.x0 = 0;
                rect.x1 = p.width;
            }
            if (rect.y0 === 0 || rect.y1 >= p.depth - 1) {
                rect.y0 = 0;
                rect.y1 = p.depth;
            }
        }
        return expandRect(rect, 1, p.width, p.depth);
    }

    private _applyRows(result: FrameResult, binding: GroundBinding, backend: ErosionBackend): void {
        if (result.rows && !binding.ground.isDisposed()) {
            binding.writeRows(result.rows, result.y0, result.y1, backend.name === "cpu");
        }
    }

    private _emitBatches(batches: readonly PlannedBatch[]): void {
        for (const planned of batches) {
            const p = planned.params;
            this.onPatchErodedObservable.notifyObservers({
                cycle: planned.cycle,
                batch: planned.batch,
                patchIndex: planned.patch.index,
                operator: planned.operator,
                region: { x0: p.regionX0, y0: p.regionY0, x1: p.regionX1, y1: p.regionY1 },
            });
        }
    }

    /** Runs `task` after everything queued before it and after in-flight frames, holding frames off meanwhile. */
    private _queue<T>(task: () => Promise<T>): Promise<T> {
        this._exclusiveDepth++;
        const waitFor = Promise.all([this._exclusive, this._idle]).catch(() => undefined);
        const run = waitFor.then(task).finally(() => {
            this._exclusiveDepth--;
        });
        this._exclusive = run.catch(() => undefined);
        this._idle = Promise.all([this._idle, this._exclusive]);
        return run;
    }

    private _liveSchedule(operation: string): { schedule: ErosionSchedule; binding: GroundBinding } {
        if (!this._schedule || !this._binding) {
            throw new Error(`TerrainErosion.${operation}(): attach it to a ground first (ground.addBehavior(erosion)).`);
        }
        return { schedule: this._schedule, binding: this._binding };
    }

    /** Runs `use` in the queue on the whole state after everything issued so far (masks and events included). */
    private _readCurrentState<T>(operation: string, use: (state: ErosionStateData, live: ReturnType<TerrainErosion["_live"]>) => T): Promise<T> {
        return this._queue(async () => {
            const live = this._live(operation);
            return use(await readCurrentState(live.backend, live.schedule), live);
        });
    }

    private _live(operation: string): { backend: ErosionBackend; schedule: ErosionSchedule; binding: GroundBinding } {
        if (!this._backend || !this._schedule || !this._binding) {
            throw new Error(`TerrainErosion.${operation}(): not attached to a ground (or its backend failed to start).`);
        }
        return { backend: this._backend, schedule: this._schedule, binding: this._binding };
    }

    private _assertAttached(operation: string): void {
        if (!this._ground) {
            throw new Error(`TerrainErosion.${operation}(): attach it to a ground first (ground.addBehavior(erosion)).`);
        }
    }

    private _report(kind: ErosionErrorEvent["kind"], message: string, error?: unknown): void {
        this.onErrorObservable.notifyObservers({ kind, message, error });
    }
}
