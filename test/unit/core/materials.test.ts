/**
 * Bedrock and soil (contract "Materials"): the soil rule in every fold, thermal's two angles of
 * repose and hardness, the state's new grids in the fingerprint and snapshots, and a run without
 * the materials unchanged.
 */
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { generateCone, generateNoiseTerrain } from "../../../plugin/terrain.js";
import { conservedMass, fingerprintOf, noMasks } from "../../../plugin/advanced.js";
import { axisSlope, HARDNESS_ONE, initialSoilAt, weatheredSoil, materialMapArrays, materialParams, materialTexels, rockTaken, rockThreshold, soilAfter, thermalMaterialAmount } from "../../../plugin/internal.js";

const SIZE = 27;

function run(input: ErosionOptionsInput, cycles: number, heights = heightsToFixed(generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 5, relief: 12 }))): CpuErosionSimulation {
    const simulation = new CpuErosionSimulation(SIZE, SIZE, heights, resolveOptions({ patchSize: 16, ...input }));
    simulation.runCycles(cycles);
    return simulation;
}

describe("the materials' integer rules", () => {
    it("takes the soil first and lays down soil", () => {
        expect(soilAfter(100, -30)).toBe(70);
        expect(soilAfter(100, -130)).toBe(0);
        expect(soilAfter(0, 45)).toBe(45);
    });

    it("takes rock at 1 / hardness, exactly the amount at hardness 1, without leaving an i32", () => {
        expect(rockTaken(1000, HARDNESS_ONE)).toBe(1000);
        expect(rockTaken(1000, 10 * HARDNESS_ONE)).toBe(100);
        expect(rockTaken(999, 10 * HARDNESS_ONE)).toBe(99);
        expect(rockTaken(2 ** 31 - 1, 1000 * HARDNESS_ONE)).toBe(Math.floor((2 ** 31 - 1) / 1000));
    });

    it("sheds soil at its own angle and rock beyond it at 1 / hardness", () => {
        // A drop of 3 units past the soil's threshold and 1 past the rock's, rate 1/2 (Q16 32768).
        expect(thermalMaterialAmount(1000, 900, 1000, 32768, 10, HARDNESS_ONE)).toBe(10); // capped by the soil share
        expect(thermalMaterialAmount(1200, 900, 1000, 32768, 1000, HARDNESS_ONE)).toBe(150); // the soil's excess covers the rock's
        expect(thermalMaterialAmount(1200, 900, 1000, 32768, 0, 2 * HARDNESS_ONE)).toBe(50); // bare rock, twice as hard
        expect(thermalMaterialAmount(1200, 1000, 1000, 32768, 40, HARDNESS_ONE)).toBe(100); // one angle, hardness 1: as without materials
    });
});

