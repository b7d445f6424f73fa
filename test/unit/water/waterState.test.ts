/**
 * The shallow water as state: exact balances after every kernel, the heaviest rain for 10^4
 * cycles, split independence, snapshots between two passes of a step, and water sources.
 */
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { conservedMass, noMasks, waterImbalance } from "../../../plugin/advanced.js";
import { checkHeaviestRain } from "../../helpers/longRuns.js";

const FIXED_ONE = 65536;

function noise(width: number, depth: number, seed = 3): Int32Array {
    return heightsToFixed(generateNoiseTerrain({ width, depth, relief: 15, seed }));
}

describe("shallow water as state", () => {
    it("keeps water and material balanced to the unit after every kernel (every class of batches; all operators, rain mask, a source, open edges)", () => {
        const width = 37;
        const depth = 29;
        const simulation = new CpuErosionSimulation(width, depth, noise(width, depth), resolveOptions({ patchSize: 16, hydraulic: { dropletsPerBatch: 100 }, water: { enabled: true, rain: 0.02, stepsPerCycle: 3, capacity: 16, dissolving: 0.5, deposition: 0.5 } }));
        const masks = noMasks();
        masks.rain = Int32Array.from({ length: width * depth }, (_, i) => (i % 3) * 30000);
        simulation.setMasks(masks);
        simulation.addWaterSource(20.3, 12.6, 2.5, 3);
        const mass = conservedMass(simulation.getState());
        // Within a class (one pass over every patch) water and sediment cross between patches that
        // have run and patches that have not; once the class has run, every unit is accounted for.
        let classes = 0;
        for (let cycle = 0; cycle < 2; cycle++) {
            let done = false;
            while (!done) {
                const group = simulation.schedule.planNext()!.group;
                while (!done && simulation.schedule.planNext()?.group === group) done = simulation.runBatch();
                classes++;
                const state = simulation.state;
                if (conservedMass(state) !== mass) throw new Error(`material off by ${conservedMass(state) - mass} after class ${classes}`);
                if (waterImbalance(state) !== 0n) throw new Error(`water off by ${waterImbalance(state)} after class ${classes}`);
            }
        }
        const state = simulation.getState();
        expect(classes).toBeGreaterThan(40);
        expect(state.counters[7]).toBeGreaterThan(0); // waterAdded
        expect(state.counters[9]).toBeGreaterThan(0); // waterOutflow: open edges
        expect(state.water!.waterSediment.some((load) => load > 0)).toBe(true);
    });

    it("takes the heaviest rain for 10^4 cycles on 17 x 17 (closed edges): no wrap, no negative water, depth capped and counted, balances exact (65 x 65 in npm run test:soak)", () => {
        checkHeaviestRain(17);
    });

    it("gives the same terrain and water however a step is cut into patches (8, 16 or 64 cells)", () => {
        const width = 45;
        const depth = 37;
        const heights = noise(width, depth, 8);
        const run = (patchSize: number) => {
            const options: ErosionOptionsInput = { patchSize, hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false }, water: { enabled: true, rain: 0.03, stepsPerCycle: 5, capacity: 8 } };
            const simulation = new CpuErosionSimulation(width, depth, heights, resolveOptions(options));
            simulation.addWaterSource(10, 30, 3, 5);
            simulation.runCycles(3);
            return simulation.fingerprint();
        };
        const fingerprints = [8, 16, 64].map(run);
        expect(new Set(fingerprints).size).toBe(1);
    });

    it("resumes exactly from a snapshot taken between two passes of a step (through its bytes)", () => {
        const width = 33;
        const depth = 27;
        const options = resolveOptions({ patchSize: 16, hydraulic: { dropletsPerBatch: 60 }, water: { enabled: true, rain: 0.02, stepsPerCycle: 2 } });
        const straight = new CpuErosionSimulation(width, depth, noise(width, depth), options);
        straight.addWaterSource(5, 5, 1, 1);
        // Part-way through the second cycle's first step: after its transport, before its depth pass.
        straight.runCycles(1);
        for (let batch = 0; batch < 4 * 4 + 2; batch++) straight.runBatch();
        const bytes = new ErosionSnapshot(straight.getState(), options).toArrayBuffer();
        expect(straight.state.water!.waterNext.some((value) => value !== 0)).toBe(true);
        straight.runCycles(2);
        const resumed = new CpuErosionSimulation(width, depth, noise(width, depth), options);
        resumed.setState(ErosionSnapshot.fromArrayBuffer(bytes).state);
        resumed.runCycles(2);
        expect(resumed.fingerprint()).toBe(straight.fingerprint());
    });

    it("adds and removes water sources at the next cycle boundary, records them in the fingerprint, and names bad parameters", () => {
        const width = 25;
        const depth = 25;
        const options = resolveOptions({ patchSize: 16, hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false }, water: { enabled: true, rain: 0, evaporation: 0, stepsPerCycle: 2 } });
        const simulation = new CpuErosionSimulation(width, depth, new Int32Array(width * depth), options);
        simulation.runBatch(); // inside cycle 0
        const before = simulation.fingerprint();
        const id = simulation.addWaterSource(12, 12, 2, 4);
        expect(simulation.fingerprint()).not.toBe(before); // pending, but state
        simulation.runCycles(1); // finishes cycle 0: the source was not in force
        expect(simulation.state.counters[7]).toBe(0);
        simulation.runCycles(1);
        // 2 steps of 4 cubic cells over the 13 vertices of a disc of radius 2: floor(4 x 65536 / 13) each.
        expect(simulation.state.counters[7]).toBe(2 * 13 * Math.floor((4 * FIXED_ONE) / 13));
        expect(simulation.removeWaterSource(id)).toBe(true);
        expect(simulation.removeWaterSource(id)).toBe(false);
        const added = simulation.state.counters[7];
        simulation.runCycles(1);
        expect(simulation.state.counters[7]).toBe(added);
        expect(() => simulation.addWaterSource(40, 3, 1, 1)).toThrow(/centre x is 40: it must be a number in \[0, 24\]/);
        expect(() => simulation.addWaterSource(3, 3, -1, 1)).toThrow(/radius is -1/);
        expect(() => simulation.addWaterSource(3, 3, 1, Number.NaN)).toThrow(/rate is NaN/);
        for (let k = 0; k < 256; k++) simulation.addWaterSource(1, 1, 0, 0.001);
        expect(() => simulation.addWaterSource(1, 1, 0, 0.001)).toThrow(/256 water sources/);
    });
});
