/**
 * The independent-class schedule (contract version 5): a class's batches cannot reach each other,
 * so on the CPU reference they give one terrain in schedule order, in reverse and shuffled, while
 * batches of different classes do not commute (the check can tell an order that matters).
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { batchExtent, buildBatchParams, extentsMeet, type PlannedBatch } from "../../../plugin/advanced.js";

/** Every batch of one cycle, planned in schedule order (the simulation is not advanced). */
function planCycle(simulation: CpuErosionSimulation): PlannedBatch[] {
    const planned: PlannedBatch[] = [];
    for (let i = 0; i < simulation.schedule.batchesPerCycle; i++) {
        planned.push(simulation.schedule.planNext()!);
        simulation.schedule.advance();
    }
    return planned;
}

/** The runs of consecutive batches of one class. */
function classesOf(planned: readonly PlannedBatch[]): PlannedBatch[][] {
    const classes: PlannedBatch[][] = [];
    for (const batch of planned) {
        const last = classes[classes.length - 1];
        if (last && last[0].group === batch.group) last.push(batch);
        else classes.push([batch]);
    }
    return classes;
}

/** A deterministic shuffle (a small LCG). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
    const result = [...items];
    let state = seed;
    for (let i = result.length - 1; i > 0; i--) {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        const j = state % (i + 1);
        [result[i], result[j]] = [result[j], result[i]];
    }
    return result;
}

/** The fingerprint after one cycle whose batches run in the order `arrange` gives them. */
function fingerprintWith(width: number, depth: number, options: ErosionOptionsInput, arrange: (planned: PlannedBatch[]) => PlannedBatch[]): string {
    const heights = heightsToFixed(generateNoiseTerrain({ width, depth, relief: 25, seed: 8 }));
    const simulation = new CpuErosionSimulation(width, depth, heights, resolveOptions(options));
    for (const batch of arrange(planCycle(simulation))) simulation.runPlannedBatch(batch);
    return simulation.fingerprint();
}

const CASES: { name: string; width: number; depth: number; options: ErosionOptionsInput }[] = [
    { name: "97 x 81, patches of 8, short walks", width: 97, depth: 81, options: { patchSize: 8, seed: 3, hydraulic: { dropletsPerBatch: 40, maxSteps: 6, brushRadius: 2 }, thermal: { talus: 0.3 } } },
    { name: "tileable 81 x 81, patches of 8 (classes apart across the seam)", width: 81, depth: 81, options: { patchSize: 8, seed: 5, tileable: true, hydraulic: { dropletsPerBatch: 40, maxSteps: 6 }, thermal: { talus: 0.3 } } },
];

describe("independent classes", () => {
    it.each(CASES)("never put two batches that can reach each other in one class: $name", ({ width, depth, options }) => {
        const resolved = resolveOptions(options);
        const simulation = new CpuErosionSimulation(width, depth, new Int32Array(width * depth), resolved);
        const grid = { width, depth, torus: resolved.tileable };
        let pairs = 0;
        for (const members of classesOf(planCycle(simulation))) {
            const extents = members.map((batch) => batchExtent(buildBatchParams(resolved, { width, depth }, batch.patch, batch.operator as "hydraulic" | "thermal" | "rivers", 0, 0)));
            for (let a = 0; a < extents.length; a++) {
                for (let b = a + 1; b < extents.length; b++) {
                    pairs++;
                    expect(extentsMeet(extents[a], extents[b], grid)).toBe(false);
                }
            }
        }
        expect(pairs).toBeGreaterThan(20);
    });

    it("cover every patch once per operator, the rivers once over the whole field, with 16 droplet and 4 thermal classes at the defaults on 513 x 513", () => {
        const simulation = new CpuErosionSimulation(513, 513, new Int32Array(513 * 513), resolveOptions({}));
        const units = simulation.schedule.units;
        const groupsOf = (operator: string) => new Set(units.filter((unit) => unit.operator === operator).map((unit) => unit.group)).size;
        expect(groupsOf("hydraulic")).toBe(16);
        expect(groupsOf("thermal")).toBe(4);
        expect(units.filter((unit) => unit.operator === "rivers").map((unit) => unit.patch)).toEqual([{ index: 0, x0: 0, y0: 0, x1: 513, y1: 513 }]);
        expect(units.filter((unit) => unit.operator === "hydraulic").map((unit) => unit.patch.index).sort((a, b) => a - b)).toEqual(Array.from({ length: 64 }, (_, i) => i));
    });

    it.each(CASES)("give one terrain in schedule order, reversed and shuffled within each class: $name", ({ width, depth, options }) => {
        const inOrder = fingerprintWith(width, depth, options, (planned) => planned);
        const reversed = fingerprintWith(width, depth, options, (planned) => classesOf(planned).flatMap((members) => [...members].reverse()));
        const shuffledWithin = fingerprintWith(width, depth, options, (planned) => classesOf(planned).flatMap((members, index) => shuffled(members, index + 1)));
        expect(reversed).toBe(inOrder);
        expect(shuffledWithin).toBe(inOrder);
        // Two different classes swapped: the order matters there, and the fingerprint says so.
        const swappedClasses = fingerprintWith(width, depth, options, (planned) => {
            const classes = classesOf(planned);
            [classes[0], classes[1]] = [classes[1], classes[0]];
            return classes.flat();
        });
        expect(swappedClasses).not.toBe(inOrder);
    });
});
