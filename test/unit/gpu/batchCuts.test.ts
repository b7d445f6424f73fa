/**
 * How the GPU cuts a batch the frame budget cannot hold (`cutBatch`): a droplet batch into ranges
 * of whole workgroups' droplets then its fold's passes, a river batch into bands of whole
 * workgroups' rows, each step covered once and in order, into about as many pieces as asked. The
 * integers of a cut batch are the whole batch's: gpuParity.test.ts ("in pieces"), in the browser.
 * And the frame budget learns each operator's cost apart, and cuts a batch by its estimate.
 */
import { resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { ErosionSchedule, type PlannedBatch } from "../../../plugin/advanced.js";
import { cutBatch, FrameBudget, mainOperator, MIN_PIECE_WORK, planFrame, type PieceStep } from "../../../plugin/internal.js";

function firstBatch(operator: PlannedBatch["operator"], options: ErosionOptionsInput, width = 129, depth = 97): PlannedBatch {
    const schedule = new ErosionSchedule({ width, depth, cellSize: 1, worldScale: 1 }, resolveOptions(options));
    for (;;) {
        const planned = schedule.planNext();
        if (planned?.operator === operator) return planned;
        schedule.advance();
    }
}

/** The steps of `pieces` in order, each pass's bands merged back, so that the whole batch's steps can be compared. */
function coverage(pieces: PieceStep[][]) {
    const droplets: [number, number][] = [];
    const passes: { kernel: string; rows: [number, number][] }[] = [];
    for (const step of pieces.flat()) {
        if (step.kind === "droplets") droplets.push([step.first, step.count]);
        if (step.kind === "pass") {
            const last = passes[passes.length - 1];
            // A new pass starts at row 0 (a kernel may run twice in a row: the routing hops alternate, so it does not).
            if (last && last.kernel === step.pass.kernel && step.rowOffset > 0) last.rows.push([step.rowOffset, step.rowCount]);
            else passes.push({ kernel: step.pass.kernel, rows: [[step.rowOffset, step.rowCount]] });
        }
        if (step.kind === "clip") passes.push({ kernel: "clip_delta", rows: [] });
    }
    return { droplets, passes };
}

describe("a batch cut into pieces on the GPU", () => {
    // Large enough that the pieces asked for are above the least a piece may be.
    const droplets = firstBatch("hydraulic", { patchSize: 64, hydraulic: { dropletsPerBatch: 160000 } });
    const rivers = firstBatch("rivers", { patchSize: 64, rivers: { enabled: true, stepsPerBatch: 9 } }, 2049, 1025);

    it("cuts a droplet batch into ranges of whole workgroups (64 droplets) covering every droplet once, then clip_delta and the fold", () => {
        const whole = cutBatch(droplets, 1);
        expect(whole).toHaveLength(1);
        for (const wanted of [2, 5, 12, 40]) {
            const pieces = cutBatch(droplets, wanted);
            const { droplets: ranges, passes } = coverage(pieces);
            let next = 0;
            for (const [first, count] of ranges) {
                expect(first).toBe(next);
                if (first + count < 160000) expect(count % 64).toBe(0);
                next = first + count;
            }
            expect(next).toBe(160000);
            expect(passes.map((pass) => pass.kernel)).toEqual(coverage(whole).passes.map((pass) => pass.kernel));
            // About as many pieces as asked (the droplets' ranges, and the fold's few).
            expect(pieces.length).toBeGreaterThanOrEqual(0.8 * wanted); // ranges rounded up to whole workgroups
            expect(pieces.length).toBeLessThanOrEqual(wanted + passes.length);
        }
        // However many are asked for, a range holds at least MIN_PIECE_WORK of walking (64 steps of
        // 2.5 units a droplet: 3,125 droplets, so 49 workgroups'), and a given piece work cuts finer.
        const least = coverage(cutBatch(droplets, 100_000)).droplets;
        expect(least.slice(0, -1).every(([, count]) => count === 3136)).toBe(true);
        expect(3136 * 64 * 2.5).toBeGreaterThanOrEqual(MIN_PIECE_WORK);
        // A default droplet batch (1,024 droplets) is less than that: never cut.
        expect(cutBatch(firstBatch("hydraulic", {}), 1000)).toHaveLength(1);
        expect(Math.max(...coverage(cutBatch(droplets, 1, 64 * 64 * 2.5)).droplets.map(([, count]) => count))).toBe(64);
    });

    it("cuts a river batch into bands of whole workgroups' rows covering every pass's rows once, in order", () => {
        const whole = coverage(cutBatch(rivers, 1)).passes;
        expect(whole.every((pass) => pass.rows.length === 1)).toBe(true);
        for (const wanted of [3, 17, 100]) {
            const pieces = cutBatch(rivers, wanted);
            const passes = coverage(pieces).passes;
            expect(passes.map((pass) => pass.kernel)).toEqual(whole.map((pass) => pass.kernel));
            passes.forEach((pass, index) => {
                let next = 0;
                for (const [offset, count] of pass.rows) {
                    expect(offset).toBe(next);
                    expect(offset % 8).toBe(0);
                    next = offset + count;
                }
                expect(next).toBe(whole[index].rows[0][1]);
            });
            expect(pieces.length).toBeGreaterThanOrEqual(wanted * 0.7);
            expect(pieces.length).toBeLessThanOrEqual(wanted * 2.5);
        }
    });

    it("leaves thermal batches whole, and ends a tileable terrain's last piece with its seam", () => {
        expect(cutBatch(firstBatch("thermal", {}), 20)).toHaveLength(1);
        const tileable = cutBatch(firstBatch("rivers", { patchSize: 32, tileable: true, rivers: { enabled: true } }, 65, 65), 6);
        expect(tileable.flat().filter((step) => step.kind === "seam")).toHaveLength(1);
        expect(tileable[tileable.length - 1].at(-1)).toEqual({ kind: "seam" });
    });
});

describe("the frame budget", () => {
    it("learns each operator's cost apart, a frame counted as its largest share's", () => {
        const budget = new FrameBudget(1e-4);
        const droplets = firstBatch("hydraulic", {});
        const thermal = firstBatch("thermal", {});
        for (let frame = 0; frame < 20; frame++) {
            budget.record("hydraulic", 1000, 10);
            budget.record("thermal", 1000, 1);
        }
        expect(budget.msPerUnit("hydraulic")).toBeGreaterThan(5 * budget.msPerUnit("thermal"));
        // Not measured yet: the costliest measured operator's estimate.
        expect(budget.msPerUnit("water")).toBe(budget.msPerUnit("hydraulic"));
        expect(new FrameBudget(1e-4).msPerUnit("water")).toBe(1e-4);
        expect(mainOperator([thermal, droplets])).toBe("hydraulic");
        expect(mainOperator([])).toBeNull();
    });

    it("cuts a lone batch the budget cannot hold into as many pieces as its estimate over the budget", () => {
        const schedule = new ErosionSchedule({ width: 129, depth: 129, cellSize: 1, worldScale: 1 }, resolveOptions({ patchSize: 64 }));
        const budget = new FrameBudget(1e-3);
        const asked: number[] = [];
        const frame = planFrame(schedule, budget, 4, { pieceCount: (_planned, wanted) => {
            asked.push(wanted);
            return wanted;
        } });
        expect(frame.batches).toHaveLength(1);
        expect(asked).toEqual([Math.ceil(frame.estimatedMs / 4)]);
        expect(frame.pieceCount).toBe(asked[0]);
    });

    it("fills frames of cheap batches to three quarters of the least piece's cost when no frame can meet the budget, at most doubling the batches a frame", () => {
        // Thermal only: every batch one patch, each estimated at 1 ms against a 0.5 ms budget.
        const options = resolveOptions({ patchSize: 16, hydraulic: { enabled: false }, rivers: { enabled: false } });
        const schedule = new ErosionSchedule({ width: 129, depth: 129, cellSize: 1, worldScale: 1 }, options);
        const thermal = firstBatch("thermal", { patchSize: 16, hydraulic: { enabled: false }, rivers: { enabled: false } });
        const budget = new FrameBudget(1 / 16 / 16 / 8 / options.thermal.iterations);
        const batchMs = budget.estimateMs(thermal);
        // Not measured yet: a batch a frame, whatever the budget (an unbounded frame, `runCycles`', to the cycle's end).
        expect(planFrame(schedule, budget, 100 * batchMs).batches).toHaveLength(1);
        expect(planFrame(new ErosionSchedule({ width: 129, depth: 129, cellSize: 1, worldScale: 1 }, options), new FrameBudget(1), Infinity).cycleCompleted).toBe(true);
        budget.record("thermal", 1000, 1000 * budget.msPerUnit("thermal"));
        expect(planFrame(schedule, budget, 5.5 * batchMs).batches).toHaveLength(5);
        const plan = (evenFrames = true) => planFrame(schedule, budget, 0.5 * batchMs, { evenFrames }).batches.length;
        expect([plan(), plan()]).toEqual([1, 1]);
        // A batch of this cycle whose least piece costs 14 batches' worth: frames are filled to three quarters of it.
        budget.noteLeastPiece("thermal", 14 * (budget.estimateMs(thermal) / budget.msPerUnit("thermal")), schedule.cycle);
        expect(budget.floorMs(schedule.cycle)).toBeCloseTo(14 * batchMs);
        expect([plan(), plan(), plan(), plan()]).toEqual([3, 7, 10, 10]);
        // Not for a backend that erodes beside the rendering (the CPU backend's worker).
        expect(plan(false)).toBe(1);
        // Until the end of the next cycle only.
        expect(budget.floorMs(schedule.cycle + 1)).toBeCloseTo(14 * batchMs);
        expect(budget.floorMs(schedule.cycle + 2)).toBe(0);
    });
});
