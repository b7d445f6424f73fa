/**
 * The per-batch bounds at work (docs/simulation.md, "What one batch may move"), on the CPU reference (bit-identical to the GPU): 100 batches of 10k
 * droplets on 128^2 stay bounded and do not swing, and rain behaves as a sampling density.
 * Sizes are pinned: each run here is 30-50 M droplet steps.
 */
import { CpuErosionSimulation, fixedToHeights, heightsToFixed, resolveOptions } from "../../../plugin/index.js";
import { generateCone, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { conservedMass } from "../../../plugin/advanced.js";
import { ACCUMULATOR_LIMIT } from "../../../plugin/internal.js";
import { boxBlur3, pearson } from "../../helpers/erosionMetrics.js";

const N = 128;
const RELIEF = 100;
const hydraulicOnly = (dropletsPerBatch: number) => resolveOptions({ patchSize: N, thermal: { enabled: false }, hydraulic: { dropletsPerBatch } });

describe.each([
    ["noise terrain", () => generateNoiseTerrain({ width: N, depth: N, relief: RELIEF })],
    ["steep cone", () => generateCone(N, N, RELIEF, 60)],
])("100 batches of 10k droplets on 128^2 %s", (_name, terrain) => {
    it("never wraps, never leaves the initial range, conserves mass, and no cell swings back by more than 1% of the relief", () => {
        const initial = heightsToFixed(terrain());
        const simulation = new CpuErosionSimulation(N, N, initial, hydraulicOnly(10000));
        const mass = conservedMass(simulation.state);
        const swingLimit = 0.01 * RELIEF * 65536;
        let low = Infinity;
        let high = -Infinity;
        for (const value of initial) {
            low = Math.min(low, value);
            high = Math.max(high, value);
        }
        let previous = initial.slice();
        let previousChange = new Int32Array(N * N);
        let worstSwing = 0;
        let outOfRange = 0;
        let suspendedTooLarge = 0;
        for (let batch = 0; batch < 100; batch++) {
            simulation.runBatch();
            const heights = simulation.state.heights;
            const change = new Int32Array(N * N);
            for (let i = 0; i < heights.length; i++) {
                change[i] = heights[i] - previous[i];
                // A swing: the cell moves one way, then back; its size is how much of the previous
                // batch's move the next one undoes (the smaller of the two moves).
                if (batch >= 10 && Math.sign(change[i]) * Math.sign(previousChange[i]) < 0) {
                    worstSwing = Math.max(worstSwing, Math.min(Math.abs(change[i]), Math.abs(previousChange[i])));
                }
                if (heights[i] < low || heights[i] > high) outOfRange++;
                if (Math.abs(simulation.state.suspended[i]) >= ACCUMULATOR_LIMIT) suspendedTooLarge++;
            }
            previous = heights.slice();
            previousChange = change;
        }
        expect(outOfRange).toBe(0);
        expect(suspendedTooLarge).toBe(0);
        expect(worstSwing).toBeLessThanOrEqual(swingLimit);
        expect(conservedMass(simulation.state)).toBe(mass);
        expect(fixedToHeights(simulation.state.heights).every(Number.isFinite)).toBe(true);
        expect(simulation.state.counters[3]).toBeGreaterThan(100 * 10000 * 5); // the droplets really walked
    });
});

describe("rain is a sampling density (the droplets' share)", () => {
    it("30 batches at 2k and at 20k droplets move the same material within 10% with correlated erosion-depth maps", () => {
        // Both densities are above the share's threshold: interior cells / maxSteps = 127^2 / 64 = 252 droplets.
        const initial = heightsToFixed(generateNoiseTerrain({ width: N, depth: N, relief: RELIEF }));
        const runs = [2000, 20000].map((droplets) => {
            const simulation = new CpuErosionSimulation(N, N, initial, hydraulicOnly(droplets));
            for (let batch = 0; batch < 30; batch++) simulation.runBatch();
            const depth = new Float64Array(N * N);
            let moved = 0;
            for (let i = 0; i < depth.length; i++) {
                const lowered = (initial[i] - simulation.state.heights[i]) / 65536;
                depth[i] = Math.max(0, lowered);
                moved += Math.abs(lowered) / 2;
            }
            return { moved, depth: boxBlur3(depth, N, N) };
        });
        expect(runs[1].moved / runs[0].moved).toBeGreaterThan(0.9);
        expect(runs[1].moved / runs[0].moved).toBeLessThan(1.1);
        expect(pearson(runs[0].depth, runs[1].depth)).toBeGreaterThanOrEqual(0.8);
    });
});
