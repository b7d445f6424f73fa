/**
 * `ErosionController`: what `TerrainErosion` (one ground, a Babylon behavior) and
 * `TerrainErosionWorld` (a grid of grounds) share: the options, the observables, the erosion's
 * position, and every operation on the eroded field, each handed to the `ErosionRunner` that does
 * the work. Subclasses decide what is eroded and when (`_bind` and `_unbind`).
 *
 * "The field" below is what is eroded: the ground itself for `TerrainErosion`, the grounds stitched
 * into one grid for a world (vertex order row by row from the far, +z, edge, then column by column
 * from the -x edge, shared edge vertices once).
 */
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import { Observable } from "@babylonjs/core/Misc/observable.js";
import type { ErosionCounters } from "../core/counters.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import type { ErosionStateData, MaskName } from "../core/erosionState.js";
import type { LocalErosionInput } from "../core/localErosion.js";
import { ErosionOptionError, resolveOptions, withOptionValue, type ErosionBackendName, type ErosionOptions, type ErosionOptionsInput } from "../core/options.js";
import { findOptionSpec } from "../core/optionsTable.js";
import type { ErosionSnapshot } from "../core/snapshot.js";
import { encodeHeightsPng16, type HeightRange } from "../terrain/heightmapGround.js";
import { IDLE_FRAME, type CycleCompletedEvent, type ErosionErrorEvent, type ErosionFrameStats, type PatchErodedEvent } from "./erosionEvents.js";
import { ErosionRunner } from "./erosionRunner.js";
import { AttachReadiness } from "./attachReadiness.js";
import { chooseBackend } from "./backendChoice.js";
import type { GroundDataUpdate } from "./groundBinding.js";
import type { GroundField } from "./groundField.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { assertMaskName } from "./masks.js";
import { addWaterSourceAt, removeWaterSource, type WaterSourceHandle } from "./waterSources.js";
import type { WaterMaps } from "../core/waterMaps.js";


/** The options, observables and operations shared by `TerrainErosion` and `TerrainErosionWorld`. */
export abstract class ErosionController {
    /** Fires for each batch whose results have reached the mesh. */
    public readonly onPatchErodedObservable = new Observable<PatchErodedEvent>();
    /** Fires when a cycle's last batch has reached the mesh. */
    public readonly onCycleCompletedObservable = new Observable<CycleCompletedEvent>();
    /** Fires on a fallback to the CPU backend or anything that stops erosion. */
    public readonly onErrorObservable = new Observable<ErosionErrorEvent>();
    /**
     * Fires once per ground whose CPU data (positions, normals, height quads, picking data, bounds)
     * a frame, `flush()`, `reset()` or `restore()` brought up to date, with the world-space box that
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
    }

    /** Babylon class name. */
    public abstract getClassName(): string;

    /** The grounds eroded (one for `TerrainErosion` while attached, none detached; every tile of a world). */
    public abstract getGrounds(): GroundMesh[];

    /**
     * Where world positions fall in the field's vertex grid (for materials that sample the maps):
     * column = `column` · (x, y, z, 1) and row = `row` · (x, y, z, 1), fractional, from the field's
     * first vertex; and the field's size in vertices. Follows the grounds' current transform.
     */
    public getFieldGridTransform(): { column: [number, number, number, number]; row: [number, number, number, number]; width: number; depth: number } {
        const field = this._live("getFieldGridTransform").field;
        return { ...field.gridTransform(), width: field.width, depth: field.depth };
    }

    /** The distance between neighbouring vertices in the grounds' local units (0 when nothing is bound). */
    public get fieldCellSize(): number {
        return this._runner?.field.cellSize ?? 0;
    }

    /** Why an operation that needs the runner cannot run now. */
    protected abstract get _notLiveReason(): string;

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
        if (this._runner && next.backend !== this.options.backend) {
            throw new ErosionOptionError("backend", next.backend, `Erosion option "backend" cannot change while attached (it is ${JSON.stringify(this.options.backend)}); detach first.`);
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
        return this._runner?.backend?.inWorker ?? false;
    }

    /**
     * The CPU backend's workers (with its pool's helpers, `cpuWorkers`), whether they share memory (an
     * isolated page, Node), and whether its kernels run on WebAssembly (else TypeScript: same terrain,
     * slower); null on the WebGPU backend or before it is ready.
     */
    public get cpuPool(): { readonly workers: number; readonly sharedMemory: boolean; readonly webAssembly: boolean } | null {
        const backend = this._runner?.backend;
        return backend?.name === "cpu" ? { workers: backend.workers, sharedMemory: backend.sharedMemory, webAssembly: backend.webAssembly } : null;
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
        return this._lastRunner?.lastFrame ?? IDLE_FRAME;
    }

    /** The state at the last cycle boundary (read back asynchronously), or null before the first. */
    public get checkpoint(): Readonly<ErosionStateData> | null {
        return this._runner?.checkpoints.state ?? null;
    }

