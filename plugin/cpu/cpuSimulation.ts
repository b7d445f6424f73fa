/**
 * The CPU reference backend: a schedule and the TypeScript mirrors of the WGSL kernels. Imports
 * nothing from Babylon, so it runs under Node, in a worker and in tests.
 */
import { CpuBatchRunner } from "./cpuBatchRunner.js";
import { cloneMasks, cloneState, createInitialState, type ErosionMasks, type ErosionStateData } from "../core/erosionState.js";
import { fingerprintOf } from "../core/fingerprint.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import { createLocalEvent, type LocalErosionInput } from "../core/localErosion.js";
import { shapeGroundEdit, type GridPoint, type GroundEdit, type GroundEditRequest } from "../core/groundEdits.js";
import type { ErosionOptions, SimulationOptions } from "../core/options.js";
import { sameClass, takeFrame, type TakenFrame } from "../core/frameLoop.js";
import { ErosionSchedule, type PlannedBatch } from "../core/schedule.js";
import { validateCellSize, validateWorldScale } from "../core/worldScale.js";
import { withSourceAdded } from "../core/waterSources.js";
import { DEFAULT_OPTIONS, resolveOptions, simulationOptions } from "../core/options.js";
import { ErosionSnapshot } from "../core/snapshot.js";
import { compareStamps, formatStamp, type InputEntry, type InputStamp } from "../core/inputLog/inputEntries.js";
import type { InputLog } from "../core/inputLog/inputLog.js";
import type { RewindPoint } from "../core/inputLog/rewindPoints.js";
import { takeDueEdits } from "../core/frameLoop.js";
import type { InputHistory } from "../core/inputLog/inputHistory.js";
import { RunHistory } from "../core/inputLog/history.js";
import type { ActPlan, GivePlan, RewindPlan } from "../core/inputLog/historyPlans.js";
import { checkMaskName, checkMaskValues, objectOf, refuserFor, type InputField } from "../core/inputLog/inputChecks.js";
import { DEFAULT_CHECKSUM_REGION, regionChecksums, type RegionChecksums } from "../core/checksums/regionChecksums.js";

/** Runs erosion on the CPU over fixed-point heights. */
export class CpuErosionSimulation {
    /** Which batch comes next and with what parameters. */
    public readonly schedule: ErosionSchedule;
    private readonly _runner: CpuBatchRunner;
    /**
     * The input log, the cycle-boundary points undo rewinds to (memory bounded by `undoMemoryBytes`)
     * and the run's start: it decides what each undo, redo, reset, restore and given entry does, and
     * this simulation carries the plans out.
     */
    private readonly _history: RunHistory;

    /**
     * @param width vertices per row (at least 2)
     * @param depth rows (at least 2)
     * @param heights fixed-point heights, row-major (copied)
     * @param options resolved options
     * @param cellSize distance between neighbouring vertices, in the heights' unit (metres), default 1
     * @param worldScale metres one unit of the heights stands for (only `featureSize` reads it), default 1
     */
    constructor(width: number, depth: number, heights: Int32Array, options: Readonly<ErosionOptions>, cellSize = 1, worldScale = 1) {
        validateCellSize(cellSize);
        validateWorldScale(worldScale);
        this._runner = new CpuBatchRunner(createInitialState(width, depth, heights));
        this.schedule = new ErosionSchedule({ width, depth, cellSize, worldScale }, options);
        const start = { state: this.getState(), options: simulationOptions(this.schedule.options), held: [], seq: 0 };
        this._history = new RunHistory(this.schedule, heights.slice(), start, DEFAULT_OPTIONS.undoMemoryMB * 2 ** 20);
    }

    /**
     * A simulation standing where `snapshot` stands, with its state and simulation options, and
     * nothing logged yet (the start of a replay). `startHeights` are what a logged reset goes back
     * to (default the snapshot's heights); `options` the runtime settings (defaults).
     */
    public static fromSnapshot(snapshot: ErosionSnapshot, startHeights?: Int32Array, history?: InputHistory): CpuErosionSimulation {
        const { width, depth } = snapshot.state;
        const simulation = new CpuErosionSimulation(width, depth, startHeights ?? snapshot.state.heights, resolveOptions(snapshot.options), snapshot.cellSize);
        simulation._resume(snapshot.state, snapshot.options, []);
        // A joiner's history: the log since the run's start, recorded, and the start to rewind to.
        simulation._history.startReplay(simulation._pointHere(), history, simulation.field);
        return simulation;
    }

