/**
 * The frame budget on a software renderer (issue 61: the 129² water page ran one water batch a
 * frame, a cycle in 6 minutes on WebGPU and 4 on the CPU backend): the cost estimate is the median
 * of the last frames, so a frame that measured the render beside it (1.1-1.3 s on SwiftShader, one
 * in five) does not hold the estimate up for dozens of frames; and where the rendered frames come
 * slower than 10 a second, erosion's batches take the budget's share of a 60 Hz frame of each.
 */
import { resolveOptions } from "../../../plugin/index.js";
import { ErosionSchedule } from "../../../plugin/advanced.js";
import { FrameBudget, FramePace, MAX_FRAME_SHARE, planFrame, REFERENCE_FRAME_MS, SLOW_FRAME_MS } from "../../../plugin/internal.js";

/** A pace of rendered frames `intervalMs` apart. */
function paceOf(...intervals: number[]): FramePace {
    const pace = new FramePace();
    let now = 1000;
    pace.noteFrame(now);
    for (const interval of intervals) pace.noteFrame((now += interval));
    return pace;
}

describe("the frame budget on slow frames", () => {
    it("keeps the budget while frames come faster than 10 a second, and gives a slow frame the budget's share of a 60 Hz frame (at most half)", () => {
        expect(new FramePace().batchBudgetMs(2)).toBe(2);
        expect(paceOf(16.7, 16.7, 50, SLOW_FRAME_MS).batchBudgetMs(2)).toBe(2);
        expect(paceOf(1000, 1000, 1000).batchBudgetMs(2)).toBeCloseTo((2 / REFERENCE_FRAME_MS) * 1000);
        expect(paceOf(1000, 1000, 1000).batchBudgetMs(4)).toBeCloseTo(240);
        expect(paceOf(1000, 1000, 1000).batchBudgetMs(16)).toBe(MAX_FRAME_SHARE * 1000);
        // A budget over the share stays (a share is never less than the budget).
        expect(paceOf(200, 200, 200).batchBudgetMs(150)).toBe(150);
        expect(paceOf(1000).batchBudgetMs(Infinity)).toBe(Infinity);
    });

    it("takes the pace as the median of the last frames, and forgets it on reset", () => {
        // One frame held up by a compile does not make the pace slow; a run of slow frames does.
        expect(paceOf(20, 20, 20, 20, 3000, 20, 20).intervalMs).toBe(20);
        expect(paceOf(20, 20, 20, 20, 20, 20, 20, 20, 20, 1200, 1200, 1200, 1200, 1200).intervalMs).toBe(1200);
        const pace = paceOf(1000, 1000, 1000);
        pace.reset();
        expect(pace.intervalMs).toBe(0);
        expect(pace.batchBudgetMs(2)).toBe(2);
    });

    it("estimates a batch's cost by the median of the last frames: a frame in five that measured the render beside it leaves the estimate", () => {
        const budget = new FrameBudget(1e-4);
        const units = 64 * 64 * 8;
        // SwiftShader's water frames at 129² (measured): 15-30 ms a batch, with 1.1-1.3 s now and then.
        const measured = [18.9, 1201, 20.6, 1268, 20.7, 21.8, 1154, 24.9, 19, 31.2, 13.7];
        for (const ms of measured) budget.record("water", units, ms);
        // The last nine: 20.6, 1268, 20.7, 21.8, 1154, 24.9, 19, 31.2, 13.7 (median 21.8).
        expect(budget.msPerUnit("water") * units).toBeCloseTo(21.8);
    });

    it("runs several water batches in a frame of a page drawing one frame a second, where it ran one batch a frame", () => {
        const options = resolveOptions({ water: { enabled: true } });
        const grid = { width: 129, depth: 129, cellSize: 1, worldScale: 1 };
        const budget = new FrameBudget(1e-4);
        // A water batch over a 64-cell patch measured at 20 ms (SwiftShader's WebGPU at 129²).
        budget.record("water", 64 * 64 * 8, 20);
        const fast = planFrame(new ErosionSchedule(grid, options), budget, new FramePace().batchBudgetMs(2));
        expect(fast.batches).toHaveLength(1);
        const slow = planFrame(new ErosionSchedule(grid, options), budget, paceOf(1000, 1000, 1000).batchBudgetMs(2));
        // 120 ms of 20 ms batches (the patches at the field's far edges are a vertex wider).
        expect(slow.batches.length).toBeGreaterThanOrEqual(5);
        expect(slow.batches.every((planned) => planned.operator === "water")).toBe(true);
    });
});
