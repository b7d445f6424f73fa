/**
 * Masks (docs/simulation.md, "Masks") and erosion maps, on the CPU reference (GPU parity covers both).
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { buildBatchParams, createMaps, MAP_LIMIT, noMasks, type ErosionMasks } from "../../../plugin/advanced.js";
import { applyDelta, heightSum } from "../../../plugin/internal.js";

const W = 72;
const D = 40;
// A noisy slope falling toward +x, so droplets that start upslope of a band cross it.
const start = heightsToFixed(generateNoiseTerrain({ width: W, depth: D, relief: 8, tilt: 0.4, seed: 17 }));
const inBand = (i: number) => (i % W) >= 30 && (i % W) < 42;
const band = (value: number) => Int32Array.from({ length: W * D }, (_, i) => (inBand(i) ? value : 65536));

function run(options: ErosionOptionsInput, masks: Partial<ErosionMasks> = {}, cycles = 3): CpuErosionSimulation {
    const simulation = new CpuErosionSimulation(W, D, start, resolveOptions({ patchSize: 24, seed: 2, ...options }));
    simulation.setMasks({ ...noMasks(), ...masks });
    simulation.runCycles(cycles);
    return simulation;
}

const ALL: ErosionOptionsInput = { hydraulic: { dropletsPerBatch: 600 }, rivers: { erosion: 0.2 }, thermal: { talus: 0.05 } };

describe("masks", () => {
    it("a mask of ones gives exactly the result of no mask, on every operator", () => {
        const ones = new Int32Array(W * D).fill(65536);
        const plain = run(ALL);
        const masked = run(ALL, { hydraulic: ones, thermal: ones.slice(), rivers: ones.slice() });
        expect(Array.from(masked.state.heights)).toEqual(Array.from(plain.state.heights));
        expect(Array.from(masked.state.suspended)).toEqual(Array.from(plain.state.suspended));
        // ...but the fingerprint tells a run with a mask from one without.
        expect(masked.fingerprint()).not.toBe(plain.fingerprint());
    });

    it("with endOfWalk carry, a band of zeros leaves the band exactly unchanged", () => {
        const options: ErosionOptionsInput = { hydraulic: { dropletsPerBatch: 600, endOfWalk: "carry" }, thermal: { talus: 0.05 }, rivers: { erosion: 0.2 } };
        const zeros = band(0);
        const masked = run(options, { hydraulic: zeros, thermal: zeros, rivers: zeros });
        let changedOutside = 0;
        for (let i = 0; i < W * D; i++) {
            if (inBand(i)) expect(masked.state.heights[i]).toBe(start[i]);
            else if (masked.state.heights[i] !== start[i]) changedOutside++;
        }
        expect(changedOutside).toBeGreaterThan(W * D * 0.3);
    });

    it("under the default endOfWalk, the band is never cut; only walks ending there lay material down", () => {
        const zeros = band(0);
        const masked = run({ hydraulic: { dropletsPerBatch: 600 }, thermal: { enabled: false }, rivers: { enabled: false } }, { hydraulic: zeros });
        let raised = 0;
        for (let i = 0; i < W * D; i++) {
            if (!inBand(i)) continue;
            const height = masked.state.heights[i] + masked.state.suspended[i];
            expect(height).toBeGreaterThanOrEqual(start[i]);
            if (height > start[i]) raised++;
        }
        // Some walks do end in the band...
        expect(raised).toBeGreaterThan(0);
        // ...while most of it is untouched.
        expect(raised).toBeLessThan(W * D * 0.25 * 0.5);
    });

    it("droplets carry their load across ground the mask holds out", () => {
        // With the band masked, material cut upslope of it still arrives below it; hold out the
        // upslope ground as well and that delivery stops.
        const below = (i: number) => (i % W) >= 42;
        const delivered = (masks: Int32Array) => {
            const simulation = run({ hydraulic: { dropletsPerBatch: 600, maxSteps: 48 }, thermal: { enabled: false }, rivers: { enabled: false } }, { hydraulic: masks }, 2);
            let total = 0;
            for (let i = 0; i < W * D; i++) if (below(i)) total += Math.max(0, simulation.state.heights[i] + simulation.state.suspended[i] - start[i]);
            return total;
        };
        const bandOnly = delivered(band(0));
        const bandAndUpslope = delivered(Int32Array.from({ length: W * D }, (_, i) => ((i % W) < 42 ? 0 : 65536)));
        expect(bandOnly).toBeGreaterThan(bandAndUpslope * 1.2);
    });
});

describe("erosion maps", () => {
    it("total wear minus total deposition equals the material the heights lost, to the unit", () => {
        for (const options of [ALL, { ...ALL, thermal: { talus: 0.05, boundary: "open" as const }, hydraulic: { dropletsPerBatch: 600, endOfWalk: "carry" as const } }]) {
            const simulation = run(options);
            const wear = simulation.maps.wear.reduce((a, b) => a + b, 0);
            const deposition = simulation.maps.deposition.reduce((a, b) => a + b, 0);
            expect(BigInt(wear) - BigInt(deposition)).toBe(heightSum(start) - heightSum(simulation.state.heights));
            expect(wear).toBeGreaterThan(0);
        }
    });

    it("counts every droplet step once in the water map", () => {
        const simulation = run({ hydraulic: { dropletsPerBatch: 500 }, thermal: { enabled: false } });
        expect(simulation.maps.water.reduce((a, b) => a + b, 0)).toBe(simulation.state.counters[3]);
    });

    it("applying a change records it as the plain rule does, at and next to the limit and for changes of every size", () => {
        // applyDelta takes the u32 sums on the counters' bits without a branch (applyDeltaRecording):
        // every pairing of a counter near 0, 2^31 and the limit with a change of any sign and size.
        const counts = [0, 1, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 2 ** 31, MAP_LIMIT - 5, MAP_LIMIT - 1, MAP_LIMIT];
        const changes = [0, 1, -1, 5, -5, 2 ** 31 - 1, -(2 ** 31), -(2 ** 31) + 1, 2 ** 30, -(2 ** 30)];
        const cells = counts.length * changes.length;
        const params = buildBatchParams(resolveOptions({ patchSize: 64 }), { width: cells, depth: 1 }, { index: 0, x0: 0, y0: 0, x1: cells, y1: 1 }, "rivers", 0, 0);
        const maps = createMaps(cells);
        const delta = new Int32Array(cells);
        const expected = { wear: new Uint32Array(cells), deposition: new Uint32Array(cells) };
        counts.forEach((count, a) =>
            changes.forEach((change, b) => {
                const i = a * changes.length + b;
                maps.wear[i] = count;
                maps.deposition[i] = MAP_LIMIT - count;
                delta[i] = change;
                expected.wear[i] = Math.min(count + Math.max(-change, 0), MAP_LIMIT);
                expected.deposition[i] = Math.min(MAP_LIMIT - count + Math.max(change, 0), MAP_LIMIT);
            })
        );
        const heights = new Int32Array(cells);
        applyDelta({ ...params, extentX0: 0, extentX1: cells, extentY0: 0, extentY1: 1 }, heights, delta, maps);
        expect(Array.from(maps.wear)).toEqual(Array.from(expected.wear));
        expect(Array.from(maps.deposition)).toEqual(Array.from(expected.deposition));
        expect(Array.from(delta).every((value) => value === 0)).toBe(true);
    });

    it("saturates rather than wraps, and resets", () => {
        const simulation = run({ hydraulic: { dropletsPerBatch: 200 } }, {}, 1);
        simulation.maps.wear.fill(0xfffffff0);
        simulation.runCycles(1);
        expect(Math.max(...simulation.maps.wear)).toBe(0xffffffff);
        expect(Math.min(...simulation.maps.wear)).toBeGreaterThanOrEqual(0xfffffff0);
        simulation.resetMaps();
        expect(simulation.maps.wear.every((value) => value === 0)).toBe(true);
    });
});
