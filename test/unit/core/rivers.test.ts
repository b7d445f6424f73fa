/**
 * The stream-power river operator on the CPU reference (GPU parity covers the WGSL): the implicit
 * step, drainage area, lakes, uplift, tileable terrains. docs/simulation.md, "Stream-power rivers".
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { generateCone, generateNoiseTerrain, drainageField } from "../../../plugin/terrain.js";
import { buildBatchParams, COUNTER_NAMES, conservedMass, createInitialState, priorityFloodFill } from "../../../plugin/advanced.js";
import { ALL_ROWS, DonorLists, listDonors, riverCut, riverErode, riverSlots, THERMAL_DX, THERMAL_DY } from "../../../plugin/internal.js";

const RIVERS_ONLY: ErosionOptionsInput = { hydraulic: { enabled: false }, thermal: { enabled: false } };

function simulate(metres: ArrayLike<number>, width: number, depth: number, options: ErosionOptionsInput): CpuErosionSimulation {
    return new CpuErosionSimulation(width, depth, heightsToFixed(metres), resolveOptions({ patchSize: 64, ...options }));
}

describe("stream-power rivers", () => {
    it("never cut a vertex below the vertex its water goes to, however large the erosion", () => {
        // One river batch's erosion at the largest K on noise (basins included): every vertex ends at
        // or above where its receiver stood, so the implicit step cannot dig a pit.
        const size = 33;
        const heights = heightsToFixed(generateNoiseTerrain({ width: size, depth: size, relief: 30, seed: 5 }));
        const levels = priorityFloodFill(heights, size, size);
        const options = resolveOptions({ patchSize: 64, rivers: { erosion: 10 } });
        const params = buildBatchParams(options, { width: size, depth: size }, { index: 0, x0: 0, y0: 0, x1: size, y1: size }, "rivers", 0, 0);
        const slots = new Int32Array(size * size);
        riverSlots(params, heights, levels, slots, ALL_ROWS);
        const area = Int32Array.from({ length: size * size }, (_, i) => 1 + (i % 97) * 50);
        const delta = new Int32Array(size * size);
        const routed = new Int32Array(size * size);
        const inputs = { heights, levels, area, slots, mask: null };
        const eroded = new Int32Array(size * size);
        riverCut(params, inputs, eroded, ALL_ROWS);
        const donors = new DonorLists();
        listDonors(params, slots, donors, ALL_ROWS);
        riverErode(params, inputs, donors, delta, new Int32Array(size * size), routed, eroded, ALL_ROWS);
        let cut = 0;
        for (let y = 0; y < size; y++) {
            for (let x = 0; x < size; x++) {
                const i = y * size + x;
                if (slots[i] < 0) continue;
                const receiver = (y + THERMAL_DY[slots[i]]) * size + x + THERMAL_DX[slots[i]];
                if (levels[i] <= heights[i] && heights[i] > heights[receiver]) expect(heights[i] + delta[i]).toBeGreaterThanOrEqual(heights[receiver]);
                if (delta[i] < 0) cut++;
            }
        }
        expect(cut).toBeGreaterThan(size * size / 2);
    });

    it("count every cell upstream in the drainage area once the steps have reached it", () => {
        // A cone drains outward with no pits: after enough propagation steps (and no erosion), each
        // vertex's area is what a D8 accumulation over the same receivers gives.
        const size = 33;
        const metres = generateCone(size, size, 20, 15);
        const simulation = simulate(metres, size, size, { ...RIVERS_ONLY, rivers: { erosion: 0, stepsPerBatch: 64 } });
        simulation.runCycles(1);
        const field = drainageField(metres, size, size, 1);
        let counted = 0;
        for (let i = 0; i < size * size; i++) {
            if (field.receivers[i] < 0) continue;
            expect(simulation.state.drainageArea[i]).toBe(field.area[i]);
            counted++;
        }
        expect(counted).toBeGreaterThan(size * size / 2);
    });

    it("route water across a lake to its spill, so drainage area reaches the outlet", () => {
        // A tilted plane with a crater: the crater's cells drain through its rim, and the drainage
        // area at the outlet edge includes them.
        const size = 33;
        const metres = Float64Array.from({ length: size * size }, (_, i) => {
            const x = i % size;
            const y = Math.floor(i / size);
            const r = Math.hypot(x - 16, y - 16);
            return (size - y) * 0.5 + (r < 5 ? r - 5 : 0);
        });
        const simulation = simulate(metres, size, size, { ...RIVERS_ONLY, rivers: { erosion: 0, stepsPerBatch: 128 } });
        simulation.runCycles(2);
        const total = simulation.state.drainageArea.slice((size - 1) * size).reduce((a, b) => a + b, 0);
        // Every vertex of the field but the outlet row drains into it.
        expect(total).toBe(size * size);
    });

    it("lift every vertex but the edge (the base level) by exactly the uplift, and count it", () => {
        const size = 17;
        const flat = new Float64Array(size * size).fill(10);
        const simulation = simulate(flat, size, size, { ...RIVERS_ONLY, rivers: { erosion: 0, uplift: 0.25 } });
        simulation.runCycles(4);
        const heights = simulation.state.heights;
        const start = heightsToFixed(flat);
        for (let i = 0; i < size * size; i++) {
            const x = i % size;
            const y = Math.floor(i / size);
            const edge = x === 0 || y === 0 || x === size - 1 || y === size - 1;
            expect(heights[i] - start[i]).toBe(edge ? 0 : 4 * 0.25 * 65536);
        }
        expect(simulation.state.counters[COUNTER_NAMES.indexOf("upliftAdded")]).toBe(4 * 0.25 * 65536 * (size - 2) ** 2);
        expect(conservedMass(simulation.state)).toBe(conservedMass(createInitialState(size, size, start)));
    });

    it("erode a tileable terrain into a tileable terrain: opposite edges stay equal, with every operator on", () => {
        const size = 41;
        const metres = generateNoiseTerrain({ width: size, depth: size, relief: 20, seed: 31 });
        // Make the start tile: the last column and row repeat the first.
        for (let y = 0; y < size; y++) metres[y * size + size - 1] = metres[y * size];
        for (let x = 0; x < size; x++) metres[(size - 1) * size + x] = metres[x];
        const simulation = simulate(metres, size, size, { patchSize: 16, tileable: true, hydraulic: { dropletsPerBatch: 300 }, rivers: { erosion: 0.2, uplift: 0.002 } });
        const mass = conservedMass(createInitialState(size, size, heightsToFixed(metres)));
        for (let cycle = 0; cycle < 6; cycle++) {
            simulation.runCycles(1);
            const { heights, drainageArea } = simulation.state;
            for (let y = 0; y < size; y++) expect(heights[y * size + size - 1]).toBe(heights[y * size]);
            for (let x = 0; x < size; x++) expect(heights[(size - 1) * size + x]).toBe(heights[x]);
            for (let y = 0; y < size; y++) expect(drainageArea[y * size + size - 1]).toBe(drainageArea[y * size]);
            expect(conservedMass(simulation.state)).toBe(mass);
        }
        // The rivers crossed the seam: some water that starts on one side gathers on the other.
        expect(Math.max(...simulation.state.drainageArea)).toBeGreaterThan(size);
    });
});