    /**
     * What a joiner needs to undo inputs given before it joined (`LockstepHost.join`): the run's
     * start (construction, its last reset or restore) as a snapshot, and the entries since it up to
     * `upTo` (default the last).
     */
    public history(upTo = this.log.lastSeq): InputHistory {
        return this._history.joinHistory(this.schedule.grid.cellSize, upTo);
    }

    /** The log of every input since construction: options, masks, local events, water sources, edits, resets, restores, undos and redos. */
    public get log(): InputLog {
        return this._history.log;
    }

    /** The bound of the memory undo's checkpoints take, in bytes (default `undoMemoryMB`'s, 64 MiB). */
    public get undoMemoryBytes(): number {
        return this._history.limitBytes;
    }

    public set undoMemoryBytes(bytes: number) {
        this._history.limitBytes = bytes;
    }

    /** What undo's checkpoints hold now: bytes, points, and the bound. */
    public get undoMemory(): { bytes: number; points: number; limitBytes: number } {
        return this._history.memory;
    }

    /** Where the schedule stands: completed cycles, and completed batches of the cycle in progress. */
    public get stamp(): InputStamp {
        return this.schedule.inputs.position;
    }

    /**
     * Runs until the schedule stands at `stamp` (with the edits stamped there applied), or at the
     * first position past it when the stamp lies past its cycle's last batch. Never partial: no batch
     * at or after the stamp runs. Throws a `RangeError` naming the current stamp if it has passed.
     */
    public runUntil(stamp: InputStamp): void {
        if (compareStamps(stamp, this.stamp) < 0) {
            throw new RangeError(`runUntil: the stamp (${formatStamp(stamp)}) has passed: the simulation stands at ${formatStamp(this.stamp)}.`);
        }
        while (compareStamps(this.stamp, stamp) < 0) {
            this.runBatch();
        }
        this._runFrame(takeDueEdits(this.schedule));
    }

    /** The grid inputs must fit. */
    public get field(): InputField {
        return { width: this._runner.state.width, depth: this._runner.state.depth };
    }

    /**
     * Gives a log entry from another run (a replay, a peer), numbered and stamped as there: it
     * applies at its stamp (held until then when it lies ahead). The entry is checked whole first
     * (`checkInputEntry`: a bad one is refused, naming its seq and field, and changes nothing).
     * Throws a `RangeError` naming the current stamp when its stamp has passed; a reset, restore,
     * undo or redo stamped ahead applies once the simulation has run to its stamp (`planGive`).
     */
    public give(entry: InputEntry): void {
        this._carryOut(this._history.give(entry, this.field, "give"));
    }

    private _carryOut(plan: GivePlan): void {
        if (plan.kind === "act") {
            this.runUntil(plan.runTo);
            return this._act(this._history.act(plan.entries));
        }
        const { seq, at, stamp, player, ...payload } = plan.entry;
        this.schedule.inputs.give(payload, stamp, seq, player, undefined, at);
        this._runFrame(takeDueEdits(this.schedule)); // an edit stamped here applies at once
    }

    /**
     * Takes back the last `count` inputs still in force (edits, local events, options, mask or
     * sources changes) with one rewind; returns their entries, last first (empty when none is).
     */
    public undo(count = 1): InputEntry[] {
        return this._step("undo", count);
    }

    /** Gives back the last `count` inputs taken back (unless an input came since); returns their entries. */
    public redo(count = 1): InputEntry[] {
        return this._step("redo", count);
    }

    private _step(kind: "undo" | "redo", count: number): InputEntry[] {
        const { targets, rewind } = this._history.step(kind, count, this.stamp);
        if (rewind) this._rewind(rewind);
        return [...targets];
    }

    /** Back to the start heights at cycle 0, with the options and masks in force (logged). */
    public reset(): void {
        this._act(this._history.reset(this.stamp));
    }