describe("materials in a run", () => {
    const every: ErosionOptionsInput = { rivers: { uplift: 0.01 }, water: { enabled: true, stepsPerCycle: 2 } };

    it("with one angle of repose, hardness 1 and the channels' load as without them erodes every height as without them, and keeps the soil apart", () => {
        const without = run(every, 2);
        const withSoil = run({ ...every, materials: { enabled: true, soilTalus: 1, hardness: 1, initialSoil: 0.5, channelSoil: false } }, 2);
        expect(Array.from(withSoil.state.heights)).toEqual(Array.from(without.state.heights));
        expect(withSoil.fingerprint()).not.toBe(without.fingerprint());
        const soil = withSoil.state.materials!.soil;
        expect(Math.min(...soil)).toBeGreaterThanOrEqual(0);
        // Deposits gathered somewhere, and erosion bared rock somewhere.
        expect(Math.max(...soil)).toBeGreaterThan(0.5 * 65536);
        expect(Math.min(...soil)).toBe(0);
    });

    it("leaves what slopes shed into a channel on its bed as soil (channelSoil), where the channel rule hands it to the rivers' load", () => {
        const options: ErosionOptionsInput = { hydraulic: { enabled: false }, thermal: { talus: 0.5, iterations: 4 }, rivers: { channelArea: 8 } };
        const soilIn = (channelSoil: boolean) => {
            const simulation = run({ ...options, materials: { enabled: true, hardness: 2, channelSoil } }, 3);
            const { drainageArea, materials } = simulation.state;
            let sum = 0;
            for (let i = 0; i < drainageArea.length; i++) if (drainageArea[i] >= 8) sum += materials!.soil[i];
            return sum;
        };
        expect(soilIn(true)).toBeGreaterThan(2 * soilIn(false));
    });

    it("never raises the rock but by uplift: rock = height - soil only wears", () => {
        const heights = heightsToFixed(generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 9, relief: 12 }));
        const simulation = run({ ...every, rivers: { uplift: 0 }, materials: { enabled: true, initialSoil: 0.25, hardness: 4 } }, 3, heights);
        const { heights: surface, materials } = simulation.state;
        const initialSoil = Math.round(0.25 * 65536);
        for (let i = 0; i < surface.length; i++) expect(surface[i] - materials!.soil[i]).toBeLessThanOrEqual(heights[i] - initialSoil);
        expect(conservedMass(simulation.state)).toBe(conservedMass(run({}, 0, heights).state));
    });

    it("lets soil slide below the rock's angle of repose, where bare rock stands", () => {
        const cone = heightsToFixed(generateCone(SIZE, SIZE, 8, 16)); // slope 0.5
        const thermalOnly: ErosionOptionsInput = { hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { talus: 1, rate: 1, iterations: 4 } };
        // Hard rock stands near thermal.talus (rock as soft as the soil would slide like it).
        const bare = run({ ...thermalOnly, materials: { enabled: true, soilTalus: 0.25, hardness: 1000 } }, 4, cone);
        expect(Array.from(bare.state.heights)).toEqual(Array.from(cone));
        const soiled = run({ ...thermalOnly, materials: { enabled: true, soilTalus: 0.25, hardness: 1000, initialSoil: 1 } }, 4, cone);
        expect(soiled.maps.wear.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
        // What moved was soil: the rock under it (the surface less the cell of soil it started with) is untouched.
        const soil = soiled.state.materials!.soil;
        for (let i = 0; i < cone.length; i++) expect(soiled.state.heights[i] - soil[i]).toBe(cone[i] - 65536);
    });

    it("lets soft rock settle to the soil's angle and hard rock stand toward the rock's", () => {
        const thermalOnly: ErosionOptionsInput = { hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { talus: 1, rate: 1, iterations: 4 } };
        const cone = heightsToFixed(generateCone(SIZE, SIZE, 8, 16)); // slope 0.5, between the two angles
        const soft = run({ ...thermalOnly, materials: { enabled: true, soilTalus: 0.25, hardness: 1 } }, 4, cone);
        expect(soft.maps.wear.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
        const hard = run({ ...thermalOnly, materials: { enabled: true, soilTalus: 0.25, hardness: 4 } }, 4, cone); // stands at 0.25 + 0.75 x 0.75 = 0.81
        expect(Array.from(hard.state.heights)).toEqual(Array.from(cone));
        expect(rockThreshold(16384, 65536, 4 * HARDNESS_ONE)).toBe(16384 + 0.75 * 49152);
    });

    it("moves hard rock more slowly", () => {
        const cone = heightsToFixed(generateCone(SIZE, SIZE, 30, 16));
        const thermalOnly: ErosionOptionsInput = { hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { talus: 0.5, rate: 1, iterations: 2 } };
        const worn = (hardness: number) => run({ ...thermalOnly, materials: { enabled: true, soilTalus: 0.5, hardness } }, 2, cone).maps.wear.reduce((a, b) => a + b, 0);
        expect(worn(10)).toBeLessThan(worn(1) / 4);
    });

    it("travels in snapshots and hashes into the fingerprint", () => {
        const simulation = run({ ...every, materials: { enabled: true, initialSoil: 0.1 } }, 2);
        const loaded = ErosionSnapshot.fromArrayBuffer(simulation.snapshot().toArrayBuffer());
        expect(Array.from(loaded.state.materials!.soil)).toEqual(Array.from(simulation.state.materials!.soil));
        const resumed = new CpuErosionSimulation(SIZE, SIZE, new Int32Array(SIZE * SIZE), resolveOptions(loaded.options));
        resumed.restore(loaded);
        expect(resumed.fingerprint()).toBe(simulation.fingerprint());
        simulation.runCycles(1);
        resumed.runCycles(1);
        expect(resumed.fingerprint()).toBe(simulation.fingerprint());
    });
});

