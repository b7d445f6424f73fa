/**
 * What the erosion component reports: the events its observables carry and the last frame's
 * statistics, shared by the behavior (`TerrainErosion`) and the runner under it (`ErosionRunner`).
 */
import type { ErosionStartup } from "./startupProgress.js";
import type { GridRect, OperatorName } from "../core/patches.js";
import type { PlannedBatch } from "../core/schedule.js";
import type { WaitKind } from "../core/waitWatch.js";

/** Emitted when a batch's results have reached the mesh. */
export interface PatchErodedEvent {
    /** Cycle the batch belonged to. */
    readonly cycle: number;
    /** Position of the batch in its cycle. */
    readonly batch: number;
    /** Patch index (row-major). */
    readonly patchIndex: number;
    /** The operator, "local" for an `erodeAt` event's batch, or "edit" for a ground edit's. */
    readonly operator: OperatorName | "local" | "edit";
    /** Vertices the batch may have changed. */
    readonly region: GridRect;
}

/** Emitted when a cycle's last batch has reached the mesh. */
export interface CycleCompletedEvent {
    /** Completed cycles, this one included. */
    readonly cyclesCompleted: number;
}

/** What stalled: a wait on the device or a worker that outlived `stallTimeoutMs`. */
export interface ErosionStall {
    /** What was awaited, e.g. `readBuffer TerrainErosion.heights (bytes 0-4096)` or `the CPU worker's reply to "frame"`. */
    readonly operation: string;
    /** The wait's kind: a readback, the GPU's submitted work, a worker's reply, a kernel's compile. */
    readonly wait: WaitKind;
    /** What erosion was doing: a frame's batches, a read, a recovery. */
    readonly during: string;
    /** Where the run stood (its stamp) when the wait began its last stretch: the cycle and the batch. */
    readonly cycle: number;
    readonly batch: number;
    /** How long it waited, milliseconds. */
    readonly waitedMs: number;
    /** Stalls in a row so far, this one included (erosion stops past `stallRetries`). */
    readonly inARow: number;
}

/** Emitted when something stops erosion or changes how it runs. */
export interface ErosionErrorEvent {
    /**
     * `"fallback"`: the WebGPU backend could not start (or the ground is too large for it) and the CPU
     * backend took over; `"deviceLost"`: the WebGPU device was lost and erosion stopped;
     * `"stalled"`: a wait on the device or a worker outlived `stallTimeoutMs` (`stall` says which)
     * and erosion is rebuilding its backend from the last checkpoint; `"recovered"`: erosion
     * resumed from the last checkpoint after the engine was restored or after a stall;
     * `"rejected"`: a change (from the Inspector, say) was refused; `"stopped"`: erosion stopped
     * (after more stalls in a row than `stallRetries`, `stall` is the last; `status` says why).
     */
    readonly kind: "fallback" | "deviceLost" | "stalled" | "recovered" | "rejected" | "stopped";
    readonly message: string;
    readonly error?: unknown;
    /** The stall, for `"stalled"` and a `"stopped"` that stalls ended. */
    readonly stall?: ErosionStall;
}

/** Where erosion stands (`status`): whether it runs, and why not when it stopped on its own. */
export interface ErosionStatus {
    /**
     * `"detached"`: not on a field; `"starting"`: the backend is starting; `"running"` or
     * `"paused"`; `"recovering"`: rebuilding after a device loss or a stall; `"stopped"`: erosion
     * stopped on its own (`reason` says why; reads still answer, from the last checkpoint after
     * stalls; `start()` tries again).
     */
    readonly state: "detached" | "starting" | "running" | "paused" | "recovering" | "stopped";
    /** Why erosion stopped or is recovering (the event's message), else null. */
    readonly reason: string | null;
    /** Stalls since the attach. */
    readonly stalls: number;
}

/** What the last frame did. */
export interface ErosionFrameStats {
    /** Batches run (0 while paused or at `maxCycles`: every figure is then 0 or null). */
    readonly batches: number;
    /** Estimated erosion cost, milliseconds. */
    readonly estimatedMs: number;
    /** Measured cost where available, milliseconds. */
    readonly measuredMs: number | null;
    /** How it was measured: GPU timestamp queries, GPU submit to work-done, or CPU compute time. */
    readonly measuredBy: "timestamp" | "submitted" | "cpu" | null;
    /** Main-thread time the component spent planning and recording the frame, milliseconds. */
    readonly cpuMs: number;
    /**
     * Main-thread time the component spent in this rendered frame bringing the grounds' CPU data up
     * to date with the changed rows that came back (positions, normals, height quads, picking data,
     * bounds, and on the CPU backend the vertex buffers' and maps textures' upload), a band at a time
     * within what the budget leaves after planning, milliseconds.
     */
    readonly applyMs: number;
    /**
     * Main-thread time spent handing the latest landed frame's batches to the CPU backend's worker,
     * milliseconds: posted in a task of its own after the rendered frame that planned them, so that
     * the worker it wakes does not take the core inside a frame (not in `cpuMs`; 0 on WebGPU and
     * without a worker).
     */
    readonly postMs: number;
    /**
     * The range of one whole-field batch's pieces the frame ran, when the budget could not hold the
     * batch in one frame (`batches` is then 1: the batch it runs part of), else null.
     */
    readonly pieces?: { readonly from: number; readonly to: number; readonly total: number } | null;
    /**
     * Erosion frames that have landed since the attach (the measured figures are the latest
     * one's): a sampler tells a new frame's figures from the same frame seen again by it.
     */
    readonly landed: number;
}

/** A frame that ran no erosion (before the first, paused, at `maxCycles`, detached). */
export const IDLE_FRAME: ErosionFrameStats = Object.freeze({
    batches: 0, estimatedMs: 0, measuredMs: null, measuredBy: null, cpuMs: 0, applyMs: 0, postMs: 0, landed: 0,
});

/** Where a runner reports what happened (the behavior turns these into its observables). */
export interface ErosionReports {
    patchEroded(event: PatchErodedEvent): void;
    cycleCompleted(event: CycleCompletedEvent): void;
    error(event: ErosionErrorEvent): void;
    /** A start's step (`StartupProgress`). */
    startup?(event: ErosionStartup): void;
}

/** Reports each batch whose results have reached the mesh. */
export function reportBatches(reports: ErosionReports, batches: readonly PlannedBatch[]): void {
    for (const planned of batches) {
        const p = planned.params;
        reports.patchEroded({
            cycle: planned.cycle,
            batch: planned.batch,
            patchIndex: planned.patch.index,
            operator: planned.operator,
            region: { x0: p.regionX0, y0: p.regionY0, x1: p.regionX1, y1: p.regionY1 },
        });
    }
}

/**
 * Frames whose changed rows may still be on their way back before the component stops starting new
 * work: the CPU copy of the mesh (getHeightAtCoordinates, picking, bounds) is never more than this
 * many frames behind the eroded terrain on screen, plus the frame that reads it back.
 */
export const MAX_FRAMES_IN_FLIGHT = 2;
