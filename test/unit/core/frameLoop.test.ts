/**
 * The one frame loop (plugin/core/frameLoop.ts) the runner, the bake and CpuErosionSimulation take
 * their batches by: frames never pass a cycle boundary, a class frame holds one class, every batch
 * of a cycle is taken once and in order, and a cycle with nothing enabled completes in an empty frame.
 */
import { resolveOptions } from "../../../plugin/index.js";
import { ErosionSchedule, sameClass, takeFrame } from "../../../plugin/advanced.js";

const grid = { width: 97, depth: 97 };

describe("takeFrame", () => {
    it("takes each batch of a cycle once, in order, one class a frame, ending at the boundary", () => {
        const schedule = new ErosionSchedule(grid, resolveOptions({ patchSize: 24, rivers: { enabled: true } }));
        const perCycle = schedule.batchesPerCycle;
        const reference = new ErosionSchedule(grid, resolveOptions({ patchSize: 24, rivers: { enabled: true } }));
        const expected = Array.from({ length: perCycle }, () => {
            const planned = reference.planNext()!;
            reference.advance();
            return `${planned.group}:${planned.params.patchIndex}`;
        });
        const taken: string[] = [];
        let frames = 0;
        for (let completed = false; !completed; frames++) {
            const frame = takeFrame(schedule, sameClass);
            expect(new Set(frame.batches.map((planned) => planned.group)).size).toBe(1);
            taken.push(...frame.batches.map((planned) => `${planned.group}:${planned.params.patchIndex}`));
            completed = frame.cycleCompleted;
        }
        expect(taken).toEqual(expected);
        expect(frames).toBeLessThan(perCycle);
        expect(schedule.cycle).toBe(1);
        expect(schedule.batch).toBe(0);
    });

    it("takes the first batch whatever admit says, and stops a frame at the cycle boundary", () => {
        const schedule = new ErosionSchedule(grid, resolveOptions({ patchSize: 24 }));
        expect(takeFrame(schedule, () => false).batches).toHaveLength(1);
        expect(takeFrame(schedule, () => true, 2).batches).toHaveLength(2);
        const rest = takeFrame(schedule, () => true);
        expect(rest.cycleCompleted).toBe(true);
        expect(rest.batches).toHaveLength(schedule.batchesPerCycle - 3);
    });

    it("completes a cycle with nothing enabled in an empty frame", () => {
        const schedule = new ErosionSchedule(grid, resolveOptions({ hydraulic: { enabled: false }, thermal: { enabled: false }, rivers: { enabled: false } }));
        const frame = takeFrame(schedule, sameClass);
        expect(frame).toEqual({ batches: [], cycleCompleted: true });
        expect(schedule.cycle).toBe(1);
    });
});
