/**
 * What the CPU worker pool's members do: tasks (a batch of a class, or a band of a river batch's
 * phase), the messages that carry them, and the rows and grids each task reads (what a member
 * without shared memory must be sent).
 */
import type { BatchParams } from "../../core/batchParams.js";
import { type RiverPhase, type RowRange, runRiverPhase } from "../../kernels/index.js";
import type { CpuBatchRunner } from "../cpuBatchRunner.js";
import type { ErosionMasks } from "../../core/erosionState.js";
import { READ_MARGIN } from "../../core/independentClasses.js";
import type { PlannedBatch } from "../../core/schedule.js";
import type { PlannedOperator } from "../../core/plannedBatch.js";
import { WATER_CARRIED_GRIDS } from "../../core/waterModel.js";
import { MATERIAL_GRIDS } from "../../core/materials.js";
import type { CellChanges } from "./poolGrids.js";

/** A batch as a task travels: without its masks (members keep the cycle's, sent once). */
export type PooledBatch = Omit<PlannedBatch, "masks">;

/** One member's share of a phase. */
export type PoolTask =
    | { readonly kind: "batch"; readonly planned: PooledBatch }
    | { readonly kind: "river"; readonly params: BatchParams; readonly phase: RiverPhase; readonly rows: RowRange };

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
export type PoolReply =
    | { readonly type: "done"; readonly counters: Float64Array; readonly changes: Readonly<Record<string, CellChanges>> | null }
    | { readonly type: "error"; readonly message: string };

/** The rows a batch task reads: what it writes and the margin its kernels read beyond. */
export function taskReadRows(task: Extract<PoolTask, { kind: "batch" }>): RowRange {
    const p = task.planned.params;
    return { y0: Math.min(p.regionY0, p.extentY0, p.patchY0) - READ_MARGIN, y1: Math.max(p.regionY1, p.extentY1, p.patchY1) + READ_MARGIN };
}

const MAPS = ["mapWater", "mapWear", "mapDeposition"];

/** The droplets' grids: the walk, and the fold (clip, routing, apply, fill levels). */
const DROPLET_GRIDS = ["heights", "fillLevels", "suspended", ...MAPS];

/**
 * Each operator's grids a member is sent, without the materials'. An edit and a river batch run on
 * the coordinator (`CPU_OPERATORS[operator].pool`), so theirs are never asked for: the droplets'
 * stand in, as the default of the switch this table replaced gave them.
 */
const TASK_GRIDS = {
    // The channel rule reads the drainage area and suspended load.
    thermal: ["heights", "drainageArea", "suspended", ...MAPS],
    water: ["heights", "fillLevels", ...WATER_CARRIED_GRIDS, ...MAPS],
    hydraulic: DROPLET_GRIDS,
    local: DROPLET_GRIDS,
    rivers: DROPLET_GRIDS,
    edit: DROPLET_GRIDS,
} satisfies Record<PlannedOperator, readonly string[]>;

/** The grids a batch task reads or writes (a member without shared memory is sent these; river batches then run on the coordinator). */
export function taskGrids(task: Extract<PoolTask, { kind: "batch" }>): string[] {
    const materials = task.planned.params.materials !== 0 ? MATERIAL_GRIDS : [];
    return [...TASK_GRIDS[task.planned.operator], ...materials];
}

/** A pool member's kernels: a runner over its grids (shared or its own copies) and its river band's work. */
export class PoolMember {
    constructor(public readonly runner: CpuBatchRunner) {}

    /** Runs a task with the cycle's `masks`, adding to the runner's counters. */
    public run(task: PoolTask, masks: ErosionMasks): void {
        if (task.kind === "batch") {
            this.runner.runKernels({ ...task.planned, masks });
            return;
        }
        const runner = this.runner;
        runRiverPhase(task.phase, task.rows, {
            params: task.params,
            state: runner.state,
            masks,
            scratch: runner.riverScratch(),
            work: runner.riverWork(),
            counters: runner.state.counters,
            maps: runner.maps,
        });
    }
}
