/**
 * A rolling distribution of the component's erosion frames: the erosion time of each of the last
 * frames that ran erosion (the GPU's or the CPU worker's measured time, or the estimate where none
 * was measured) and the main-thread time the component spent on it (planning, recording, bringing
 * the changed rows back), with their median, 95th percentile and maximum. What the frame budget is
 * judged by: a hitch shows as a maximum far above the median.
 */
import type { ErosionFrameStats } from "./erosionEvents.js";

/** Median, 95th percentile and maximum of a series of frame times, milliseconds (0 with no frames). */
export interface FrameTimeSummary {
    readonly medianMs: number;
    readonly p95Ms: number;
    readonly maxMs: number;
}

/** What `frameStats` reports. */
export interface FrameStatsSummary {
    /** Erosion frames in the window (at most `FRAME_STATS_WINDOW`). */
    readonly frames: number;
    /** Each frame's erosion time: measured (GPU or CPU worker) where available, else estimated. */
    readonly erosion: FrameTimeSummary;
    /** Each rendered frame's main-thread time for erosion (`cpuMs + applyMs`: planning and issuing, rows applied), of the frames that did any. */
    readonly mainThread: FrameTimeSummary;
}

/** Erosion frames the window holds (about 4 s at 60 frames a second). */
export const FRAME_STATS_WINDOW = 240;

const NO_FRAMES: FrameTimeSummary = Object.freeze({ medianMs: 0, p95Ms: 0, maxMs: 0 });

function summarize(values: readonly number[]): FrameTimeSummary {
    if (values.length === 0) return NO_FRAMES;
    const sorted = [...values].sort((a, b) => a - b);
    const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
    return { medianMs: at(0.5), p95Ms: at(0.95), maxMs: sorted[sorted.length - 1] };
}

/** The last `FRAME_STATS_WINDOW` erosion frames. */
export class FrameStatsWindow {
    private readonly _erosion: number[] = [];
    private readonly _mainThread: number[] = [];

    /** Adds a frame that ran erosion (frames of no batch are not erosion frames): its erosion and main-thread times. */
    public record(frame: ErosionFrameStats): void {
        if (frame.batches === 0 && !frame.pieces) return;
        this.recordErosion(frame.measuredMs ?? frame.estimatedMs);
        this.recordMainThread(frame.cpuMs + frame.applyMs);
    }

    /** Adds a frame's erosion time (measured where available, else estimated), as it lands. */
    public recordErosion(ms: number): void {
        push(this._erosion, ms);
    }

    /** Adds a rendered frame's main-thread time for erosion (rows applied, the next work planned and issued). */
    public recordMainThread(ms: number): void {
        push(this._mainThread, ms);
    }

    /** Forgets every frame (after a change of budget or size, say). */
    public clear(): void {
        this._erosion.length = 0;
        this._mainThread.length = 0;
    }

    public get summary(): FrameStatsSummary {
        return { frames: this._erosion.length, erosion: summarize(this._erosion), mainThread: summarize(this._mainThread) };
    }
}

/** Appends to a window of at most `FRAME_STATS_WINDOW` values. */
function push(values: number[], value: number): void {
    values.push(value);
    if (values.length > FRAME_STATS_WINDOW) values.shift();
}
