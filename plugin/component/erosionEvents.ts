/**
 * What the erosion component reports: the events its observables carry and the last frame's
 * statistics, shared by the behavior (`TerrainErosion`) and the runner under it (`ErosionRunner`).
 */
import type { ErosionStartup } from "./startupProgress.js";
import type { GridRect, OperatorName } from "../core/patches.js";
import type { PlannedBatch } from "../core/schedule.js";

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

/** Emitted when something stops erosion or changes how it runs. */
export interface ErosionErrorEvent {
    /**
     * `"fallback"`: the WebGPU backend could not start (or the ground is too large for it) and the CPU
     * backend took over; `"deviceLost"`: the WebGPU device was lost and erosion stopped;
     * `"recovered"`: erosion resumed from the last checkpoint after the engine was restored;
     * `"rejected"`: a change (from the Inspector, say) was refused; `"stopped"`: erosion stopped.
     */
    readonly kind: "fallback" | "deviceLost" | "recovered" | "rejected" | "stopped";
    readonly message: string;
    readonly error?: unknown;
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
export const IDLE_FRAME: ErosionFrameStats = Object.freeze({ batches: 0, estimatedMs: 0, measuredMs: null, measuredBy: null, cpuMs: 0, applyMs: 0, postMs: 0, landed: 0 });

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
