/**
 * The long-run checks on the CPU reference (bit-identical to the GPU), at any length: the main suite
 * runs them for 1 000 cycles, `npm run test:soak` for 10 000 (test/soak/).
 */
import { CpuErosionSimulation, fixedToHeights, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { COUNTER_NAMES, conservedMass, createInitialState, HEIGHT_MAX_FIXED, HEIGHT_MIN_FIXED, waterImbalance } from "../../plugin/advanced.js";
import { heightSum } from "../../plugin/internal.js";

/** The lowest and highest value. */
export function valueRange(values: Int32Array): [number, number] {
    let low = Infinity;
    let high = -Infinity;
    for (const value of values) {
        low = Math.min(low, value);
        high = Math.max(high, value);
    }
    return [low, high];
}

/**
 * Runs `cycles` and checks every `every` cycles: no wrap, no NaN, heights inside the initial range
 * widened by 10% of the relief, mass balanced to the unit.
 */
export function runChecked(width: number, depth: number, metres: ArrayLike<number>, options: ErosionOptionsInput, cycles: number, every = cycles): CpuErosionSimulation {
    const heights = heightsToFixed(metres);
    const mass = conservedMass(createInitialState(width, depth, heights));
    const [low, high] = valueRange(heights);
    const margin = Math.floor((high - low) * 0.1);
    const simulation = new CpuErosionSimulation(width, depth, heights, resolveOptions(options));
    for (let done = 0; done < cycles; done += every) {
        simulation.runCycles(Math.min(every, cycles - done));
        const [nowLow, nowHigh] = valueRange(simulation.state.heights);
        expect(nowLow).toBeGreaterThanOrEqual(low - margin);
        expect(nowHigh).toBeLessThanOrEqual(high + margin);
        expect(conservedMass(simulation.state)).toBe(mass);
        expect(fixedToHeights(simulation.state.heights).every(Number.isFinite)).toBe(true);
    }
    return simulation;
}

/** Every operator with its options near the top of their ranges. */
export const AGGRESSIVE: ErosionOptionsInput = {
    patchSize: 32,
    hydraulic: { dropletsPerBatch: 200, maxSteps: 32, capacity: 16, erosion: 0.9, deposition: 0.9, gravity: 16, inertia: 0.5, evaporation: 0.005, brushRadius: 2 },
    thermal: { talus: 0.1, rate: 1, iterations: 4, boundary: "closed" },
    rivers: { erosion: 10, capacity: 0.5, deposition: 1, stepsPerBatch: 2 },
};

/** `cycles` of every operator at AGGRESSIVE on 33 x 33: bounded and balanced throughout. */
export function checkAggressiveRun(cycles: number): void {
    const simulation = runChecked(33, 33, generateNoiseTerrain({ width: 33, depth: 33, relief: 30, seed: 4 }), AGGRESSIVE, cycles, cycles / 10);
    expect(simulation.state.cycle).toBe(cycles);
    expect(simulation.state.counters[COUNTER_NAMES.indexOf("dropletSteps")]).toBeGreaterThan(0);
}

/**
 * `cycles` of the river operator alone on 65 x 65, one patch a cycle, every river option at the top
 * of its range but the propagation steps: finite, in the height range, mass (with uplift) exact.
 */
export function checkRiversAtTheirLimits(cycles: number): void {
    const width = 65;
    const heights = heightsToFixed(generateNoiseTerrain({ width, depth: width, relief: 40, seed: 7 }));
    const mass = conservedMass(createInitialState(width, width, heights));
    const options = resolveOptions({ patchSize: 72, hydraulic: { enabled: false }, thermal: { enabled: false }, rivers: { erosion: 10, uplift: 1, capacity: 64, deposition: 1, stepsPerBatch: 2 } });
    const simulation = new CpuErosionSimulation(width, width, heights, options);
    for (let done = 0; done < cycles; done += cycles / 4) {
        simulation.runCycles(cycles / 4);
        const [low, high] = valueRange(simulation.state.heights);
        expect(low).toBeGreaterThanOrEqual(HEIGHT_MIN_FIXED);
        expect(high).toBeLessThanOrEqual(HEIGHT_MAX_FIXED);
        expect(fixedToHeights(simulation.state.heights).every(Number.isFinite)).toBe(true);
        // ground + suspended + outflow - uplift added: exact to the unit.
        expect(conservedMass(simulation.state)).toBe(mass);
    }
    // The uplift really ran (on every vertex but the edge, the base level), and rivers held the
    // ground well below what it added.
    const added = simulation.state.counters[COUNTER_NAMES.indexOf("upliftAdded")];
    expect(added).toBe(cycles * 65536 * (width - 2) * (width - 2));
    expect(Number(heightSum(simulation.state.heights) - heightSum(heights))).toBeLessThan(added / 2);
}

/**
 * The heaviest rain (a cell of depth every cycle, closed edges, no evaporation) for 10^4 cycles on
 * `size` x `size`: no wrap, no negative water, depth capped at 8192 cells and the excess counted,
 * balances exact. The cap is per vertex, so any size reaches it; the soak runs 65 x 65.
 */
export function checkHeaviestRain(size: number): void {
    const waterLimit = 2 ** 29 - 1;
    const heights = Int32Array.from({ length: size * size }, (_, i) => Math.round((Math.sin(i * 0.37) * 3 + (i % size) * 0.1) * 65536));
    const simulation = new CpuErosionSimulation(size, size, heights, resolveOptions({ patchSize: 64, hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false }, water: { enabled: true, rain: 1, evaporation: 0, boundary: "closed", stepsPerCycle: 1, capacity: 64, dissolving: 1, deposition: 1, friction: 0 } }));
    const mass = conservedMass(simulation.getState());
    simulation.runCycles(10000);
    const state = simulation.getState();
    const water = state.water!;
    let lowest = Infinity;
    let deepest = -Infinity;
    for (const value of water.waterDepth) {
        lowest = Math.min(lowest, value);
        deepest = Math.max(deepest, value);
    }
    expect(lowest).toBeGreaterThanOrEqual(0);
    expect(deepest).toBeLessThanOrEqual(waterLimit);
    // 10^4 cells of rain on a closed field pass the 8192-cell cap: the excess is counted, not wrapped.
    expect(state.counters[COUNTER_NAMES.indexOf("waterRemoved")]).toBeGreaterThan(0);
    expect(state.counters.every((value) => Number.isFinite(value) && value >= 0)).toBe(true);
    expect(state.heights.every((value) => value >= -(2 ** 30) && value < 2 ** 30)).toBe(true);
    expect(waterImbalance(state)).toBe(0n);
    expect(conservedMass(state)).toBe(mass);
}
