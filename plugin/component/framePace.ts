/**
 * How long the rendered frames take, and what that makes of the frame budget for erosion's batches.
 *
 * `frameBudgetMs` is erosion's time in a frame of a page that renders at 60 frames a second, where
 * a frame's 16.7 ms hold it many times over. On a software renderer (SwiftShader, llvmpipe) a frame
 * of a small scene takes a second or more, and a cycle at the budget took hundreds of them: the 129²
 * water page of issue 61 ran one water batch a frame, 6 minutes a cycle on WebGPU (a batch's GPU
 * time, 20 ms, already 5 times the budget) and 4 on the CPU backend. So where the frames come slower
 * than `SLOW_FRAME_MS`, erosion's batches take the share of each frame the budget is of a 60 Hz
 * frame, at most `MAX_FRAME_SHARE` of it: the frames get longer by that share at most (WebGPU's
 * batches take turns with the rendering; the CPU backend's worker erodes beside it), and erosion
 * keeps the share of the time it has at 60 frames a second rather than a sixtieth of it. The budget
 * only decides how the batches are cut into frames, never what they compute.
 */

/** A frame at 60 frames a second, milliseconds: what `frameBudgetMs` is a share of. */
export const REFERENCE_FRAME_MS = 1000 / 60;
/** Frames slower than this (under 10 a second) are a software renderer's, or a page that struggles: erosion then keeps its share of them. */
export const SLOW_FRAME_MS = 100;
/** The largest share of a slow frame erosion's batches take, however large the budget. */
export const MAX_FRAME_SHARE = 0.5;
/** Rendered frames whose median interval is the pace (a frame held up by a stall or a compile is one of them, not the pace). */
const PACE_FRAMES = 9;

/** The pace of the rendered frames (the intervals between `noteFrame` calls) and the budget it gives erosion's batches. */
export class FramePace {
    private readonly _intervals: number[] = [];
    private _last: number | null = null;

    /** Notes a rendered frame at `now` (milliseconds, `performance.now()`). */
    public noteFrame(now: number): void {
        if (this._last !== null) {
            this._intervals.push(now - this._last);
            if (this._intervals.length > PACE_FRAMES) this._intervals.shift();
        }
        this._last = now;
    }

    /** Forgets the frames so far (erosion paused or stopped: the frames between do not count). */
    public reset(): void {
        this._intervals.length = 0;
        this._last = null;
    }

    /** The median interval of the last frames, milliseconds, or 0 before any. */
    public get intervalMs(): number {
        if (this._intervals.length === 0) return 0;
        const sorted = [...this._intervals].sort((a, b) => a - b);
        return sorted[sorted.length >> 1];
    }

    /**
     * The budget for erosion's batches in the next frame: `budgetMs` while frames come faster than
     * `SLOW_FRAME_MS`; slower, the share of a frame `budgetMs` is of `REFERENCE_FRAME_MS` (at most
     * `MAX_FRAME_SHARE`), if that is more.
     */
    public batchBudgetMs(budgetMs: number): number {
        const interval = this.intervalMs;
        if (interval <= SLOW_FRAME_MS || !Number.isFinite(budgetMs)) return budgetMs;
        return Math.max(budgetMs, Math.min(budgetMs / REFERENCE_FRAME_MS, MAX_FRAME_SHARE) * interval);
    }
}
