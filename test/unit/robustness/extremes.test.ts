/**
 * Long runs and extreme terrains on the CPU reference (bit-identical to the GPU): no wrap, no NaN,
 * heights inside the initial range widened by 10% of the relief, mass balanced to the unit.
 */
import { COUNTER_NAMES, conservedMass, createInitialState, CpuErosionSimulation, fixedToHeights, generateNoiseTerrain, heightsToFixed, HEIGHT_MAX_FIXED, HEIGHT_MAX_METRES, HEIGHT_MIN_FIXED, HEIGHT_MIN_METRES, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { heightSum } from "../../../plugin/internal.js";

function range(values: Int32Array): [number, number] {
    let low = Infinity;
    let high = -Infinity;
    for (const value of values) {
        low = Math.min(low, value);
        high = Math.max(high, value);
    }
    return [low, high];
}

/** Runs `cycles` and checks the invariants every `every` cycles. */
function runChecked(width: number, depth: number, metres: ArrayLike<number>, options: ErosionOptionsInput, cycles: number, every = cycles): CpuErosionSimulation {
    const heights = heightsToFixed(metres);
    const mass = conservedMass(createInitialState(width, depth, heights));
    const [low, high] = range(heights);
    const margin = Math.floor((high - low) * 0.1);
    const simulation = new CpuErosionSimulation(width, depth, heights, resolveOptions(options));
    for (let done = 0; done < cycles; done += every) {
        simulation.runCycles(Math.min(every, cycles - done));
        const [nowLow, nowHigh] = range(simulation.state.heights);
        expect(nowLow).toBeGreaterThanOrEqual(low - margin);
        expect(nowHigh).toBeLessThanOrEqual(high + margin);
        expect(conservedMass(simulation.state)).toBe(mass);
        expect(fixedToHeights(simulation.state.heights).every(Number.isFinite)).toBe(true);
    }
    return simulation;
}

const AGGRESSIVE: ErosionOptionsInput = {
    patchSize: 32,
    hydraulic: { dropletsPerBatch: 200, maxSteps: 32, capacity: 16, erosion: 0.9, deposition: 0.9, gravity: 16, inertia: 0.5, evaporation: 0.005, brushRadius: 2 },
    thermal: { talus: 0.1, rate: 1, iterations: 4, boundary: "closed" },
    rivers: { erosion: 10, capacity: 0.5, deposition: 1, stepsPerBatch: 2 },
};

describe("long runs", () => {
    it("10 000 cycles on 33 x 33 with aggressive options (droplets, rivers at the largest K, thermal) stay bounded and balanced", () => {
        const simulation = runChecked(33, 33, generateNoiseTerrain({ width: 33, depth: 33, relief: 30, seed: 4 }), AGGRESSIVE, 10000, 1000);
        expect(simulation.state.cycle).toBe(10000);
        expect(simulation.state.counters[3]).toBeGreaterThan(0);
    });

    it("1 000 cycles with masks, a tiling terrain and erodeAt events every 50 cycles stay bounded and balanced", () => {
        const width = 33;
        const heights = heightsToFixed(generateNoiseTerrain({ width, depth: width, relief: 30, seed: 5 }));
        const mass = conservedMass(createInitialState(width, width, heights));
        const [low, high] = range(heights);
        const margin = Math.floor((high - low) * 0.1);
        const simulation = new CpuErosionSimulation(width, width, heights, resolveOptions({ ...AGGRESSIVE, tileable: true }));
        const gradient = Int32Array.from({ length: width * width }, (_, i) => Math.round(((i % width) / (width - 1)) * 65536));
        simulation.setMasks({ hydraulic: gradient, thermal: gradient.slice().reverse(), rivers: gradient, uplift: null, rain: null });
        for (let cycle = 0; cycle < 1000; cycle += 50) {
            simulation.erodeAt(5 + (cycle % 23), 7 + (cycle % 19), 4, { droplets: 300, hydraulic: { erosion: 1 } });
            simulation.runCycles(50);
            const [nowLow, nowHigh] = range(simulation.state.heights);
            expect(nowLow).toBeGreaterThanOrEqual(low - margin);
            expect(nowHigh).toBeLessThanOrEqual(high + margin);
            expect(conservedMass(simulation.state)).toBe(mass);
        }
    });
});

describe("rivers at their limits", () => {
    it("10 000 cycles on 65 x 65 with the largest erosion and uplift: finite, in range, mass (with uplift) exact", () => {
        const width = 65;
        const heights = heightsToFixed(generateNoiseTerrain({ width, depth: width, relief: 40, seed: 7 }));
        const mass = conservedMass(createInitialState(width, width, heights));
        // The river operator alone (the aggressive run above has every operator), one patch a cycle,
        // every river option at the top of its range but the propagation steps.
        const options = resolveOptions({ patchSize: 72, hydraulic: { enabled: false }, thermal: { enabled: false }, rivers: { erosion: 10, uplift: 1, capacity: 64, deposition: 1, stepsPerBatch: 2 } });
        const simulation = new CpuErosionSimulation(width, width, heights, options);
        for (let done = 0; done < 10000; done += 2500) {
            simulation.runCycles(2500);
            const [low, high] = range(simulation.state.heights);
            expect(low).toBeGreaterThanOrEqual(HEIGHT_MIN_FIXED);
            expect(high).toBeLessThanOrEqual(HEIGHT_MAX_FIXED);
            expect(fixedToHeights(simulation.state.heights).every(Number.isFinite)).toBe(true);
            // ground + suspended + outflow - uplift added: exact to the unit.
            expect(conservedMass(simulation.state)).toBe(mass);
        }
        // The uplift really ran (on every vertex but the edge, the base level), and rivers held the
        // ground well below what it added.
        const added = simulation.state.counters[COUNTER_NAMES.indexOf("upliftAdded")];
        expect(added).toBe(10000 * 65536 * (width - 2) * (width - 2));
        expect(Number(heightSum(simulation.state.heights) - heightSum(heights))).toBeLessThan(added / 2);
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
