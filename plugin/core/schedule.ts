/**
 * The cycle schedule: which batch runs next, with which parameters.
 *
 * A cycle runs its local events, then every enabled operator in `OPERATOR_ORDER` (water,
 * hydraulic, rivers, thermal): the water's passes, the droplets and thermal class by class of
 * patches that cannot reach each other, the rivers over the whole field (`cycleUnits.ts`). Each class reads the ground as the previous class
 * left it, which is what makes the patches staggered rather than one huge batch, and the batches of
 * a class give the same terrain in any order or grouping. Option changes wait for the next cycle
 * boundary, so a cycle always runs with one set of options and clients that change options at the
 * same cycle stay identical.
 */
import { buildBatchParams, buildLocalBatchParams, type BatchParams } from "./batchParams.js";
import { cellScaledOptions, type GridSize } from "./worldScale.js";
import type { LocalErosionEvent } from "./localErosion.js";
import { brushEntryCount, buildBrush } from "./brush.js";
import { cloneOptions, type ErosionOptions } from "./options.js";
import { MASKED_OPERATORS, noMasks, type ErosionMasks, type ErosionStateData, type WaterSourceState } from "./erosionState.js";
import { OPERATOR_ORDER, layoutPatches, type OperatorName, type Patch } from "./patches.js";
import { planCycleUnits, type CycleUnit } from "./cycleUnits.js";
import { packWaterSources, type WaterSource } from "./waterSources.js";

/** One batch, ready to run. */
export interface PlannedBatch {
    /** The operator, or "local" for a local erosion event (droplet kernels over a disc). */
    readonly operator: OperatorName | "local";
    readonly patch: Patch;
    readonly params: BatchParams;
    /** Brush table for the cycle's brush radius. */
    readonly brush: Int32Array;
    /** Cycle the batch belongs to (completed cycles before it). */
    readonly cycle: number;
    /** Position of the batch in its cycle. */
    readonly batch: number;
    /**
     * The batch's class in its cycle: consecutive batches with the same group cannot reach each
     * other, so a backend may run them in one dispatch, in any order, or spread over frames.
     */
    readonly group: number;
    /** Thermal relaxation steps this batch runs (thermal batches only). */
    readonly thermalIterations: number;
    /** Drainage-area propagation steps this batch runs (river batches only). */
    readonly riverSteps: number;
    /** Masks in force for the cycle (the same object for the whole cycle). */
    readonly masks: ErosionMasks;
    /** The water sources in force, packed for the kernels (`packWaterSources`; the same object while they do not change). */
    readonly waterSources: Int32Array;
}

/** Tracks the position in the cycle and plans batches. */
export class ErosionSchedule {
    private _options: ErosionOptions;
    /** The options in force as the grid's cell size reads them (`cellScaledOptions`). */
    private _scaled: Readonly<ErosionOptions>;
    private _pending: ErosionOptions | null = null;
    private _patches: Patch[] = [];
    private _operators: OperatorName[] = [];
    private _units: CycleUnit[] = [];
    private _brush: Int32Array = new Int32Array(0);
    private _masks: ErosionMasks = noMasks();
    private _events: LocalErosionEvent[] = [];
    private _pendingEvents: LocalErosionEvent[] = [];
    private readonly _brushes = new Map<number, Int32Array>();
    private _pendingMasks: ErosionMasks | null = null;
    private _sources: readonly WaterSource[] = [];
    private _pendingSources: readonly WaterSource[] | null = null;
    private _packedSources: Int32Array = new Int32Array(1);
    private _cycle = 0;
    private _batch = 0;

    constructor(
        public readonly grid: GridSize,
        options: Readonly<ErosionOptions>
    ) {
        this._options = cloneOptions(options);
        this._scaled = this._options;
        this._layout();
    }

    /** Options in force for the current cycle. */
    public get options(): Readonly<ErosionOptions> {
        return this._options;
    }

    /** The newest options: pending ones if a change waits for the cycle boundary, else those in force. */
    public get latestOptions(): Readonly<ErosionOptions> {
        return this._pending ?? this._options;
    }

    /** Masks in force for the current cycle. */
    public get masks(): ErosionMasks {
        return this._masks;
    }

    /** The newest masks: pending ones if a change waits for the cycle boundary, else those in force. */
    public get latestMasks(): ErosionMasks {
        return this._pendingMasks ?? this._masks;
    }

