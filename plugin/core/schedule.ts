/**
 * The cycle schedule: which batch runs next, with which parameters.
 *
 * A cycle runs its local events, then every enabled operator in `OPERATOR_ORDER` (water,
 * hydraulic, rivers, thermal): the water's passes, the droplets and thermal class by class of
 * patches that cannot reach each other, the rivers over the whole field (`cycleUnits.ts`). Each class reads the ground as the previous class
 * left it, which is what makes the patches staggered rather than one huge batch, and the batches of
 * a class give the same terrain in any order or grouping. Option changes wait for the next cycle
 * boundary, so a cycle always runs with one set of options and clients that change options at the
 * same cycle stay identical. Ground edits are not held for a boundary: each is stamped with a
 * position (cycle, completed batches) and runs as a batch of its own just before the batch at that
 * position, without counting as one of the cycle's batches.
 */
import { initialSoilSlopeUnits, initialSoilUnits } from "./materials.js";
import { HardnessMapRefs } from "./hardnessMap.js";
import { planEditBatch, planLocalBatch, planUnitBatch, type SharedPlan } from "./batchPlans.js";
import type { GroundEdit, GroundEditShape } from "./groundEdits.js";
import { EditQueue } from "./editQueue.js";
import { cellScaledOptions, type GridSize } from "./worldScale.js";
import type { LocalErosionEvent } from "./localErosion.js";
import { BrushCache } from "./brush.js";
import { resolveOptions, simulationOptions, type SimulationOptions } from "./options.js";
import type { InputEntry } from "./inputLog/inputEntries.js";
import type { PlayerInput } from "./lockstep/playerInputs.js";
import { StampedInputs } from "./inputLog/stampedInputs.js";
import { MASK_NAMES, noMasks, type ErosionMasks, type ErosionStateData, type MaskName, type WaterSourceState } from "./erosionState.js";
import { OPERATOR_ORDER, layoutPatches, type OperatorName, type Patch } from "./patches.js";
import { planCycleUnits, type CycleUnit } from "./cycleUnits.js";
import type { WaterSource } from "./waterSources.js";
import { ScheduledSources } from "./scheduledSources.js";
import type { PlannedBatch } from "./plannedBatch.js";

export type { PlannedBatch } from "./plannedBatch.js";

/** Tracks the position in the cycle and plans batches. */
export class ErosionSchedule {
    /** Every input: stamped, recorded in the log, applied now or held until its stamp. */
    public readonly inputs: StampedInputs = new StampedInputs(this);
    /** Where frames stop (`takeFrame`): no batch at or after it runs; null for none. */
    public horizon: { readonly cycle: number; readonly batch: number } | null = null;
    private _options: SimulationOptions;
    /** The options in force as the grid's cell size reads them (`cellScaledOptions`). */
    private _scaled: Readonly<SimulationOptions>;
    private _pending: SimulationOptions | null = null;
    private _patches: Patch[] = [];
    private _operators: OperatorName[] = [];
    private _units: CycleUnit[] = [];
    private _brush: Int32Array = new Int32Array(0);
    private _masks: ErosionMasks = noMasks();
    private _events: LocalErosionEvent[] = [];
    private _pendingEvents: LocalErosionEvent[] = [];
    private readonly _brushes = new BrushCache();
    private _pendingMasks: ErosionMasks | null = null;
    private readonly _hardnessMaps = new HardnessMapRefs();
    private readonly _sources: ScheduledSources;
    private _cycle = 0;
    private _batch = 0;
    /** Ground edits stamped and not yet applied, in stamp order. */
    private readonly _edits = new EditQueue();

    constructor(
        public readonly grid: GridSize,
        options: Readonly<SimulationOptions>
    ) {
        this._options = simulationOptions(options);
        this._sources = new ScheduledSources(grid);
        this._scaled = this._options;
        this._layout();
    }

    /** Simulation options in force for the current cycle (the runtime settings are the runner's: the schedule never holds them). */
    public get options(): Readonly<SimulationOptions> {
        return this._options;
    }

    /** The newest options: pending ones if a change waits for the cycle boundary, else those in force. */
    public get latestOptions(): Readonly<SimulationOptions> {
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
        this.inputs.give({ kind: "erodeAt", event });
    }

    /** Replaces the events in force and pending (restoring a snapshot; resetting). */
    public setEvents(inForce: readonly LocalErosionEvent[], pending: readonly LocalErosionEvent[]): void {
        this._events = [...inForce];
        this._pendingEvents = [...pending];
    }

