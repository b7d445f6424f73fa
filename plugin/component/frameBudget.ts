/**
 * How many batches fit in a frame's erosion budget: an estimate of each batch's cost from its
 * amount of work, calibrated by what frames actually took (GPU submit-to-done time, or the CPU
 * backend's compute time). The budget only decides how many batches run in a frame, never what
 * they compute, so it cannot affect the result.
 */
import type { PlannedBatch } from "../core/schedule.js";
import type { PlannedOperator } from "../core/plannedBatch.js";
import { THERMAL_SLOTS } from "../core/thermalDirections.js";

/**
 * Frames of an operator whose cost per unit the estimate is the median of. A median, not a running
 * mean: on SwiftShader a frame in five or so measured 1.1-1.3 s (the render beside it) where the
 * others took 15-30 ms, and a running mean that took in a quarter of each sample stood at 20 times
 * the frames' cost for dozens of frames after each, so frames of one water batch went on where the
 * budget held several.
 */
const COST_SAMPLES = 9;

/** Droplet steps, plus cell visits of the fold's grid passes over the region: a hydraulic batch's, or a local erosion event's. */
const dropletUnits = ({ params: p }: PlannedBatch): number => p.dropletCount * p.maxSteps + 2 * (p.regionX1 - p.regionX0) * (p.regionY1 - p.regionY0);

/** The vertices of a batch's patch. */
const patchCells = ({ params: p }: PlannedBatch): number => (p.patchX1 - p.patchX0) * (p.patchY1 - p.patchY0);

/** Each operator's work in a batch (`batchWorkUnits`): one row per operator, so a new one cannot fall to another's estimate. */
export const OPERATOR_WORK_UNITS = {
    hydraulic: dropletUnits,
    local: dropletUnits,
    edit: ({ params: p }) => (p.regionX1 - p.regionX0) * (p.regionY1 - p.regionY0),
    // One pass of a water step over the patch: about one thermal step's work.
    water: (planned) => patchCells(planned) * THERMAL_SLOTS,
    // Whole-field passes: the drainage-area steps, the routing hops and eight more (slots, erode, uplift, settle, the fold's).
    rivers: (planned) => (planned.riverSteps + planned.params.routeHops + 8) * patchCells(planned),
    thermal: (planned) => planned.thermalIterations * patchCells(planned) * THERMAL_SLOTS,
} satisfies Record<PlannedOperator, (planned: PlannedBatch) => number>;

/** Work in a batch, in units the cost model scales: droplet steps, plus cell visits of the grid passes. */
export function batchWorkUnits(planned: PlannedBatch): number {
    return OPERATOR_WORK_UNITS[planned.operator](planned);
}

/**
 * A running estimate of milliseconds per unit of work, one per operator: a unit of a droplet walk
 * and one of a water pass differ by an order of magnitude on some adapters, and one estimate for
 * both would swing with the frames (the pieces a costly batch is cut into are sized by it).
 */
export class FrameBudget {
    /** Each operator's last `COST_SAMPLES` measured milliseconds per unit, and their median. */
    private readonly _samples = new Map<PlannedBatch["operator"], number[]>();
    private readonly _msPerUnit = new Map<PlannedBatch["operator"], number>();
    /** The least piece of the last batch cut coarser than the budget asked (`noteLeastPiece`), or null. */
    private _leastPiece: { operator: PlannedBatch["operator"]; units: number; cycle: number } | null = null;
    /** Batches of the last frame planned (what a frame filled past the budget may at most double). */
    public lastFrameBatches = 0;

    /** @param initialMsPerUnit estimate before any measurement of an operator (a guess that its first frame corrects) */
    constructor(private readonly _initialMsPerUnit: number) {}

    /** Estimated cost of a batch, in milliseconds. */
    public estimateMs(planned: PlannedBatch): number {
        return batchWorkUnits(planned) * this.msPerUnit(planned.operator);
    }

    /** Whether a frame of `operator`'s has been measured (until then its batches run one a frame: `planFrame`). */
    public measured(operator: PlannedBatch["operator"]): boolean {
        return this._msPerUnit.has(operator);
    }

    /**
     * Current estimate of milliseconds per unit of `operator`'s work; for an operator not measured
     * yet, the costliest measured one's (a cautious guess: an optimistic one would pack a frame
     * with the first batches of a new operator, an erodeAt event's or the water's).
     */
    public msPerUnit(operator: PlannedBatch["operator"]): number {
        const measured = this._msPerUnit.get(operator);
        if (measured !== undefined) return measured;
        return this._msPerUnit.size > 0 ? Math.max(...this._msPerUnit.values()) : this._initialMsPerUnit;
    }

    /**
     * Notes that a batch of `cycle` could not be cut as finely as the budget asked: its least piece
     * did `units` of `operator`'s work. Until the end of the next cycle, frames of cheaper batches
     * are filled to that piece's cost (`floorMs`), so every frame costs about the same when no frame
     * can meet the budget (on a software adapter), rather than many tiny frames and a few far longer.
     */
    public noteLeastPiece(operator: PlannedBatch["operator"], units: number, cycle: number): void {
        this._leastPiece = { operator, units, cycle };
    }

    /**
     * What a frame may be filled to beyond the budget at `cycle`: the estimated cost of the least
     * piece noted in this cycle or the one before (`noteLeastPiece`), else 0.
     */
    public floorMs(cycle: number): number {
        const least = this._leastPiece;
        if (!least || cycle > least.cycle + 1) return 0;
        return least.units * this.msPerUnit(least.operator);
    }

    /**
     * Folds in a frame that did `units` of work in `measuredMs`, most of it `operator`'s (a frame
     * of several operators' batches is counted as its largest share's): the estimate is the median
     * cost per unit of the operator's last `COST_SAMPLES` frames.
     */
    public record(operator: PlannedBatch["operator"], units: number, measuredMs: number): void {
        if (units <= 0 || !(measuredMs > 0) || !Number.isFinite(measuredMs)) {
            return;
        }
        const samples = this._samples.get(operator) ?? [];
        samples.push(measuredMs / units);
        if (samples.length > COST_SAMPLES) samples.shift();
        this._samples.set(operator, samples);
        const sorted = [...samples].sort((a, b) => a - b);
        const middle = sorted.length >> 1;
        this._msPerUnit.set(operator, sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2);
    }
}

/** The operator with the most work units among `batches` (what a frame's measurement is counted as). */
export function mainOperator(batches: readonly PlannedBatch[]): PlannedBatch["operator"] | null {
    const units = new Map<PlannedBatch["operator"], number>();
    for (const planned of batches) units.set(planned.operator, (units.get(planned.operator) ?? 0) + batchWorkUnits(planned));
    let best: PlannedBatch["operator"] | null = null;
    for (const [operator, work] of units) if (best === null || work > units.get(best)!) best = operator;
    return best;
}
