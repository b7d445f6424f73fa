/**
 * What the CPU worker pool's members do: tasks (a batch of a class, or a band of a river batch's
 * phase), the messages that carry them, and the rows and grids each task reads (what a member
 * without shared memory must be sent).
 */
import type { BatchParams } from "../../core/batchParams.js";
import { RIVER_READ_MARGIN, RiverBandWork, runRiverPhase, type RiverPhase } from "../../core/cpu/riverPhases.js";
import type { RowRange } from "../../core/cpu/rowBands.js";
import type { CpuBatchRunner } from "../../core/cpuBatchRunner.js";
import { STATE_GRIDS, type ErosionMasks } from "../../core/erosionState.js";
import { READ_MARGIN } from "../../core/independentClasses.js";
import type { PlannedBatch } from "../../core/schedule.js";
import { WATER_GRIDS } from "../../core/waterModel.js";
import type { CellChanges } from "./poolGrids.js";

/** A batch as a task travels: without its masks (members keep the cycle's, sent once). */
export type PooledBatch = Omit<PlannedBatch, "masks">;

/** One member's share of a phase. */
export type PoolTask = { readonly kind: "batch"; readonly planned: PooledBatch } | { readonly kind: "river"; readonly params: BatchParams; readonly phase: RiverPhase; readonly rows: RowRange };

/** The rows of every grid a member without shared memory is sent for a phase, and their cells (`copyRows`). */
export interface PhaseWindow {
    readonly rows: readonly RowRange[];
    readonly grids: Readonly<Record<string, Int32Array>>;
}

/** A message to a pool member. Only "phase" is answered. */
export type PoolRequest =
    | { readonly type: "init"; readonly width: number; readonly depth: number; readonly shared: boolean; readonly sync: Int32Array | null }
    | { readonly type: "grids"; readonly grids: Readonly<Record<string, Int32Array | Uint32Array>> }
    | { readonly type: "masks"; readonly masks: ErosionMasks }
    | { readonly type: "phase"; readonly tasks: readonly PoolTask[]; readonly window: PhaseWindow | null };

/** A member's answer to a phase: what it added to the counters and, without shared memory, the cells it changed. */
export type PoolReply = { readonly type: "done"; readonly counters: Float64Array; readonly changes: Readonly<Record<string, CellChanges>> | null } | { readonly type: "error"; readonly message: string };

/** The rows a task reads: what it writes and the margin its kernels read beyond (all rows where a river batch wraps). */
export function taskReadRows(task: PoolTask, depth: number): RowRange {
    if (task.kind === "river") {
        return task.params.wrap !== 0 ? { y0: 0, y1: depth } : { y0: task.rows.y0 - RIVER_READ_MARGIN, y1: task.rows.y1 + RIVER_READ_MARGIN };
    }
    const p = task.planned.params;
    return { y0: Math.min(p.regionY0, p.extentY0, p.patchY0) - READ_MARGIN, y1: Math.max(p.regionY1, p.extentY1, p.patchY1) + READ_MARGIN };
}

const MAPS = ["mapWater", "mapWear", "mapDeposition"];

/** What each river phase reads or writes (a member without shared memory is sent these). */
function riverPhaseGrids(phase: RiverPhase): string[] {
    switch (phase.kind) {
        case "slots":
            return ["heights", "fillLevels", "riverSlots"];
        case "area":
            return ["riverSlots", "drainageArea", "areaNext"];
        case "copyArea":
            return ["drainageArea", "areaNext"];
        case "cut":
            return ["heights", "fillLevels", "drainageArea", "riverSlots", "eroded"];
        case "erode":
            return ["heights", "fillLevels", "drainageArea", "riverSlots", "eroded", "suspended", "riverDelta", "routed"];
        case "hop":
            return ["heights", "fillLevels", "riverSlots", "riverDelta", "suspended", "routed", "routedNext"];
        case "apply":
            return ["heights", "riverDelta", ...MAPS];
        case "levels":
            return ["heights", "fillLevels"];
        case "copyLevels":
            return ["fillLevels", "routed", "routedNext"];
    }
}

/** The grids a task reads or writes. */
export function taskGrids(task: PoolTask): string[] {
    if (task.kind === "river") return riverPhaseGrids(task.phase);
    const grids: string[] = [...STATE_GRIDS, ...MAPS];
    if (task.planned.operator === "water") grids.push(...WATER_GRIDS);
    return grids;
}

/** A pool member's kernels: a runner over its grids (shared or its own copies) and its river band's work. */
export class PoolMember {
    private readonly _work: RiverBandWork;

    constructor(public readonly runner: CpuBatchRunner) {
        this._work = new RiverBandWork(runner.state.width * runner.state.depth);
    }

    /** Runs a task with the cycle's `masks`, adding to the runner's counters. */
    public run(task: PoolTask, masks: ErosionMasks): void {
        if (task.kind === "batch") {
            this.runner.runKernels({ ...task.planned, masks });
            return;
        }
        const runner = this.runner;
        runRiverPhase(task.phase, task.rows, { params: task.params, state: runner.state, masks, scratch: runner.riverScratch(), work: this._work, counters: runner.state.counters, maps: runner.maps });
    }
}
