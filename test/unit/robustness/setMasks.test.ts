/**
 * `CpuErosionSimulation.setMasks` checks masks as the behaviors' `setMask` does: a map of the wrong
 * length, a negative or past-65536 Q16 value, a fractional one, a plain array, or an unknown name
 * is refused naming the mask (the hardness map, the soil map and every operator's mask), and none
 * of the masks given is set: the fingerprint and the snapshot stay as they were, and the snapshot
 * still reads back.
 */
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { MASK_NAMES } from "../../../plugin/advanced.js";

const SIZE = 17;

function simulation(): CpuErosionSimulation {
    return new CpuErosionSimulation(SIZE, SIZE, heightsToFixed(generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 3, relief: 5 })), resolveOptions({ patchSize: 16, materials: { enabled: true } }));
}

describe("CpuErosionSimulation.setMasks", () => {
    it("refuses a mask of the wrong length or range for every mask, naming it, and sets none of them", () => {
        const sim = simulation();
        sim.runBatch();
        const before = sim.fingerprint();
        const cells = SIZE * SIZE;
        const good = new Int32Array(cells).fill(32768);
        const cases: [string, unknown, RegExp][] = [];
        for (const name of MASK_NAMES) {
            cases.push([name, new Int32Array(cells - 5).fill(32768), new RegExp(`the ${name} mask has ${cells - 5} values: it must have ${cells}`)]);
            cases.push([name, new Int32Array(cells + 1).fill(32768), new RegExp(`the ${name} mask has ${cells + 1} values`)]);
            cases.push([name, new Int32Array(cells).fill(-1), new RegExp(`the ${name} mask's value 0 is -1: Q16 mask values must be in \\[0, 65536\\]`)]);
            cases.push([name, new Int32Array(cells).fill(65537), new RegExp(`the ${name} mask's value 0 is 65537`)]);
            cases.push([name, Array.from({ length: cells }, () => 0.5), new RegExp(`the ${name} mask is .*: it must be an Int32Array`)]);
        }
        for (const [name, values, message] of cases) {
            // The good mask on another name alongside: refused whole, that one is not set either.
            const other = name === "thermal" ? "rivers" : "thermal";
            expect(() => sim.setMasks({ ...sim.schedule.latestMasks, [other]: good, [name]: values } as never)).toThrow(message);
            expect(sim.schedule.latestMasks[other]).toBeNull();
            expect(sim.fingerprint()).toBe(before);
        }
        expect(() => sim.setMasks({ ...sim.schedule.latestMasks, erosion: good } as never)).toThrow(/the mask name is "erosion": it must be one of/);
        expect(sim.log.entries).toHaveLength(0);
        // What it holds still reads back as a snapshot.
        const snapshot = ErosionSnapshot.fromArrayBuffer(sim.snapshot().toArrayBuffer());
        expect(snapshot.fingerprint).toBe(before);
    });

    it("takes good masks (full strength, nothing, and every share between) and their snapshot reads back", () => {
        const sim = simulation();
        const ramp = Int32Array.from({ length: SIZE * SIZE }, (_, i) => Math.round((i / (SIZE * SIZE - 1)) * 65536));
        sim.setMasks({ ...sim.schedule.latestMasks, hardness: ramp, soil: ramp.slice().reverse(), hydraulic: new Int32Array(SIZE * SIZE) });
        sim.runCycles(1);
        expect(sim.schedule.masks.hardness).toEqual(ramp);
        const snapshot = ErosionSnapshot.fromArrayBuffer(sim.snapshot().toArrayBuffer());
        expect(snapshot.fingerprint).toBe(sim.fingerprint());
        expect(snapshot.state.masks.soil).toEqual(ramp.slice().reverse());
    });
});
