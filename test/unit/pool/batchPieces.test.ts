/**
 * A whole-field batch (the rivers') cut into pieces run over several frames gives the integers of
 * the batch run whole, however it is cut: on one thread, on a worker pool sharing memory and on
 * one copying rows, on a plain and on a tileable terrain (whose seam comes with the last piece).
 * The WebGPU backend's pieces are shown in the browser (componentWebgpu.test.ts, the frame budgets).
 */
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { createInitialState, ErosionSchedule, fingerprintOf, type PlannedBatch } from "../../../plugin/advanced.js";
import { CpuErosionBackend, type CpuPoolChoice } from "../../../plugin/internal.js";

const OPTIONS: ErosionOptionsInput = { patchSize: 16, hydraulic: { dropletsPerBatch: 48 }, rivers: { enabled: true, stepsPerBatch: 5 }, thermal: { iterations: 2 } };

function planCycle(width: number, depth: number, options: ErosionOptionsInput): PlannedBatch[] {
    const schedule = new ErosionSchedule({ width, depth, cellSize: 1, worldScale: 1 }, resolveOptions(options));
    const batches: PlannedBatch[] = [];
    do {
        const planned = schedule.planNext();
        if (planned) batches.push(planned);
    } while (!schedule.advance());
    return batches;
}

/** Runs `batches`, each river batch in ranges of pieces ending at `cuts(total)` (whole when null). */
async function erode(width: number, depth: number, batches: readonly PlannedBatch[], pool: CpuPoolChoice, cuts: ((total: number) => number[]) | null) {
    const backend = await CpuErosionBackend.create(createInitialState(width, depth, heightsToFixed(generateNoiseTerrain({ width, depth, relief: 20, seed: 5 }))), false, pool);
    let ranges = 0;
    try {
        for (const planned of batches) {
            const total = backend.pieceCount(planned);
            if (planned.operator !== "rivers" || !cuts) {
                await backend.runFrame([planned], null);
                continue;
            }
            expect(total).toBeGreaterThan(1);
            let from = 0;
            for (const to of [...cuts(total), total]) {
                await backend.runFrame([planned], null, null, { from, to, total });
                from = to;
                ranges++;
            }
        }
        const state = await backend.readState(1, 0);
        const maps = await backend.readMaps();
        return { fingerprint: fingerprintOf(state), counters: [...state.counters], wear: maps.wear.reduce((sum, value) => sum + value, 0), ranges };
    } finally {
        backend.dispose();
    }
}

const everyPiece = (total: number) => Array.from({ length: total - 1 }, (_, index) => index + 1);
const twoCuts = (total: number) => [1, total - 1];

describe("a river batch in pieces", () => {
    it.each([
        ["one thread", { workers: 1, shared: false }],
        ["two workers sharing memory", { workers: 2, shared: true }],
        ["two workers copying rows", { workers: 2, shared: false }],
    ] as const)("gives the whole batch's terrain, counters and maps on %s, cut at every piece or at two", async (_name, pool) => {
        const batches = planCycle(45, 37, OPTIONS);
        const whole = await erode(45, 37, batches, pool, null);
        for (const cuts of [everyPiece, twoCuts]) {
            const pieced = await erode(45, 37, batches, pool, cuts);
            expect(pieced.ranges).toBeGreaterThan(2);
            expect({ fingerprint: pieced.fingerprint, counters: pieced.counters, wear: pieced.wear }).toEqual({ fingerprint: whole.fingerprint, counters: whole.counters, wear: whole.wear });
        }
    });

    it("gives the whole batch's terrain on a tileable terrain, whose rivers cross the seam (more phases: no walk)", async () => {
        const batches = planCycle(33, 33, { ...OPTIONS, tileable: true });
        const whole = await erode(33, 33, batches, { workers: 1, shared: false }, null);
        const pieced = await erode(33, 33, batches, { workers: 1, shared: false }, everyPiece);
        expect(pieced.ranges).toBeGreaterThan(10);
        expect(pieced.fingerprint).toBe(whole.fingerprint);
        expect(pieced.counters).toEqual(whole.counters);
    });
});
