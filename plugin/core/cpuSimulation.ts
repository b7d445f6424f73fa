/**
 * The CPU reference backend: a schedule and the TypeScript mirrors of the WGSL kernels. Imports
 * nothing from Babylon, so it runs under Node, in a worker and in tests.
 */
import { CpuBatchRunner } from "./cpuBatchRunner.js";
import { cloneState, createInitialState, type ErosionMasks, type ErosionStateData } from "./erosionState.js";
import { fingerprintOf } from "./fingerprint.js";
import type { ErosionMaps } from "./erosionMaps.js";
import { createLocalEvent, type LocalErosionInput } from "./localErosion.js";
import { shapeGroundEdit, type GridPoint, type GroundEdit, type GroundEditRequest } from "./groundEdits.js";
import type { ErosionOptions } from "./options.js";
import { sameClass, takeFrame, type TakenFrame } from "./frameLoop.js";
import { ErosionSchedule, type PlannedBatch } from "./schedule.js";
import { validateCellSize, validateWorldScale } from "./worldScale.js";
import { withSourceAdded } from "./waterSources.js";

/** Runs erosion on the CPU over fixed-point heights. */
export class CpuErosionSimulation {
    /** Which batch comes next and with what parameters. */
    public readonly schedule: ErosionSchedule;
    private readonly _runner: CpuBatchRunner;

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

    /** Queues masks; they take effect at the next cycle boundary (now, if at one). */
    public setMasks(masks: ErosionMasks): void {
        this.schedule.setMasks(masks);
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
        this.schedule.queueEvent(createLocalEvent(this.schedule.latestOptions, this._runner.state.width, this._runner.state.depth, centreX, centreY, radius, input));
    }

    /**
     * Stamps a ground edit over a disc around (x, y) cells (one point) or along a path (two or
     * more), `radius` cells around it, and queues it: it applies before the next batch (or at `at`,
     * a later position). Heights in the request are fixed-point units. Returns the stamped edit.
     */
    public edit(request: GroundEditRequest, points: readonly GridPoint[], radius: number, at?: { cycle: number; batch: number }): GroundEdit {
        const { width, depth } = this._runner.state;
        return this.schedule.stampEdit(shapeGroundEdit(request, points, radius, width, depth, this.schedule.options.tileable), at);
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
        return state;
    }

    /** Replaces the state (copied) and moves the schedule to its position. */
    public setState(state: ErosionStateData): void {
        this._runner.replaceState(state);
        this.schedule.resumeAtState(state, this.schedule.latestOptions);
    }
}