    /** Ground edits stamped and not yet applied, in stamp order (cycle, batch, id). */
    public get edits(): readonly GroundEdit[] {
        return this._edits.edits;
    }

    /**
     * Stamps a ground edit and queues it: by default at the current position (it runs before the
     * next batch planned), or at `at`, which must not be before the current position. `player`
     * names whose input it is (a lockstep host's); `request` is what a lockstep player forwards
     * instead (the host shapes it again).
     */
    public stampEdit(shape: GroundEditShape, at?: { readonly cycle: number; readonly batch: number }, player?: string, request?: PlayerInput): GroundEdit {
        const stamp = at ? { cycle: at.cycle, batch: at.batch } : { cycle: this._cycle, batch: this._batch };
        const entry = this.inputs.give({ kind: "edit", edit: { ...shape, ...stamp, id: this._edits.nextId } }, stamp, undefined, player, request);
        return (entry as Extract<InputEntry, { kind: "edit" }>).edit;
    }

    /** Replaces the queued edits (restoring a snapshot; resetting); new edits are numbered after every one seen. */
    public setEdits(edits: readonly GroundEdit[]): void {
        this._edits.set(edits);
    }

    /** True when a queued edit is stamped at the current position: the next batch planned is its. */
    public get editDue(): boolean {
        return this._dueEdit() !== null;
    }

    /** The queued edit stamped at the current position, if any: it runs next. */
    private _dueEdit(): GroundEdit | null {
        return this._edits.dueAt(this._cycle, this._batch);
    }

    /** Queues new masks; they take effect at the next cycle boundary (now, if at one). */
    public setMasks(masks: ErosionMasks): void {
        for (const name of MASK_NAMES) {
            if (masks[name] !== this.latestMasks[name]) this.setMask(name, masks[name]);
        }
    }

    /** Queues one mask (Q16 per vertex, or null to clear it) for the next cycle boundary (now, if at one). */
    public setMask(name: MaskName, values: Int32Array | null): void {
        this.inputs.give({ kind: "mask", name, values });
    }

    /** Water sources in force for the current cycle. */
    public get sources(): readonly WaterSource[] {
        return this._sources.inForce;
    }

    /** The water sources that take force at the next cycle boundary, or null when no change waits. */
    public get pendingSources(): readonly WaterSource[] | null {
        return this._sources.pending;
    }

    /** The newest sources: pending ones if a change waits for the cycle boundary, else those in force. */
    public get latestSources(): readonly WaterSource[] {
        return this._sources.pending ?? this._sources.inForce;
    }

    /** Queues a new list of water sources; it takes force at the next cycle boundary (now, if at one). */
    public setSources(sources: readonly WaterSource[]): void {
        this.inputs.give({ kind: "sources", sources: [...sources] });
    }

    /** The inputs the state records besides its grids and masks: local events, water sources and queued ground edits, as copies. */
    public inputsOf(): Required<Pick<ErosionStateData, "events" | "sources" | "edits" | "pendingOptions" | "pendingMasks">> {
        return {
            events: { inForce: [...this._events], pending: [...this._pendingEvents] },
            sources: this.sourceState(),
            edits: [...this._edits.edits],
            pendingOptions: this._pending ? simulationOptions(this._pending) : null,
            pendingMasks: this._pendingMasks ? { ...this._pendingMasks } : null,
        };
    }

    /** The sources in force and pending, as the state records them. */
    public sourceState(): WaterSourceState {
        return this._sources.state();
    }