    /** Local erosion events of the current cycle (their batches come first in it). */
    public get events(): readonly LocalErosionEvent[] {
        return this._events;
    }

    /** Local erosion events waiting for the next cycle boundary. */
    public get pendingEvents(): readonly LocalErosionEvent[] {
        return this._pendingEvents;
    }

    /** Queues a local erosion event for the next cycle boundary (the current cycle, if at one). */
    public queueEvent(event: LocalErosionEvent): void {
        this._pendingEvents.push(event);
        if (this.atCycleBoundary) {
            this._applyPending();
        }
    }

    /** Replaces the events in force and pending (restoring a snapshot; resetting). */
    public setEvents(inForce: readonly LocalErosionEvent[], pending: readonly LocalErosionEvent[]): void {
        this._events = [...inForce];
        this._pendingEvents = [...pending];
    }

    /** Queues new masks; they take effect at the next cycle boundary (now, if at one). */
    public setMasks(masks: ErosionMasks): void {
        this._pendingMasks = { ...masks };
        if (this.atCycleBoundary) {
            this._applyPending();
        }
    }

    /** Water sources in force for the current cycle. */
    public get sources(): readonly WaterSource[] {
        return this._sources;
    }

    /** The water sources that take force at the next cycle boundary, or null when no change waits. */
    public get pendingSources(): readonly WaterSource[] | null {
        return this._pendingSources;
    }

    /** The newest sources: pending ones if a change waits for the cycle boundary, else those in force. */
    public get latestSources(): readonly WaterSource[] {
        return this._pendingSources ?? this._sources;
    }

    /** Queues a new list of water sources; it takes force at the next cycle boundary (now, if at one). */
    public setSources(sources: readonly WaterSource[]): void {
        this._pendingSources = [...sources];
        if (this.atCycleBoundary) {
            this._applyPending();
        }
    }

    /** The sources in force and pending, as the state records them. */
    public sourceState(): WaterSourceState {
        return { inForce: [...this._sources], pending: this._pendingSources ? [...this._pendingSources] : null };
    }

    /** Replaces the sources in force and pending (restoring a snapshot; resetting). */
    public setSourceState(inForce: readonly WaterSource[], pending: readonly WaterSource[] | null): void {
        this._sources = [...inForce];
        this._packedSources = packWaterSources(this._sources, this.grid.width, this.grid.depth);
        this._pendingSources = pending ? [...pending] : null;
    }

    /** Completed cycles. */
    public get cycle(): number {
        return this._cycle;
    }

    /** Completed batches of the cycle in progress. */
    public get batch(): number {
        return this._batch;
    }

    /** Batches in the current cycle: its local events, then one per patch of each water pass, of the droplets and of thermal, and one for the rivers. */
    public get batchesPerCycle(): number {
        return this._events.length + this._units.length;
    }

    /** The current cycle's batches after its local events, in run order, with their classes. */
    public get units(): readonly CycleUnit[] {
        return this._units;
    }

    /** The patches of the current cycle. */
    public get patches(): readonly Patch[] {
        return this._patches;
    }

    /** Enabled operators of the current cycle, in run order. */
    public get operators(): readonly OperatorName[] {
        return this._operators;
    }

    /** True between cycles (no batch of the current cycle has run). */
    public get atCycleBoundary(): boolean {
        return this._batch === 0;
    }

    /** Queues new options; they take effect at the next cycle boundary (now, if at one). */
    public setOptions(options: Readonly<ErosionOptions>): void {
        this._pending = cloneOptions(options);
        if (this.atCycleBoundary) {
            this._applyPending();
        }
    }

    /** Sets the position (for restoring a snapshot); pending options apply if it is a boundary. */
    public setPosition(cycle: number, batch: number): void {
        this._cycle = cycle;
        this._batch = batch;
        if (this.atCycleBoundary) {
            this._applyPending();
        }
    }

