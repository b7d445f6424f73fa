/**
 * Each CPU kernel on tiny grids whose results are worked out by hand in the comments.
 */
import { resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { buildBatchParams, FIXED_ONE, layoutPatches, type BatchParams, type OperatorName } from "../../../plugin/advanced.js";
import { brushEntryCount, buildBrush, COUNTER_COUNT, COUNTER_DROPLET_STEPS, COUNTER_OUTFLOW, erodeDroplets, hash4, thermalApply, thermalFlux } from "../../../plugin/internal.js";

/** No drainage anywhere: the channel rule of thermal_apply never applies. */
const noChannels = (cells: number) => ({ drainageArea: new Int32Array(cells), suspended: new Int32Array(cells) });

const M = FIXED_ONE;

function paramsFor(width: number, depth: number, operator: OperatorName, options: ErosionOptionsInput, patchIndex = 0): BatchParams {
    const resolved = resolveOptions({ patchSize: 1024, ...options });
    const patch = layoutPatches(width, depth, resolved.patchSize)[patchIndex];
    return buildBatchParams(resolved, { width, depth }, patch, operator, 0, brushEntryCount(buildBrush(resolved.hydraulic.brushRadius)));
}

describe("thermalFlux + thermalApply", () => {
    it("spreads a 10 m spike to its four edge neighbours by rate / 8 of the excess each", () => {
        // 3 x 3, centre 10 m, talus 1 m, rate 1 with 4 neighbours: each neighbour gets
        // (10 - 1) m * 1/8 = 1.125 m = 73728 units; the centre loses 4 * 1.125 = 4.5 m.
        const heights = new Int32Array(9);
        heights[4] = 10 * M;
        const params = paramsFor(3, 3, "thermal", { thermal: { talus: 1, rate: 1, neighbours: 4 } });
        const flux = new Int32Array(9 * 8);
        const counters = new Float64Array(COUNTER_COUNT);
        thermalFlux(params, heights, flux);
        thermalApply(params, heights, flux, counters, null, noChannels(heights.length));
        expect(Array.from(heights)).toEqual([0, 73728, 0, 73728, 10 * M - 4 * 73728, 73728, 0, 73728, 0]);
        expect(counters[COUNTER_OUTFLOW]).toBe(0);
    });

    it("uses talus * sqrt 2 on diagonals with 8 neighbours", () => {
        // rate 1 with 8 neighbours = 1/16 per neighbour. Edges: (10 - 1) / 16 m; diagonals: (10 - sqrt 2) / 16 m.
        const heights = new Int32Array(9);
        heights[4] = 10 * M;
        const params = paramsFor(3, 3, "thermal", { thermal: { talus: 1, rate: 1, neighbours: 8 } });
        const flux = new Int32Array(9 * 8);
        thermalFlux(params, heights, flux);
        thermalApply(params, heights, flux, new Float64Array(COUNTER_COUNT), null, noChannels(heights.length));
        const edge = Math.floor((9 * M * 4096) / M);
        const diagonal = Math.floor(((10 * M - Math.round(Math.SQRT2 * M)) * 4096) / M);
        expect(heights[1]).toBe(edge);
        expect(heights[0]).toBe(diagonal);
        expect(heights[4]).toBe(10 * M - 4 * edge - 4 * diagonal);
    });

    it("lets material fall off an open edge and counts it, and keeps it on a closed one", () => {
        // 2 x 2 ramp falling toward +x: off the right edge the ground continues the slope, so the
        // right-hand vertices shed (2 m - 0.5 m) * 1/8 per step over that edge.
        const ramp = () => Int32Array.from([4 * M, 2 * M, 4 * M, 2 * M]);
        for (const boundary of ["open", "closed"] as const) {
            const heights = ramp();
            const params = paramsFor(2, 2, "thermal", { thermal: { talus: 0.5, rate: 1, neighbours: 4, boundary } });
            const flux = new Int32Array(4 * 8);
            const counters = new Float64Array(COUNTER_COUNT);
            thermalFlux(params, heights, flux);
            thermalApply(params, heights, flux, counters, null, noChannels(heights.length));
            const total = heights.reduce((a, b) => a + b, 0) + counters[COUNTER_OUTFLOW];
            expect(total).toBe(12 * M);
            expect(counters[COUNTER_OUTFLOW]).toBe(boundary === "open" ? 2 * ((1.5 * M) / 8) : 0);
        }
    });
});

describe("erodeDroplets", () => {
    it("walks one droplet one cell down a 1 m/cell plane, cuts a quarter of the drop and lays it down where the walk ends", () => {
        // Plane h = 10 - x m on 6 x 6, one droplet, one step, inertia 0, brush 0, erosion 0.5.
        // Gradient (-1, 0) m/cell -> direction exactly (+1, 0) cell; drop -1 m.
        // Capacity = 1 m * speed 1 * water 1 * capacity 4 = 4 m; share = 1 (one droplet, one step).
        // Cut = min(4 m * 0.5, 1 m / 4) = 0.25 m = 16384 units, spread bilinearly at the start;
        // the walk ends after one step and lays the 0.25 m down bilinearly one cell further on.
        const width = 6;
        const heights = new Int32Array(36);
        for (let y = 0; y < 6; y++) for (let x = 0; x < 6; x++) heights[y * width + x] = (10 - x) * M;
        const params = paramsFor(6, 6, "hydraulic", { seed: 5, hydraulic: { dropletsPerBatch: 1, maxSteps: 1, inertia: 0, brushRadius: 0, erosion: 0.5, capacity: 4, initialSpeed: 1, initialWater: 1 } });
        const delta = new Int32Array(36);
        const counters = new Float64Array(COUNTER_COUNT);
        erodeDroplets(params, heights, delta, new Int32Array(0), counters);

        const px = hash4(5, 0, 0, 0) % (5 * M);
        const py = hash4(5, 0, 0, 1) % (5 * M);
        const expected = new Int32Array(36);
        const split = (x: number, y: number, amount: number, sign: number) => {
            const fx = x & 0xffff;
            const fy = y & 0xffff;
            const i = (y >> 16) * width + (x >> 16);
            const p00 = Math.floor((amount * Math.floor(((M - fx) * (M - fy)) / M)) / M);
            const p10 = Math.floor((amount * Math.floor((fx * (M - fy)) / M)) / M);
            const p01 = Math.floor((amount * Math.floor(((M - fx) * fy) / M)) / M);
            expected[i] += sign * p00;
            expected[i + 1] += sign * p10;
            expected[i + width] += sign * p01;
            expected[i + width + 1] += sign * (amount - p00 - p10 - p01);
        };
        split(px, py, 16384, -1);
        split(px + M, py, 16384, 1);
        expect(Array.from(delta)).toEqual(Array.from(expected));
        expect(counters[COUNTER_DROPLET_STEPS]).toBe(1);
        expect(counters[COUNTER_OUTFLOW]).toBe(0);
    });

    it("counts what a droplet carries over the edge as outflow, to the unit", () => {
        const width = 8;
        const heights = new Int32Array(64);
        for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) heights[y * width + x] = (20 - 2 * x) * M;
        const params = paramsFor(8, 8, "hydraulic", { hydraulic: { dropletsPerBatch: 50, maxSteps: 30, brushRadius: 1 } });
        const delta = new Int32Array(64);
        const counters = new Float64Array(COUNTER_COUNT);
        erodeDroplets(params, heights, delta, buildBrush(1), counters);
        expect(counters[COUNTER_OUTFLOW]).toBeGreaterThan(0);
        expect(delta.reduce((a, b) => a + b, 0) + counters[COUNTER_OUTFLOW]).toBe(0);
    });

    it("leaves a flat field untouched", () => {
        const heights = new Int32Array(100).fill(3 * M);
        const params = paramsFor(10, 10, "hydraulic", { hydraulic: { dropletsPerBatch: 500 } });
        const delta = new Int32Array(100);
        const counters = new Float64Array(COUNTER_COUNT);
        erodeDroplets(params, heights, delta, buildBrush(3), counters);
        expect(delta.every((value) => value === 0)).toBe(true);
        expect(counters[COUNTER_DROPLET_STEPS]).toBe(0); // no gradient, no momentum: no step is taken
    });
});

describe("buildBrush", () => {
    it.each([1, 2, 3, 8])("radius %i: centre first, weights sum to exactly 65536", (radius) => {
        const brush = buildBrush(radius);
        const count = brushEntryCount(brush);
        expect(brush[0]).toBe(0);
        expect(brush[1]).toBe(0);
        let sum = 0;
        for (let k = 0; k < count; k++) {
            sum += brush[k * 3 + 2];
            expect(Math.hypot(brush[k * 3], brush[k * 3 + 1])).toBeLessThanOrEqual(radius);
        }
        expect(sum).toBe(FIXED_ONE);
    });
});
