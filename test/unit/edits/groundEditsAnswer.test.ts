/**
 * Every operator answers an edit (CPU reference, small held terrains, each with its figure printed):
 * a crater on a slope fills cycle after cycle, a vertical cut relaxes to the talus slope, and a
 * canal dug across a divide captures the drainage of the slope beyond it.
 */
import { CpuErosionSimulation, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";

const UNIT = 65536;

function simulation(width: number, depth: number, metres: (x: number, y: number) => number, options: ErosionOptionsInput): CpuErosionSimulation {
    const heights = Int32Array.from({ length: width * depth }, (_, i) => Math.round(metres(i % width, Math.floor(i / width)) * UNIT));
    return new CpuErosionSimulation(width, depth, heights, resolveOptions({ patchSize: 24, ...options }));
}

describe("operators answer ground edits", () => {
    it("a crater on a slope loses depth cycle after cycle as sediment fills it", () => {
        const size = 49;
        const sim = simulation(size, size, (x, y) => 30 - y * 0.4 + Math.sin(x * 0.7) * 0.3, { seed: 4, hydraulic: { dropletsPerBatch: 1500 }, rivers: { enabled: false }, thermal: { talus: 0.6 } });
        sim.runCycles(2);
        sim.edit({ kind: "crater", depth: 4 * UNIT, rim: true }, [{ x: 24, y: 30 }], 5);
        sim.runBatch();
        // Depth below the rim: the lowest vertex of the bowl under the mean of its rim circle.
        const depthBelowRim = () => {
            const h = sim.state.heights;
            let floor = Infinity;
            for (let y = 27; y <= 33; y++) for (let x = 21; x <= 27; x++) floor = Math.min(floor, h[y * size + x]);
            let rim = 0;
            for (let k = 0; k < 16; k++) rim += h[Math.round(30 + 6 * Math.sin((k * Math.PI) / 8)) * size + Math.round(24 + 6 * Math.cos((k * Math.PI) / 8))];
            return (rim / 16 - floor) / UNIT;
        };
        const depths = [depthBelowRim()];
        for (let k = 0; k < 4; k++) {
            sim.runCycles(3);
            depths.push(depthBelowRim());
        }
        console.log(`crater depth below its rim, every 3 cycles: ${depths.map((d) => d.toFixed(2)).join(" -> ")} m`);
        for (let k = 1; k < depths.length; k++) expect(depths[k]).toBeLessThan(depths[k - 1]);
        expect(depths[depths.length - 1]).toBeLessThan(depths[0] * 0.8);
    });

    it("a vertical cut relaxes to the talus slope (thermal)", () => {
        const width = 41;
        const depth = 24;
        const talus = 0.8;
        const sim = simulation(width, depth, () => 20, { hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { talus, rate: 0.5, iterations: 4 } });
        // A trench 6 m deep across the field: walls one cell wide, far steeper than the talus.
        sim.edit({ kind: "flatten", target: 14 * UNIT, edge: 0 }, [{ x: 20, y: -2 }, { x: 20, y: depth + 2 }], 3.5);
        sim.runBatch();
        const steepest = () => {
            const h = sim.state.heights;
            let most = 0;
            for (let y = 2; y < depth - 2; y++) for (let x = 1; x < width; x++) most = Math.max(most, Math.abs(h[y * width + x] - h[y * width + x - 1]) / UNIT);
            return most;
        };
        const slopes = [steepest()];
        for (let k = 0; k < 4; k++) {
            sim.runCycles(20);
            slopes.push(steepest());
        }
        console.log(`steepest slope across the cut, every 20 cycles: ${slopes.map((s) => s.toFixed(2)).join(" -> ")} (talus ${talus})`);
        expect(slopes[0]).toBeGreaterThan(4 * talus);
        expect(slopes[slopes.length - 1]).toBeLessThan(talus * 1.1);
    });

    it("a canal dug across a divide captures the drainage of the slope beyond it (rivers)", () => {
        const size = 49;
        // A divide along row 16 between two valleys down x = 24: the north one drains to the north edge, the south one to the south edge.
        const sim = simulation(size, size, (x, y) => 25 - Math.abs(y - 16) * 0.3 + Math.abs(x - 24) * 0.5, { seed: 2, hydraulic: { enabled: false }, thermal: { enabled: false }, rivers: { erosion: 0.02, stepsPerBatch: 64 } });
        sim.runCycles(3);
        const edgeArea = (row: number) => {
            const a = sim.state.drainageArea;
            let most = 0;
            for (let x = 0; x < size; x++) most = Math.max(most, a[row * size + x]);
            return most;
        };
        const before = { north: edgeArea(1), south: edgeArea(size - 2) };
        // The canal: a level bottom at 17 m from row 6 of the north valley (22 m there) over the divide (25 m)
        // to row 43 of the south valley, where the valley floor falls below it.
        sim.edit({ kind: "flatten", target: 17 * UNIT, edge: 0.3 }, [{ x: 24, y: 6 }, { x: 24, y: 43 }], 2.5);
        sim.runCycles(6);
        const after = { north: edgeArea(1), south: edgeArea(size - 2) };
        console.log(`largest drainage area reaching the north edge ${before.north} -> ${after.north} cells, the south edge ${before.south} -> ${after.south} cells, 6 cycles after the canal`);
        // The north valley's water now leaves by the south edge: most of what the north lost, the south gained.
        expect(after.north).toBeLessThan(before.north / 4);
        expect(after.south - before.south).toBeGreaterThan(0.8 * (before.north - after.north));
    });
});

describe("the shallow water answers a dam", () => {
    it("a dam piled across a valley ponds a spring's water until it spills over the crest, and the lake comes to rest at the crest", () => {
        const size = 25;
        const sim = simulation(size, size, (x, y) => 6 + Math.abs(x - 12) * 0.8 + (size - 1 - y) * 0.15, {
            hydraulic: { enabled: false },
            rivers: { enabled: false },
            thermal: { enabled: false },
            patchSize: 64,
            water: { enabled: true, rain: 0, evaporation: 0, capacity: 0, boundary: "open", stepsPerCycle: 1 },
        });
        // The dam: 1.5 m piled along row 14 from one valley side to the other (its crest, 9 m, is below
        // the valley's head, 9.6 m, so the lake can only leave over the dam).
        sim.edit({ kind: "pile", height: 1.5 * UNIT }, [{ x: 0, y: 14 }, { x: 24, y: 14 }], 2);
        sim.runBatch();
        const h = sim.state.heights;
        let crest = Infinity;
        for (let x = 0; x < size; x++) crest = Math.min(crest, h[14 * size + x]);
        const crestAt = Array.from({ length: size }, (_, x) => x).find((x) => h[14 * size + x] === crest)!;
        const source = sim.addWaterSource(12, 3, 1, 0.05);
        let spilledAt = -1;
        for (let step = 0; step < 4000 && spilledAt < 0; step++) {
            sim.runCycles(1);
            if (sim.state.water!.waterDepth[16 * size + crestAt] > 0) spilledAt = step;
        }
        // The spring stops once the lake spills; the lake then settles at its spill point.
        sim.removeWaterSource(source);
        sim.runCycles(1500);
        const water = sim.state.water!.waterDepth;
        const surfaceAt = (x: number, y: number) => h[y * size + x] + water[y * size + x];
        const behind = surfaceAt(12, 10);
        const spill = surfaceAt(crestAt, 13); // the lake's last vertex before the crest
        console.log(`dam crest ${(crest / UNIT).toFixed(3)} m at column ${crestAt}; spilled after ${spilledAt} steps; the lake settled ${spill - crest} units above the crest at its spill point, ${behind - crest} units 4 cells behind it; below the dam ${(water[20 * size + 12] / UNIT).toFixed(4)} m of water`);
        expect(spilledAt).toBeGreaterThan(0);
        expect(water[10 * size + 12]).toBeGreaterThan(UNIT / 2); // a lake half a metre deep behind the dam
        // At rest, the spill height within 3 units of the crest and the lake within 3 units a cell of
        // it behind (docs/simulation.md, water_flux: a settled lake levels to 3 units an axis step;
        // measured: 2 units at the spill point, 5 units 4 cells behind it).
        const flows = sim.state.water!;
        expect([flows.fluxX, flows.fluxY, flows.fluxD1, flows.fluxD2].every((grid) => grid.every((flow) => flow === 0))).toBe(true);
        expect(spill - crest).toBeGreaterThanOrEqual(0);
        expect(spill - crest).toBeLessThanOrEqual(3);
        expect(Math.abs(behind - crest)).toBeLessThanOrEqual(3 * 4);
    });
});