    /** Replaces the sources in force and pending (restoring a snapshot; resetting). */
    public setSourceState(inForce: readonly WaterSource[], pending: readonly WaterSource[] | null): void {
        this._sources.set(inForce, pending);
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

    /**
     * Queues new simulation options as an input; they take effect at the next cycle boundary (now, if
     * at one). Whole options will do: their runtime settings are left out (they shape nothing, so they
     * are the runner's, never an input). `player`: whose input it is (a lockstep host's).
     */
    public setOptions(options: Readonly<SimulationOptions>, player?: string): void {
        const simulation = simulationOptions(options);
        if (JSON.stringify(simulation) !== JSON.stringify(simulationOptions(this.latestOptions))) {
            this.inputs.give({ kind: "options", options: simulation }, undefined, undefined, player);
        }
    }

    /**
     * Applies an input whose time has come (`StampedInputs` calls it): options, masks, local events
     * and water sources from the next cycle boundary (now, if at one), edits into the queue. A
     * reset, a restore, an undo or a redo changes the state: whoever gave it acts on it.
     */
    public applyInput(entry: InputEntry): void {
        switch (entry.kind) {
            case "options":
                this._pending = simulationOptions(resolveOptions(entry.options, this.latestOptions));
                break;
            case "mask":
                this._pendingMasks = { ...this.latestMasks, [entry.name]: entry.values };
                break;
            case "erodeAt":
                this._pendingEvents.push(entry.event);
                break;
            case "sources":
                this._sources.queue(entry.sources);
                break;
            case "edit":
                return this._edits.add(entry.edit);
        }
        // What waits for a boundary takes force at once at one.
        if (this.atCycleBoundary) this._applyPending();
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
    public resumeAt(
        cycle: number, inForce: Readonly<SimulationOptions>, pending: Readonly<SimulationOptions>, masksInForce: ErosionMasks, pendingMasks: ErosionMasks
    ): void {
        this._cycle = cycle;
        this._batch = 0;
        this._options = simulationOptions(inForce);
        this._pending = null;
        this._masks = { ...masksInForce };
        this._pendingMasks = null;
        this._layout();
        const waiting = simulationOptions(pending);
        if (JSON.stringify(waiting) !== JSON.stringify(this._options)) {
            this._pending = waiting;
        }
        if (MASK_NAMES.some((name) => pendingMasks[name] !== masksInForce[name])) {
            this._pendingMasks = { ...pendingMasks };
        }
    }

    /**
     * Puts a state's position in force: its cycle and batch, with `options` for that cycle, its
     * masks, its local events and water sources, and the options and masks it had waiting for the
     * next boundary. The one way a checkpoint, a snapshot, a restore or
     * a bake's start state resumes the schedule (the runner, `CpuErosionSimulation` and the bake).
     */
    public resumeAtState(
        state: Pick<ErosionStateData, "cycle" | "batch" | "masks" | "events" | "sources" | "edits" | "pendingOptions" | "pendingMasks">,
        options: Readonly<SimulationOptions>
    ): void {
        const pending = state.pendingOptions ? simulationOptions(resolveOptions(state.pendingOptions, options)) : options;
        this.resumeAt(state.cycle, options, pending, state.masks, state.pendingMasks ?? state.masks);
        this.setEvents(state.events?.inForce ?? [], state.events?.pending ?? []);
        this.setSourceState(state.sources?.inForce ?? [], state.sources?.pending ?? null);
        this.setEdits(state.edits ?? []);
        this.setPosition(state.cycle, state.batch);
    }

    /** The next batch to run (a ground edit stamped here first), or null if no operator is enabled (the cycle is then empty). */
    public planNext(): PlannedBatch | null {
        // What every batch of this position shares; each kind adds its own (`batchPlans.ts`).
        const here: SharedPlan = {
            cycle: this._cycle,
            batch: this._batch,
            masks: this._masks,
            waterSources: this._sources.packed,
            thermalIterations: 0,
            riverSteps: 0,
            initialSoil: initialSoilUnits(this._options.materials.initialSoil),
            initialSoilSlope: initialSoilSlopeUnits(this._options.materials.initialSoilSlope),
            hardnessMap: this._hardnessMaps.refFor(this._masks.hardness, this._options.materials.hardnessMapScale),
        };
        const edit = this._dueEdit();
        if (edit) {
            return planEditBatch(here, this._options, this.grid, edit, this._brush);
        }
        if (this._batch < this._events.length) {
            return planLocalBatch(here, this._options, this.grid, this._events[this._batch], this._brushes);
        }
        if (this._units.length === 0) {
            return null;
        }
        return planUnitBatch(here, this._options, this._scaled, this.grid, this._units[this._batch - this._events.length], this._brush, this._events.length);
    }

    /** Marks the planned batch done (or an empty cycle, when none is enabled); true if a cycle completed. */
    public advance(): boolean {
        if (this._dueEdit()) {
            this._edits.shift(); // an edit is not one of the cycle's batches: the position stays
            return false;
        }
        this._batch++;
        if (this._batch >= this.batchesPerCycle) {
            this._batch = 0;
            this._cycle++;
            this._events = []; // the finished cycle's events are done
            // Edits stamped past the finished cycle's last batch run first in the next one.
            this._edits.carryInto(this._cycle);
            this._applyPending();
            this.inputs.releaseDue();
            return true;
        }
        this.inputs.releaseGiven();
        return false;
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
        this._sources.applyPending();
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
        this._brush = this._brushes.get(this._scaled.hydraulic.brushRadius);
    }
}
