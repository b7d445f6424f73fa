/**
 * Long runs and extreme terrains on the CPU reference (bit-identical to the GPU): no wrap, no NaN,
 * heights inside the initial range widened by 10% of the relief, mass balanced to the unit. The
 * runs of 10 000 cycles are in `npm run test:soak` (test/soak/longRuns.test.ts).
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { conservedMass, createInitialState, HEIGHT_MAX_METRES, HEIGHT_MIN_METRES } from "../../../plugin/advanced.js";
import { AGGRESSIVE, checkAggressiveRun, checkRiversAtTheirLimits, runChecked, valueRange } from "../../helpers/longRuns.js";

describe("long runs", () => {
    it("500 cycles on 33 x 33 with aggressive options (droplets, rivers at the largest K, thermal) stay bounded and balanced (10 000 in npm run test:soak)", () => {
        checkAggressiveRun(500);
    });

    it("1 000 cycles with masks, a tiling terrain and erodeAt events every 50 cycles stay bounded and balanced", () => {
        const width = 33;
        const heights = heightsToFixed(generateNoiseTerrain({ width, depth: width, relief: 30, seed: 5 }));
        const mass = conservedMass(createInitialState(width, width, heights));
        const [low, high] = valueRange(heights);
        const margin = Math.floor((high - low) * 0.1);
        const simulation = new CpuErosionSimulation(width, width, heights, resolveOptions({ ...AGGRESSIVE, tileable: true }));
        const gradient = Int32Array.from({ length: width * width }, (_, i) => Math.round(((i % width) / (width - 1)) * 65536));
        simulation.setMasks({ hydraulic: gradient, thermal: gradient.slice().reverse(), rivers: gradient, uplift: null, rain: null, hardness: null, soil: null });
        for (let cycle = 0; cycle < 1000; cycle += 50) {
            simulation.erodeAt(5 + (cycle % 23), 7 + (cycle % 19), 4, { droplets: 300, hydraulic: { erosion: 1 } });
            simulation.runCycles(50);
            const [nowLow, nowHigh] = valueRange(simulation.state.heights);
            expect(nowLow).toBeGreaterThanOrEqual(low - margin);
            expect(nowHigh).toBeLessThanOrEqual(high + margin);
            expect(conservedMass(simulation.state)).toBe(mass);
        }
    });
});

describe("rivers at their limits", () => {
    it("500 cycles on 65 x 65 with the largest erosion and uplift: finite, in range, mass (with uplift) exact (10 000 in npm run test:soak)", () => {
        checkRiversAtTheirLimits(500);
    });
});

describe("extreme terrains", () => {
    const options: ErosionOptionsInput = { patchSize: 16, hydraulic: { dropletsPerBatch: 300 }, thermal: { talus: 0.3 } };
    const grid = (width: number, depth: number, height: (x: number, y: number) => number) => Float64Array.from({ length: width * depth }, (_, i) => height(i % width, Math.floor(i / width)));

    it.each([
        ["a flat field stays exactly flat", 33, 33, grid(33, 33, () => 7)],
        ["a spike with strong rivers on a tileable grid", 25, 25, grid(25, 25, (x, y) => (x === 12 && y === 12 ? 80 : 0))],
        ["a single 100 m spike", 33, 33, grid(33, 33, (x, y) => (x === 16 && y === 16 ? 100 : 0))],
        ["a vertical 200 m cliff", 40, 30, grid(40, 30, (x) => (x < 20 ? 0 : 200))],
        ["a field at the limits of the height range", 24, 24, grid(24, 24, (x, y) => ((x + y) % 2 === 0 ? HEIGHT_MAX_METRES : HEIGHT_MIN_METRES))],
        ["a 2 x 2 field", 2, 2, Float32Array.from([3, 1, 2, 0])],
        ["a very thin 2 x 60 field", 2, 60, grid(2, 60, (x, y) => 60 - y + x * 0.5)],
        ["a very thin 60 x 2 field", 60, 2, grid(60, 2, (x, y) => 60 - x + y * 0.5)],
    ] as const)("%s", (name, width, depth, metres) => {
        for (const boundary of ["closed", "open"] as const) {
            const rivers = name.includes("rivers") ? { rivers: { erosion: 5 }, tileable: true } : {};
            const simulation = runChecked(width, depth, metres, { ...options, ...rivers, thermal: { ...(options.thermal as object), boundary } }, 4, 1);
            if (name.startsWith("a flat")) {
                expect(Array.from(simulation.state.heights)).toEqual(Array.from(heightsToFixed(metres)));
            }
        }
    });
});