    /**
     * Resolves when the backend is ready. Before the attach (Babylon defers `addBehavior` while the
     * scene is loading, e.g. a PBR material's textures) and after a detach, it waits for the next
     * attach. Rejects with the reason if the attach fails, the backend could not start at all, or
     * the erosion is disposed first.
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

    /** Starts (or resumes) eroding every frame. */
    public start(): void {
        this._live("start").running = true;
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
        this._live("erodeAt").erodeAt(worldPosition, radius, options);
    }

    /**
     * A spring, or a storm over one valley: adds `rate` cubic world units of water every water step
     * (`water.enabled`), spread over the vertices within `radius` world units of `worldPosition`
     * (its x and z, in the ground's local space), from the next cycle boundary until the handle's
     * `remove()`. Recorded in the state (fingerprint, snapshots; `reset()` clears it). At most 256.
     */
    public addWaterSource(worldPosition: { x: number; y: number; z: number }, radius: number, rate: number): WaterSourceHandle {
        const { field, schedule } = this._live("addWaterSource");
        const id = addWaterSourceAt(field, schedule, worldPosition, radius, rate);
        return { id, remove: () => removeWaterSource(schedule, id) };
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
        return this._withRunner("exportPng16", async (runner) => encodeHeightsPng16(await runner.readHeights(), runner.field.width, runner.field.depth, range));
    }

    /**
     * The erosion maps accumulated since attach or `resetMaps()`, as arrays (both backends): water
     * (droplet visits), wear and deposition (1/65536 of the cell size), the drainage direction of
     * every vertex from the current state as the river operator routes it (slot 0..7: +x, -x, +y, -y,
     * then diagonals; 255 where nothing is lower), the drainage area (cells, the river operator's
     * state), and the shallow water's depth (local units) and velocity (two per vertex, along local x
     * and z, local units a water step).
     */
    public readMaps(): Promise<ErosionMaps & { direction: Uint8Array; drainageArea: Int32Array } & WaterMaps> {
        return this._withRunner("readMaps", (runner) => runner.maps.readMaps());
    }

    /** Starts the erosion maps again from zero. */
    public resetMaps(): Promise<void> {
        return this._withRunner("resetMaps", (runner) => runner.maps.resetMaps());
    }

    /**
     * The maps as a texture, for materials (`TerrainErosionMaterialPlugin`): RGBA32F, one texel per
     * field vertex (row 0 is the far, +z, edge), r = droplet visits, g = wear and b = deposition in
     * local units, a = drainage direction slot (-1 where nothing is lower). Kept current after every
     * frame from the first call on: written on the GPU by the WebGPU backend (no readback), uploaded
     * from the rows each frame changed by the CPU backend (which computes them in its worker). Maps
     * added later (drainage area) come from `getMapTexture(name)`. RGBA32F is not filterable
     * everywhere: sample it with texel loads (the material plugin filters bilinearly in its shader).
     */
    public getMapsTexture(): Promise<RawTexture> {
        return this._withRunner("getMapsTexture", (runner) => runner.maps.getMapsTexture());
    }

    /**
     * A map added after `getMapsTexture()`'s layout was fixed, as a texture kept current like it,
     * one texel per field vertex (row 0 at the far, +z, edge): `"drainageArea"`, R32F, the river
     * operator's drainage area in cells; `"shallowWater"`, RGBA32F, the shallow water: r depth, g and
     * b velocity along local x and z (units a water step), a the water surface (ground + water), all
     * in local units (dry ground before water runs). `TerrainWaterSurface` draws it.
     */
    public getMapTexture(name: "drainageArea" | "shallowWater"): Promise<RawTexture> {
        if (name === "drainageArea") {
            return this._withRunner("getMapTexture", (runner) => runner.maps.getAreaTexture());
        }
        if (name === "shallowWater") {
            return this._withRunner("getMapTexture", (runner) => runner.maps.getWaterTexture());
        }
        return Promise.reject(new RangeError(`getMapTexture: name is ${JSON.stringify(name)}: it must be "drainageArea" or "shallowWater".`));
    }

    /**
     * Sets (or, with null, clears) an operator's mask: a value in [0, 1] per vertex, in the ground's
     * vertex order, or a texture whose red channel is sampled at the vertices (nearest texel; row 0
     * at the far, +z, edge). 0 holds the ground out, 1 erodes at full strength; for `"uplift"` it is
     * the uplift map, for `"rain"` the rain map (times `water.rain`). Values are quantised to 1/65536. Like options, it takes effect at the next
     * cycle boundary, and it is part of the state: fingerprints, snapshots and reset() carry it.
     */
    public setMask(operator: MaskName, mask: ArrayLike<number> | BaseTexture | null): Promise<void> {
        try {
            assertMaskName(operator);
        } catch (error) {
            return Promise.reject(error);
        }
        return this._live("setMask").setMask(operator, mask);
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
        });
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
        this._options = runner.schedule.latestOptions;
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

    protected _report(kind: ErosionErrorEvent["kind"], message: string, error?: unknown): void {
        this.onErrorObservable.notifyObservers({ kind, message, error });
    }
}