describe("the materials' maps", () => {
    it("writes the texture's rows as readMaps' arrays, and bare rock as soft as soil before the materials run", () => {
        const options = resolveOptions({ patchSize: 16, materials: { enabled: true, initialSoil: 0.2, hardness: 2, strataThickness: 1, strataHardness: 6, strataShare: 0.5, strataBeds: 6 } });
        const simulation = new CpuErosionSimulation(SIZE, SIZE, heightsToFixed(generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 5, relief: 12 })), options);
        const fields = materialParams(options, options.thermal.talus);
        expect(Array.from(materialTexels(simulation.state, fields, 2, 3, 5))).toEqual(Array.from({ length: SIZE * 2 }, () => [0, -1, 1, 0]).flat());
        simulation.runCycles(1);
        const maps = materialMapArrays(simulation.state, fields, 2);
        const texels = materialTexels(simulation.state, fields, 2, 4, 9);
        for (let k = 0; k < SIZE * 5; k++) {
            const i = 4 * SIZE + k;
            expect([texels[k * 4], texels[k * 4 + 1], texels[k * 4 + 2], texels[k * 4 + 3]]).toEqual([maps.soil[i], maps.exposedLayer[i], maps.rockHardness[i], 1]);
        }
        // A region's columns (the CPU backend's frames): the same texels, row after row.
        const region = materialTexels(simulation.state, fields, 2, 4, 9, undefined, 3, 11);
        expect(Array.from(region)).toEqual(Array.from({ length: 5 }, (_, y) => Array.from(texels.subarray((y * SIZE + 3) * 4, (y * SIZE + 11) * 4))).flat());
        // Soil in local units (cell size 2), some bare rock, beds outside the six layered ones read -1, and both hardnesses.
        expect(maps.soil[0]).toBeCloseTo((simulation.state.materials!.soil[0] / 65536) * 2, 6);
        expect(maps.soil.some((soil) => soil === 0)).toBe(true);
        expect(new Set(maps.exposedLayer).has(-1)).toBe(true);
        expect(new Set(maps.rockHardness)).toEqual(new Set([2, 6]));
    });
});

describe("the hardness map", () => {
    const half = (width: number) => Int32Array.from({ length: width * width }, (_, i) => (i % width < width / 2 ? 65536 : 0));
    const wear = (simulation: CpuErosionSimulation, start: Int32Array, hard: boolean) => {
        let sum = 0;
        for (let i = 0; i < start.length; i++) if (i % SIZE < SIZE / 2 === hard) sum += Math.abs(simulation.state.heights[i] - start[i]);
        return sum;
    };

    it("makes the rock harder where it reads 1, hashes only while set, and travels in snapshots", () => {
        const start = heightsToFixed(generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 5, relief: 12 }));
        const options = resolveOptions({ patchSize: 16, materials: { enabled: true, hardnessMapScale: 20 } });
        const plain = new CpuErosionSimulation(SIZE, SIZE, start.slice(), options);
        const mapped = new CpuErosionSimulation(SIZE, SIZE, start.slice(), options);
        mapped.setMasks({ ...noMasks(), hardness: half(SIZE) });
        expect(mapped.fingerprint()).not.toBe(plain.fingerprint());
        plain.runCycles(2);
        mapped.runCycles(2);
        // Factor 20 where the map reads 1, 1 where it reads 0.
        expect(mapped.state.materials!.hardness[0]).toBe(20 * HARDNESS_ONE);
        expect(mapped.state.materials!.hardness[SIZE - 1]).toBe(HARDNESS_ONE);
        expect(wear(mapped, start, true)).toBeLessThan(wear(plain, start, true) / 3);
        const loaded = ErosionSnapshot.fromArrayBuffer(mapped.snapshot().toArrayBuffer());
        expect(Array.from(loaded.state.masks.hardness!)).toEqual(Array.from(half(SIZE)));
        const resumed = new CpuErosionSimulation(SIZE, SIZE, new Int32Array(SIZE * SIZE), resolveOptions(loaded.options));
        resumed.restore(loaded);
        // Cleared: the factor grid goes back to 1 at the next batch with the materials.
        for (const simulation of [mapped, resumed]) {
            simulation.setMasks({ ...simulation.state.masks, hardness: null });
            simulation.runCycles(1);
        }
        expect(resumed.fingerprint()).toBe(mapped.fingerprint());
        expect(mapped.state.materials!.hardness.every((factor) => factor === HARDNESS_ONE)).toBe(true);
    });
});