    /**
     * Rewinds or jumps to a cycle boundary with `inForce` as the options of that cycle and `pending`
     * (if different) waiting for the next boundary: how a checkpoint resumes exactly as the run
     * that made it went on.
     */
    public resumeAt(cycle: number, inForce: Readonly<ErosionOptions>, pending: Readonly<ErosionOptions>, masksInForce: ErosionMasks, pendingMasks: ErosionMasks): void {
        this._cycle = cycle;
        this._batch = 0;
        this._options = cloneOptions(inForce);
        this._pending = null;
        this._masks = { ...masksInForce };
        this._pendingMasks = null;
        this._layout();
        if (JSON.stringify(pending) !== JSON.stringify(inForce)) {
            this._pending = cloneOptions(pending);
        }
        if (MASKED_OPERATORS.some((name) => pendingMasks[name] !== masksInForce[name])) {
            this._pendingMasks = { ...pendingMasks };
        }
    }

    /**
     * Puts a state's position in force: its cycle and batch, with `options` for that cycle, its
     * masks, its local events and water sources. The one way a checkpoint, a snapshot, a restore or
     * a bake's start state resumes the schedule (the runner, `CpuErosionSimulation` and the bake).
     */
    public resumeAtState(state: Pick<ErosionStateData, "cycle" | "batch" | "masks" | "events" | "sources">, options: Readonly<ErosionOptions>): void {
        this.resumeAt(state.cycle, options, options, state.masks, state.masks);
        this.setEvents(state.events?.inForce ?? [], state.events?.pending ?? []);
        this.setSourceState(state.sources?.inForce ?? [], state.sources?.pending ?? null);
        this.setPosition(state.cycle, state.batch);
    }

    /** The next batch to run, or null if no operator is enabled (the cycle is then empty). */
    public planNext(): PlannedBatch | null {
        if (this._batch < this._events.length) {
            const event = this._events[this._batch];
            const brush = this._brushFor(cellScaledOptions({ ...this._options, hydraulic: event.hydraulic }, this.grid).hydraulic.brushRadius);
            const params = buildLocalBatchParams(this._options, this.grid, event, this._batch, this._cycle, brushEntryCount(brush), this._masks);
            return {
                operator: "local",
                patch: { index: params.patchIndex, x0: params.patchX0, y0: params.patchY0, x1: params.patchX1, y1: params.patchY1 },
                params,
                brush,
                cycle: this._cycle,
                batch: this._batch,
                group: this._batch,
                thermalIterations: 0,
                riverSteps: 0,
                masks: this._masks,
                waterSources: this._packedSources,
            };
        }
        if (this._units.length === 0) {
            return null;
        }
        const { operator, patch, group, waterPass } = this._units[this._batch - this._events.length];
        return {
            operator,
            patch,
            params: buildBatchParams(this._options, this.grid, patch, operator, this._cycle, brushEntryCount(this._brush), this._masks, waterPass),
            brush: this._brush,
            cycle: this._cycle,
            batch: this._batch,
            group: this._events.length + group,
            thermalIterations: this._scaled.thermal.iterations,
            riverSteps: this._scaled.rivers.stepsPerBatch,
            masks: this._masks,
            waterSources: this._packedSources,
        };
    }

    /** Marks the planned batch done (or an empty cycle, when none is enabled); true if a cycle completed. */
    public advance(): boolean {
        this._batch++;
        if (this._batch >= this.batchesPerCycle) {
            this._batch = 0;
            this._cycle++;
            this._events = []; // the finished cycle's events are done
            this._applyPending();
            return true;
        }
        return false;
    }

    private _brushFor(radius: number): Int32Array {
        let brush = this._brushes.get(radius);
        if (!brush) {
            brush = buildBrush(radius);
            this._brushes.set(radius, brush);
        }
        return brush;
    }

    private _applyPending(): void {
        // Events queued before a cycle begins run in it.
        if (this._pendingEvents.length > 0) {
            this._events = [...this._events, ...this._pendingEvents];
            this._pendingEvents = [];
        }
        if (this._pendingMasks) {
            this._masks = this._pendingMasks;
            this._pendingMasks = null;
        }
        if (this._pendingSources) {
            this.setSourceState(this._pendingSources, null);
        }
        if (this._pending) {
            this._options = this._pending;
            this._pending = null;
            this._layout();
        }
    }

    private _layout(): void {
        const options = this._options;
        this._patches = layoutPatches(this.grid.width, this.grid.depth, options.patchSize);
        this._operators = OPERATOR_ORDER.filter((name) => options[name].enabled);
        this._scaled = cellScaledOptions(options, this.grid);
        this._units = planCycleUnits(options, this.grid, this._operators);
        this._brush = this._brushFor(this._scaled.hydraulic.brushRadius);
    }
}
