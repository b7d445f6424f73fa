/**
 * How many batches fit in a frame's erosion budget: an estimate of each batch's cost from its
 * amount of work, calibrated by what frames actually took (GPU submit-to-done time, or the CPU
 * backend's compute time). The budget only decides how many batches run in a frame, never what
 * they compute, so it cannot affect the result.
 */
import type { PlannedBatch } from "../core/schedule.js";
import { THERMAL_SLOTS } from "../core/thermalDirections.js";

/** Share of a new measurement in the running estimate. */
const SMOOTHING = 0.25;

/** Work in a batch, in units the cost model scales: droplet steps, plus cell visits of the grid passes. */
export function batchWorkUnits(planned: PlannedBatch): number {
    const p = planned.params;
    if (planned.operator === "hydraulic" || planned.operator === "local") {
        return p.dropletCount * p.maxSteps + 2 * (p.regionX1 - p.regionX0) * (p.regionY1 - p.regionY0);
    }
    if (planned.operator === "edit") {
        return (p.regionX1 - p.regionX0) * (p.regionY1 - p.regionY0);
    }
    if (planned.operator === "water") {
        // One pass of a water step over the patch: about one thermal step's work.
        return (p.patchX1 - p.patchX0) * (p.patchY1 - p.patchY0) * THERMAL_SLOTS;
    }
    if (planned.operator === "rivers") {
        // Whole-field passes: the drainage-area steps, the routing hops and eight more (slots, erode, uplift, settle, the fold's).
        return (planned.riverSteps + p.routeHops + 8) * (p.patchX1 - p.patchX0) * (p.patchY1 - p.patchY0);
    }
    return planned.thermalIterations * (p.patchX1 - p.patchX0) * (p.patchY1 - p.patchY0) * THERMAL_SLOTS;
}

/** A running estimate of milliseconds per unit of work. */
export class FrameBudget {
    private _msPerUnit: number;

    /** @param initialMsPerUnit estimate before any measurement (a guess that the first frame corrects) */
    constructor(initialMsPerUnit: number) {
        this._msPerUnit = initialMsPerUnit;
    }

    /** Estimated cost of a batch, in milliseconds. */
    public estimateMs(planned: PlannedBatch): number {
        return batchWorkUnits(planned) * this._msPerUnit;
    }

    /** Current estimate of milliseconds per unit of work. */
    public get msPerUnit(): number {
        return this._msPerUnit;
    }

    /** Folds in a frame that did `units` of work in `measuredMs`. */
    public record(units: number, measuredMs: number): void {
        if (units <= 0 || !(measuredMs > 0) || !Number.isFinite(measuredMs)) {
            return;
        }
        this._msPerUnit += SMOOTHING * (measuredMs / units - this._msPerUnit);
    }
}