describe("soil from slope at the start", () => {
    it("starts thick on flat ground and thins linearly to none at materials.initialSoilSlope", () => {
        // A cone: flat on top (a plateau cut at 60% of its height), steeper down its sides; thermal at angles nothing reaches only makes the soil.
        const cone = generateCone(SIZE, SIZE, 20, 12);
        const heights = heightsToFixed(cone.map((height) => Math.min(height, 12)));
        const simulation = new CpuErosionSimulation(SIZE, SIZE, heights, resolveOptions({ patchSize: 16, hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { talus: 64 }, materials: { enabled: true, soilTalus: 64, initialSoil: 1, initialSoilSlope: 4 } }));
        simulation.runCycles(1);
        const soil = simulation.state.materials!.soil;
        const centre = (SIZE >> 1) * SIZE + (SIZE >> 1);
        expect(soil[centre]).toBe(65536);
        for (let i = 0; i < SIZE * SIZE; i++) expect(soil[i]).toBe(initialSoilAt(65536, axisSlope(heights, SIZE, SIZE, i % SIZE, Math.floor(i / SIZE)), 4 * 65536));
        expect(initialSoilAt(65536, 2 * 65536, 4 * 65536)).toBe(32768);
        expect(initialSoilAt(65536, 9 * 65536, 4 * 65536)).toBe(0);
        expect(new Set(soil).size).toBeGreaterThan(3);
    });
});

describe("soil from a soil map at the start", () => {
    it("starts with the map's share of materials.initialSoil, thinned by slope, hashes the map only while set, and carries it in snapshots", () => {
        const cone = generateCone(SIZE, SIZE, 20, 12);
        const heights = heightsToFixed(cone.map((height) => Math.min(height, 12)));
        const options = resolveOptions({ patchSize: 16, hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { talus: 64 }, materials: { enabled: true, soilTalus: 64, initialSoil: 1, initialSoilSlope: 4 } });
        // None in the west, the whole soil in the east, a quarter between.
        const map = Int32Array.from({ length: SIZE * SIZE }, (_, i) => [0, 16384, 65536][Math.floor(((i % SIZE) * 3) / SIZE)]);
        const plain = new CpuErosionSimulation(SIZE, SIZE, heights.slice(), options);
        const mapped = new CpuErosionSimulation(SIZE, SIZE, heights.slice(), options);
        mapped.setMasks({ ...noMasks(), soil: map });
        expect(mapped.fingerprint()).not.toBe(plain.fingerprint());
        mapped.runCycles(1);
        const soil = mapped.state.materials!.soil;
        for (let i = 0; i < SIZE * SIZE; i++) {
            const initial = [0, 16384, 65536][Math.floor(((i % SIZE) * 3) / SIZE)];
            expect(soil[i]).toBe(initialSoilAt(initial, axisSlope(heights, SIZE, SIZE, i % SIZE, Math.floor(i / SIZE)), 4 * 65536));
        }
        expect(soil.some((units) => units === 16384)).toBe(true);
        const loaded = ErosionSnapshot.fromArrayBuffer(mapped.snapshot().toArrayBuffer());
        expect(Array.from(loaded.state.masks.soil!)).toEqual(Array.from(map));
        expect(fingerprintOf(loaded.state)).toBe(mapped.fingerprint());
    });
});

describe("soil production (weathering)", () => {
    it("weathers rock into soil toward materials.soilDepth, hard rock slower, without moving the surface", () => {
        expect(weatheredSoil(0, 0, 65536, 256)).toBe(0);
        expect(weatheredSoil(0, 6554, 65536, 256)).toBe(6554);
        expect(weatheredSoil(0, 6554, 65536, 2560)).toBe(655);
        expect(weatheredSoil(65536, 65536, 65536, 256)).toBe(65536);
        // Thermal at angles nothing reaches: the heights stay; the soil grows toward its depth on soft rock faster than on hard.
        const options = { patchSize: 16, hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { talus: 64, iterations: 4 }, materials: { enabled: true, soilTalus: 64, hardness: 1, weathering: 0.1, soilDepth: 1 } };
        const start = heightsToFixed(generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 5, relief: 12 }));
        const soft = new CpuErosionSimulation(SIZE, SIZE, start.slice(), resolveOptions(options));
        const hard = new CpuErosionSimulation(SIZE, SIZE, start.slice(), resolveOptions({ ...options, materials: { ...options.materials, hardness: 4 } }));
        for (const simulation of [soft, hard]) simulation.runCycles(2);
        expect(Array.from(soft.state.heights)).toEqual(Array.from(start));
        const mean = (simulation: CpuErosionSimulation) => simulation.state.materials!.soil.reduce((sum, value) => sum + value, 0) / (SIZE * SIZE) / 65536;
        // Eight steps of 10% of the way: 1 - 0.9^8 = 0.57 of a cell; a quarter of that a step on rock four times as hard.
        expect(mean(soft)).toBeCloseTo(0.57, 1);
        expect(mean(hard)).toBeGreaterThan(0.15);
        expect(mean(hard)).toBeLessThan(mean(soft) / 2);
        expect(soft.state.materials!.soil.every((value) => value <= 65536)).toBe(true);
    });
});