    /** Puts a snapshot's state and simulation options in force (logged with the snapshot's bytes). */
    public restore(snapshot: ErosionSnapshot): void {
        this._act(this._history.restore(new Uint8Array(snapshot.toArrayBuffer()), this.field, this.stamp));
    }

    /** Carries out a logged reset's, restore's, undo's or redo's plan. */
    private _act(plan: ActPlan): void {
        if (plan.kind === "rewind") return this._rewind(plan.rewind);
        // A reset or a restore: its state in force, nothing held, and the run starts again there.
        this._resume(plan.state, plan.options, []);
        this._history.restart(this._pointHere());
    }

    /** Puts the plan's point back and gives the entries in force after it again, back to where the simulation stood. */
    private _rewind({ point, entries, here }: RewindPlan): void {
        this._resume(point.state, point.options, point.held);
        for (const again of entries) {
            this.runUntil(again.at);
            this.schedule.inputs.regive(again);
        }
        this.runUntil(here);
    }

    private _resume(state: ErosionStateData, options: Readonly<SimulationOptions>, held: readonly InputEntry[]): void {
        this._runner.replaceState(state);
        this.schedule.resumeAtState(state, resolveOptions(options, this.schedule.latestOptions));
        this.schedule.inputs.setHeld(held);
        this._runner.state.masks = this.schedule.masks;
    }

    /** The rewind point of where the simulation stands. */
    private _pointHere(): RewindPoint {
        return { state: this.getState(), options: simulationOptions(this.schedule.options), held: this.schedule.inputs.held, seq: this._history.lastSeq };
    }

    /** The live state (not a copy): heights, suspended sediment, counters, position. */
    public get state(): Readonly<ErosionStateData> {
        return this._runner.state;
    }

    /** Erosion maps (water, wear, deposition) accumulated since construction or `resetMaps()` (live). */
    public get maps(): ErosionMaps {
        return this._runner.maps;
    }

    /** Starts the maps again from zero. */
    public resetMaps(): void {
        this._runner.resetMaps();
    }

    /**
     * Queues masks (Q16 per vertex, null for none); they take effect at the next cycle boundary (now,
     * if at one). Every mask is checked first (one value per vertex, each in [0, 65536], a known
     * name): a bad one is refused with a `RangeError` naming it, and none of them is set.
     */
    public setMasks(masks: ErosionMasks): void {
        const refuse = refuserFor("setMasks");
        const given = objectOf(masks, "masks", refuse);
        const checked = { ...this.schedule.latestMasks };
        for (const [name, values] of Object.entries(given)) {
            if (values === undefined) continue;
            const known = checkMaskName(name, refuse);
            checked[known] =
                values === this.schedule.latestMasks[known]
                    ? (values as Int32Array | null)
                    : checkMaskValues(known, values, this.field.width * this.field.depth, refuse);
        }
        this.schedule.setMasks(checked);
        if (this.schedule.atCycleBoundary) {
            this._runner.state.masks = this.schedule.masks;
        }
    }

    /**
     * Rains droplets over a disc from the next cycle boundary (the current cycle, if at one): local
     * erosion, deterministic given its inputs and that cycle.
     * @param centreX disc centre in cells (column, fractional allowed)
     * @param centreY disc centre in cells (row)
     * @param radius disc radius in cells
     */
    public erodeAt(centreX: number, centreY: number, radius: number, input: LocalErosionInput = {}): void {
        this.schedule.queueEvent(
            createLocalEvent(this.schedule.latestOptions, this._runner.state.width, this._runner.state.depth, centreX, centreY, radius, input)
        );
    }

    /**
     * Stamps a ground edit over a disc around (x, y) cells (one point) or along a path (two or
     * more), `radius` cells around it: it applies at once (or at `at`, a later position, queued
     * until then). Heights in the request are fixed-point units. Returns the stamped edit.
     */
    public edit(request: GroundEditRequest, points: readonly GridPoint[], radius: number, at?: { cycle: number; batch: number }): GroundEdit {
        const { width, depth } = this._runner.state;
        const shape = shapeGroundEdit(request, points, radius, width, depth, this.schedule.options.tileable);
        const edit = this.schedule.stampEdit(shape, at, undefined, { kind: "edit", edit: request, points, radius });
        this._runFrame(takeDueEdits(this.schedule)); // stamped here, it applies at once (as a paused behavior's next frame applies it)
        return edit;
    }

