/** The rolling distribution of erosion frames behind `frameStats`: median, 95th percentile, maximum, a window of the last 240. */
import { FRAME_STATS_WINDOW } from "../../../plugin/index.js";
import { FrameStatsWindow } from "../../../plugin/internal.js";

const frame = (erosionMs: number, measured = true) => ({ batches: 1, estimatedMs: 99, measuredMs: measured ? erosionMs : null, measuredBy: null, cpuMs: erosionMs / 10, applyMs: 0.5, postMs: 0, landed: 1 });

describe("FrameStatsWindow", () => {
    it("summarises the last frames that ran erosion: median, 95th percentile and maximum", () => {
        const window = new FrameStatsWindow();
        expect(window.summary).toEqual({ frames: 0, erosion: { medianMs: 0, p95Ms: 0, maxMs: 0 }, mainThread: { medianMs: 0, p95Ms: 0, maxMs: 0 } });
        for (let ms = 1; ms <= 100; ms++) window.record(frame(ms));
        window.record({ ...frame(500), batches: 0 }); // no batches: not an erosion frame
        expect(window.summary.frames).toBe(100);
        expect(window.summary.erosion).toEqual({ medianMs: 50, p95Ms: 95, maxMs: 100 });
        expect(window.summary.mainThread).toEqual({ medianMs: 5.5, p95Ms: 10, maxMs: 10.5 });
        // An unmeasured frame counts its estimate.
        window.record(frame(7, false));
        expect(window.summary.erosion.maxMs).toBe(100);
        expect(window.summary.frames).toBe(101);
    });

    it("keeps only the last 240 frames: an old hitch leaves the window", () => {
        const window = new FrameStatsWindow();
        window.record(frame(1000));
        for (let k = 0; k < FRAME_STATS_WINDOW - 1; k++) window.record(frame(2));
        expect(window.summary.erosion.maxMs).toBe(1000);
        window.record(frame(2));
        expect(window.summary).toMatchObject({ frames: FRAME_STATS_WINDOW, erosion: { medianMs: 2, p95Ms: 2, maxMs: 2 } });
        window.clear();
        expect(window.summary.frames).toBe(0);
    });
});
