/**
 * Flow-accumulation erosion (seed 004) on hand-built terrains whose upstream counts can be worked
 * out by hand, with and without wrapping, and its bounds.
 */
import { conservedMass, createInitialState, CpuErosionSimulation, generateNoiseTerrain, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";

/** Counts after enough propagation steps with erosion off (rate 0), so the routing stays put. */
function countsOf(width: number, depth: number, height: (x: number, y: number) => number, flow: ErosionOptionsInput["flow"], tileable = false, cycles = 1): number[][] {
    const metres = Float64Array.from({ length: width * depth }, (_, i) => height(i % width, Math.floor(i / width)));
    const options = resolveOptions({ patchSize: 64, tileable, hydraulic: { enabled: false }, thermal: { enabled: false }, flow: { enabled: true, rate: 0, stepsPerBatch: 64, ...flow } });
    const simulation = new CpuErosionSimulation(width, depth, heightsToFixed(metres), options);
    simulation.runCycles(cycles);
    expect(Array.from(simulation.state.heights)).toEqual(Array.from(heightsToFixed(metres)));
    return Array.from({ length: depth }, (_, y) => Array.from(simulation.state.flowCounts.subarray(y * width, (y + 1) * width)));
}

describe("upstream counts", () => {
    it("a plane falling toward +x: each vertex counts itself and everything upstream in its row", () => {
        const counts = countsOf(6, 3, (x) => 5 - x, { neighbours: 4 });
        expect(counts).toEqual([1, 2, 3].map(() => [1, 2, 3, 4, 5, 6]));
    });

    it("a V valley along column 3 falling toward +y: the valley floor counts whole rows", () => {
        const width = 7;
        const counts = countsOf(width, 4, (x, y) => Math.abs(x - 3) + (3 - y) * 0.1, { neighbours: 4 });
        for (let y = 0; y < 4; y++) {
            // Slopes drain sideways into the valley: a vertex d cells out counts the 3 - d + 1 beyond it.
            expect(counts[y].slice(0, 3)).toEqual([1, 2, 3]);
            expect(counts[y].slice(4)).toEqual([3, 2, 1]);
            // The valley floor gathers its row (7) and everything above it.
            expect(counts[y][3]).toBe(width * (y + 1));
        }
    });

    it("a 3 x 3 cone, ties to the first neighbour in slot order: every vertex ends in a corner", () => {
        const heights = [
            [0, 1, 0],
            [1, 2, 1],
            [0, 1, 0],
        ];
        // Centre -> (2,1) (+x first among equal edges); (2,1) -> (2,2) (+y before -y); (1,0) -> (2,0);
        // (0,1) -> (0,2); (1,2) -> (2,2). Corners are pits.
        expect(countsOf(3, 3, (x, y) => heights[y][x], { neighbours: 4 })).toEqual([
            [1, 1, 2],
            [1, 1, 2],
            [2, 1, 4],
        ]);
    });

    it("wraps across the edges of a tiling terrain, and only then", () => {
        // Heights 3 4 5 6 7 0 1 2: x = 4 drains to x = 5 (the lowest), x = 3..1 drain toward x = 0,
        // which drains across the seam to x = 7, then 6, then the pit at x = 5 - only when wrapping.
        const height = (x: number) => (x + 3) % 8;
        expect(countsOf(8, 2, height, { neighbours: 4 }, true)[0]).toEqual([4, 3, 2, 1, 1, 8, 6, 5]);
        expect(countsOf(8, 2, height, { neighbours: 4 }, false)[0]).toEqual([4, 3, 2, 1, 1, 4, 2, 1]);
    });

    it("does not saturate at 255 like seed 004's one-byte channel, and keeps converging across cycles", () => {
        // Columns drain to +y (40 m a row beats 1 m a column), the bottom row drains to +x: the path
        // from the top-left is 78 cells, longer than one batch's 64 propagation steps.
        const height = (x: number, y: number) => 100 - x - y * 40;
        expect(countsOf(40, 40, height, { neighbours: 4, stepsPerBatch: 64 }, false, 1)[39][39]).toBeLessThan(1600);
        expect(countsOf(40, 40, height, { neighbours: 4, stepsPerBatch: 64 }, false, 2)[39][39]).toBe(1600);
    });
});

describe("flow-accumulation erosion", () => {
    it("cuts rate x blurred count, never more than drop / 8 (4 neighbours), and hands it to the receiver", () => {
        // A V valley along column 2 of a 5 x 3 field, falling 0.25 m a row toward +y, counts
        // converged first (rate 0), then one batch at rate 1/64 m per upstream cell.
        const width = 5;
        const depth = 3;
        const metres = Float64Array.from({ length: width * depth }, (_, i) => Math.abs((i % width) - 2) + (depth - 1 - Math.floor(i / width)) * 0.25);
        const heights = heightsToFixed(metres);
        const converge = new CpuErosionSimulation(width, depth, heights, resolveOptions({ patchSize: 8, hydraulic: { enabled: false }, thermal: { enabled: false }, flow: { enabled: true, rate: 0, stepsPerBatch: 16 } }));
        converge.runCycles(1);
        const counts = converge.state.flowCounts;
        // Slopes drain sideways: [1, 2, floor, 2, 1]; the floor gathers its row and the rows above.
        expect(Array.from(counts)).toEqual([1, 2, 5, 2, 1, 1, 2, 10, 2, 1, 1, 2, 15, 2, 1]);
        const rate = 1 / 64;
        const state = converge.getState();
        state.cycle = 0;
        const run = new CpuErosionSimulation(width, depth, heights, resolveOptions({ patchSize: 8, hydraulic: { enabled: false }, thermal: { enabled: false }, flow: { enabled: true, rate, stepsPerBatch: 1 } }));
        run.setState(state);
        run.runCycles(1);
        // Worked by hand: blurred = floor(3 x 3 sum / cells); cut = min(drop >> 3, 1024 x blurred).
        const expected = Int32Array.from(heights);
        const blurred = (x: number, y: number) => {
            let sum = 0;
            let cells = 0;
            for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
                const nx = x + dx;
                const ny = y + dy;
                if (nx >= 0 && ny >= 0 && nx < width && ny < depth) {
                    sum += counts[ny * width + nx];
                    cells++;
                }
            }
            return Math.floor(sum / cells);
        };
        const move = (from: number, to: number, drop: number) => {
            const cut = Math.min(drop >> 3, 1024 * blurred(from % width, Math.floor(from / width)));
            expected[from] -= cut;
            expected[to] += cut;
        };
        for (let y = 0; y < depth; y++) {
            const row = y * width;
            move(row + 0, row + 1, 65536); // slopes: 1 m to the cell toward the floor
            move(row + 1, row + 2, 65536);
            move(row + 4, row + 3, 65536);
            move(row + 3, row + 2, 65536);
            if (y < depth - 1) move(row + 2, row + width + 2, 16384); // floor: 0.25 m down the valley
        }
        expect(Array.from(run.state.heights)).toEqual(Array.from(expected));
    });

    it("conserves mass and stays inside the initial range over many cycles (bounded ruts)", () => {
        const width = 48;
        const heights = heightsToFixed(generateNoiseTerrain({ width, depth: width, relief: 20, tilt: 0.3, seed: 4 }));
        const options = resolveOptions({ patchSize: 16, hydraulic: { enabled: false }, thermal: { enabled: false }, flow: { enabled: true, rate: 0.002, stepsPerBatch: 16 } });
        const simulation = new CpuErosionSimulation(width, width, heights, options);
        const mass = conservedMass(createInitialState(width, width, heights));
        let low = Infinity;
        let high = -Infinity;
        for (const h of heights) {
            low = Math.min(low, h);
            high = Math.max(high, h);
        }
        simulation.runCycles(200);
        expect(conservedMass(simulation.state)).toBe(mass);
        let changed = 0;
        for (let i = 0; i < heights.length; i++) {
            expect(simulation.state.heights[i]).toBeGreaterThanOrEqual(low);
            expect(simulation.state.heights[i]).toBeLessThanOrEqual(high);
            if (simulation.state.heights[i] !== heights[i]) changed++;
        }
        expect(changed).toBeGreaterThan(heights.length / 4);
    });
});