    /**
     * Adds a water source from the next cycle boundary (the current cycle, if at one): a spring
     * adding `rate` cubic cells of water a water step, spread over the vertices within `radius`
     * cells of (centreX, centreY) (cells, fractional allowed: rounded to the nearest vertex).
     * Returns its id, for `removeWaterSource`.
     */
    public addWaterSource(centreX: number, centreY: number, radius: number, rate: number): number {
        const { width, depth } = this._runner.state;
        const { sources, id } = withSourceAdded(this.schedule.latestSources, centreX, centreY, radius, rate, width, depth);
        this.schedule.setSources(sources);
        return id;
    }

    /** Removes a water source from the next cycle boundary; false if no source has that id. */
    public removeWaterSource(id: number): boolean {
        const latest = this.schedule.latestSources;
        if (!latest.some((source) => source.id === id)) return false;
        this.schedule.setSources(latest.filter((source) => source.id !== id));
        return true;
    }

    /** Runs the next batch; returns true if it completed a cycle. */
    public runBatch(): boolean {
        return this._runFrame(takeFrame(this.schedule, () => true, 1));
    }

    /** Runs the next class of batches (those that run side by side); returns true if it completed a cycle. */
    public runClass(): boolean {
        return this._runFrame(takeFrame(this.schedule, sameClass));
    }

    /** Runs one planned batch's kernels without advancing the schedule. */
    public runPlannedBatch(planned: PlannedBatch): void {
        this._runner.run(planned);
    }

    /** Runs batches until `count` more cycle boundaries are reached (finishing a cycle in progress counts as one). */
    public runCycles(count: number): void {
        for (let done = 0; done < count; ) {
            if (this.runClass()) {
                done++;
            }
        }
    }

    /** Runs a frame's batches (already taken off the schedule) and moves the state to the schedule's position. */
    private _runFrame(frame: TakenFrame): boolean {
        for (const planned of frame.batches) {
            this._runner.run(planned);
        }
        this._runner.state.cycle = this.schedule.cycle;
        this._runner.state.batch = this.schedule.batch;
        this._runner.state.masks = this.schedule.masks;
        if (frame.cycleCompleted && this._history.limitBytes > 0) {
            // `_pointHere` copies the state (`getState`), which no one else holds: the ring keeps that copy.
            this._history.addPoint(this._pointHere(), true);
        }
        return frame.cycleCompleted;
    }

    /** The fingerprint of the current state. */
    public fingerprint(): string {
        return fingerprintOf(this.getState());
    }

    /** A copy of the state (with the local erosion events in force and pending). */
    public getState(): ErosionStateData {
        const state = cloneState(this._runner.state);
        Object.assign(state, this.schedule.inputsOf());
        // The pending masks' grids copied too, as `cloneState` copies them: the rewind points keep this copy as it is.
        if (state.pendingMasks) state.pendingMasks = cloneMasks(state.pendingMasks);
        return state;
    }

    /** The checksums of the state's square regions of `size` vertices (default 32): `regionChecksums`. */
    public regionChecksums(size = DEFAULT_CHECKSUM_REGION): RegionChecksums {
        return regionChecksums(this._runner.state, size);
    }

    /** A snapshot of where the simulation stands (options in force, the log's last seq). */
    public snapshot(): ErosionSnapshot {
        return new ErosionSnapshot(this.getState(), this.schedule.options, this.schedule.grid.cellSize, this.log.lastSeq);
    }

    /** The log a replay from `snapshot` (taken of this simulation) needs: `InputLog.sinceSnapshot`. */
    public inputsSince(snapshot: ErosionSnapshot): InputEntry[] {
        return this._history.sinceSnapshot(snapshot.logSeq, snapshot.state);
    }

    /** Replaces the state (copied) and moves the schedule to its position, keeping the options: a restore (logged). */
    public setState(state: ErosionStateData): void {
        this.restore(new ErosionSnapshot(state, this.schedule.latestOptions, this.schedule.grid.cellSize));
    }
}

