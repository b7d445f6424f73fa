/**
 * The CPU reference backend: runs the schedule's batches with the TypeScript mirrors of the WGSL
 * kernels. Imports nothing from Babylon, so it runs under Node, in a worker and in tests.
 */
import { COUNTER_COUNT } from "./counters.js";
import { applyDelta } from "./cpu/applyDelta.js";
import { clipDelta } from "./cpu/clipDelta.js";
import { erodeDroplets } from "./cpu/erodeDroplets.js";
import { thermalApply } from "./cpu/thermalApply.js";
import { thermalFlux } from "./cpu/thermalFlux.js";
import { cloneState, createInitialState, fingerprintOf, type ErosionStateData } from "./erosionState.js";
import type { ErosionOptions } from "./options.js";
import { ErosionSchedule, type PlannedBatch } from "./schedule.js";
import { THERMAL_SLOTS } from "./thermalDirections.js";
import { maxPatchVertices } from "./patches.js";

/** Runs erosion on the CPU over fixed-point heights. */
export class CpuErosionSimulation {
    /** Which batch comes next and with what parameters. */
    public readonly schedule: ErosionSchedule;
    private _state: ErosionStateData;
    private readonly _delta: Int32Array;
    private _flux: Int32Array = new Int32Array(0);

    /**
     * @param width vertices per row (at least 2)
     * @param depth rows (at least 2)
     * @param heights fixed-point heights, row-major (copied)
     * @param options resolved options
     */
    constructor(width: number, depth: number, heights: Int32Array, options: Readonly<ErosionOptions>) {
        this._state = createInitialState(width, depth, heights);
        this._delta = new Int32Array(width * depth);
        this.schedule = new ErosionSchedule({ width, depth }, options);
    }

    /** The live state (not a copy): heights, suspended sediment, counters, position. */
    public get state(): Readonly<ErosionStateData> {
        return this._state;
    }

    /** Runs the next batch; returns true if it completed a cycle. */
    public runBatch(): boolean {
        const planned = this.schedule.planNext();
        if (planned) {
            this.runPlannedBatch(planned);
        }
        const cycleDone = this.schedule.advance();
        this._state.cycle = this.schedule.cycle;
        this._state.batch = this.schedule.batch;
        return cycleDone;
    }

    /** Runs one planned batch's kernels without advancing the schedule. */
    public runPlannedBatch(planned: PlannedBatch): void {
        const { params } = planned;
        const state = this._state;
        if (planned.operator === "hydraulic") {
            erodeDroplets(params, state.heights, this._delta, planned.brush, state.counters);
            clipDelta(params, state.heights, this._delta, state.suspended, state.counters);
            applyDelta(params, state.heights, this._delta);
            return;
        }
        const patchVertices = (params.patchX1 - params.patchX0) * (params.patchY1 - params.patchY0);
        if (this._flux.length < patchVertices * THERMAL_SLOTS) {
            this._flux = new Int32Array(maxPatchVertices(this.schedule.options.patchSize) * THERMAL_SLOTS);
        }
        for (let step = 0; step < planned.thermalIterations; step++) {
            thermalFlux(params, state.heights, this._flux);
            thermalApply(params, state.heights, this._flux, state.counters);
        }
    }

    /** Runs batches until `count` more cycle boundaries are reached (finishing a cycle in progress counts as one). */
    public runCycles(count: number): void {
        for (let done = 0; done < count; ) {
            if (this.runBatch()) {
                done++;
            }
        }
    }

    /** The fingerprint of the current state. */
    public fingerprint(): string {
        return fingerprintOf(this._state);
    }

    /** A copy of the state. */
    public getState(): ErosionStateData {
        return cloneState(this._state);
    }

    /** Replaces the state (copied) and moves the schedule to its position. */
    public setState(state: ErosionStateData): void {
        if (state.width !== this._state.width || state.depth !== this._state.depth) {
            throw new RangeError(`setState: the state is ${state.width} x ${state.depth} but the simulation is ${this._state.width} x ${this._state.depth}.`);
        }
        this._state = cloneState(state);
        if (this._state.counters.length !== COUNTER_COUNT) {
            throw new RangeError(`setState: counters has ${this._state.counters.length} entries, expected ${COUNTER_COUNT}.`);
        }
        this._delta.fill(0);
        this.schedule.setPosition(state.cycle, state.batch);
    }
}
