import { CpuErosionSimulation, erodeHeightfield, heightsToFixed, resolveOptions } from "../../../plugin/index.js";
import { generateCone, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { conservedMass, createInitialState } from "../../../plugin/advanced.js";
import { heightSum } from "../../../plugin/internal.js";
import { expectGolden } from "../../helpers/golden.js";

describe("CpuErosionSimulation", () => {
    it("keeps a flat field flat and unchanged", () => {
        const flat = new Float32Array(40 * 30).fill(12.5);
        const result = erodeHeightfield(flat, 40, 30, { patchSize: 16 }, 3);
        expect(Array.from(result.heights)).toEqual(Array.from(flat));
        expect(result.state.suspended.every((value) => value === 0)).toBe(true);
    });

    it.each([
        ["closed thermal, deposit at end", { thermal: { boundary: "closed" as const } }],
        ["open thermal, carry at end", { thermal: { boundary: "open" as const, talus: 0.1 }, hydraulic: { endOfWalk: "carry" as const } }],
    ])("conserves mass to the unit: %s", (_name, options) => {
        const width = 70;
        const depth = 50;
        const heights = heightsToFixed(generateNoiseTerrain({ width, depth, relief: 60 }));
        const simulation = new CpuErosionSimulation(width, depth, heights, resolveOptions({ patchSize: 24, ...options }));
        const initial = conservedMass(createInitialState(width, depth, heights));
        for (let cycle = 0; cycle < 4; cycle++) {
            simulation.runCycles(1);
            expect(conservedMass(simulation.state)).toBe(initial);
        }
        expect(heightSum(simulation.state.heights)).not.toBe(initial); // material did move, and some left
    });

    it("is deterministic: same inputs, same state and fingerprint; another seed differs", () => {
        const heights = generateNoiseTerrain({ width: 48, depth: 48, relief: 30 });
        const a = erodeHeightfield(heights, 48, 48, { seed: 4, patchSize: 16 }, 2);
        const b = erodeHeightfield(heights, 48, 48, { seed: 4, patchSize: 16 }, 2);
        const c = erodeHeightfield(heights, 48, 48, { seed: 5, patchSize: 16 }, 2);
        expect(b.fingerprint).toBe(a.fingerprint);
        expect(Array.from(b.fixedHeights)).toEqual(Array.from(a.fixedHeights));
        expect(c.fingerprint).not.toBe(a.fingerprint);
    });

    it("takes fixed-point Int32Array input and gives the same result as metres", () => {
        const metres = generateNoiseTerrain({ width: 33, depth: 33, relief: 10 });
        const fromMetres = erodeHeightfield(metres, 33, 33, { patchSize: 16 }, 1);
        const fromFixed = erodeHeightfield(heightsToFixed(metres), 33, 33, { patchSize: 16 }, 1);
        expect(fromFixed.fingerprint).toBe(fromMetres.fingerprint);
    });

    it("rejects bad grids and heights before doing any work", () => {
        expect(() => erodeHeightfield(new Float32Array(4), 1, 4)).toThrow(/width is 1/);
        expect(() => erodeHeightfield(new Float32Array(5), 2, 2)).toThrow(/heights has 5 values but width x depth is 2 x 2 = 4/);
        expect(() => erodeHeightfield(new Float32Array([0, 0, NaN, 0]), 2, 2)).toThrow(/heights\[2\] is NaN/);
        expect(() => erodeHeightfield(new Float32Array(4), 2, 2, {}, -1)).toThrow(/cycles is -1/);
        expect(() => erodeHeightfield(new Float32Array(4), 2, 2, { hydraulic: { maxSteps: 0 } })).toThrow(/hydraulic.maxSteps/);
    });

    it("runs droplets and thermal over every patch once per cycle, class by class, and the rivers once over the whole field, in operator order", () => {
        const simulation = new CpuErosionSimulation(65, 33, new Int32Array(65 * 33), resolveOptions({ patchSize: 16, hydraulic: { maxSteps: 8 } }));
        const runs: { operator: string; patch: number; group: number; width: number }[] = [];
        for (let i = 0; i < simulation.schedule.batchesPerCycle; i++) {
            const planned = simulation.schedule.planNext()!;
            runs.push({ operator: planned.operator, patch: planned.patch.index, group: planned.group, width: planned.patch.x1 - planned.patch.x0 });
            simulation.runBatch();
        }
        expect(simulation.schedule.batchesPerCycle).toBe(4 * 2 * 2 + 1);
        expect(runs.map((run) => run.operator[0]).join("")).toBe("hhhhhhhhrtttttttt");
        for (const operator of ["hydraulic", "thermal"]) {
            expect(runs.filter((run) => run.operator === operator).map((run) => run.patch).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
        }
        expect(runs.find((run) => run.operator === "rivers")!.width).toBe(65);
        // Thermal reaches one vertex past its patch, so patches two columns apart run together: on
        // this 4 x 2 layout, four classes of two.
        const thermalGroups = new Set(runs.filter((run) => run.operator === "thermal").map((run) => run.group));
        expect(thermalGroups.size).toBe(4);
        // Groups are consecutive: a class's batches run one after another.
        const groups = runs.map((run) => run.group);
        expect(groups).toEqual([...groups].sort((a, b) => a - b));
        expect(simulation.state.cycle).toBe(1);
        expect(simulation.state.batch).toBe(0);
    });

    it("applies option changes at the next cycle boundary only", () => {
        const simulation = new CpuErosionSimulation(33, 33, heightsToFixed(generateCone(33, 33, 10, 14)), resolveOptions({ patchSize: 16 }));
        simulation.runBatch();
        simulation.schedule.setOptions(resolveOptions({ patchSize: 16, hydraulic: { maxSteps: 5 } }));
        expect(simulation.schedule.planNext()!.params.maxSteps).toBe(64);
        simulation.runCycles(1);
        expect(simulation.schedule.planNext()!.params.maxSteps).toBe(5);
    });

    describe("golden fingerprints (contract version 13)", () => {
        it.each([
            ["noise 64x48, defaults, 2 cycles", () => erodeHeightfield(generateNoiseTerrain({ width: 64, depth: 48, relief: 40, seed: 2 }), 64, 48, { patchSize: 32 }, 2).fingerprint],
            ["cone 41x41, brush 0, open thermal, 3 cycles", () => erodeHeightfield(generateCone(41, 41, 30, 18), 41, 41, { patchSize: 20, seed: 77, hydraulic: { brushRadius: 0, dropletsPerBatch: 300 }, thermal: { boundary: "open", neighbours: 4 } }, 3).fingerprint],
            ["rivers with droplets and thermal, tileable, uplift, 3 cycles", () => erodeHeightfield(generateNoiseTerrain({ width: 45, depth: 37, relief: 25, seed: 12 }), 45, 37, { patchSize: 16, tileable: true, rivers: { erosion: 0.2, uplift: 0.01 } }, 3).fingerprint],
            ["mountain relief 50x50 on 90 m cells, carry, 1 cycle", () => erodeHeightfield(generateNoiseTerrain({ width: 50, depth: 50, relief: 4000, seed: 9 }), 50, 50, { hydraulic: { endOfWalk: "carry", gravity: 10 }, thermal: { talus: 0.7 } }, 1, 90).fingerprint],
            ["featureSize 3 m on 0.5 m cells, 2 cycles", () => erodeHeightfield(generateNoiseTerrain({ width: 40, depth: 36, relief: 10, seed: 4 }), 40, 36, { patchSize: 16, featureSize: 3, hydraulic: { dropletsPerBatch: 200, maxSteps: 12, brushRadius: 1 } }, 2, 0.5).fingerprint],
            ["shallow water with droplets, rivers and thermal, 2 cycles", () => erodeHeightfield(generateNoiseTerrain({ width: 44, depth: 38, relief: 20, seed: 6 }), 44, 38, { patchSize: 16, water: { enabled: true, rain: 0.01, stepsPerCycle: 4, capacity: 4 } }, 2).fingerprint],
            ["rock and soil: dipping strata, soil from slope, weathering, the channels' soil, 2 cycles", () => erodeHeightfield(generateNoiseTerrain({ width: 48, depth: 40, relief: 24, seed: 8 }), 48, 40, { patchSize: 16, rivers: { channelArea: 12 }, materials: { enabled: true, hardness: 2, initialSoil: 0.4, initialSoilSlope: 1, weathering: 0.02, strataThickness: 2, strataShare: 0.5, strataDip: 0.2, strataDipDirection: 200 } }, 2).fingerprint],
        ])("%s", (name, run) => {
            expectGolden("fingerprints.json", name, run());
        });
    });
});
