/**
 * Region checksums on the CPU reference: one unit changed in one vertex (of the heights, or of a
 * water grid) changes exactly the checksum of the region that holds it, and the combined checksum.
 */
import { applyRegions, combinedChecksum, differingRegions, readRegions, regionChecksumHex, regionChecksums } from "../../../plugin/lockstep.js";
import { CpuErosionSimulation, heightsToFixed, resolveOptions } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { cloneState } from "../../../plugin/advanced.js";
import { CHECKSUM_PASSES, LANE_A_START, LANE_B_START, mixWord } from "../../../plugin/core/checksums/regionChecksums.js";

const W = 45;
const D = 38;

function eroded() {
    const sim = new CpuErosionSimulation(W, D, heightsToFixed(generateNoiseTerrain({ width: W, depth: D, seed: 2, relief: 15 })), resolveOptions({ patchSize: 16, hydraulic: { dropletsPerBatch: 64 }, water: { enabled: true, stepsPerCycle: 2 } }));
    sim.runCycles(2);
    return sim.getState();
}

describe("region checksums", () => {
    const state = eroded();
    const size = 16;
    const base = regionChecksums(state, size);

    it("cut the field into regions of size x size vertices, the last ones at its edges", () => {
        expect([base.regionsX, base.regionsY]).toEqual([3, 3]);
        expect(base.lanes).toHaveLength(2 * 9);
        expect(new Set(Array.from({ length: 9 }, (_, r) => regionChecksumHex(base, r))).size).toBe(9);
        expect(regionChecksums(cloneState(state), size).lanes).toEqual(base.lanes);
        // The last region (cut by both edges) word by word with the rule the WGSL mirrors.
        const lanes = Uint32Array.of(LANE_A_START, LANE_B_START);
        for (const pass of CHECKSUM_PASSES) {
            for (let y = 32; y < D; y++) {
                for (let x = 32; x < W; x++) for (const grid of pass) mixWord(lanes, 0, (grid in state ? (state as unknown as Record<string, Int32Array>)[grid] : (state.water as unknown as Record<string, Int32Array>)[grid])[y * W + x]);
            }
        }
        expect([base.lanes[16], base.lanes[17]]).toEqual([lanes[0], lanes[1]]);
    });

    it("change for exactly the region that holds a changed vertex, whichever grid it is in", () => {
        const cases: [string, number, number][] = [["heights", 0, 0], ["heights", 44, 37], ["suspended", 16, 15], ["fillLevels", 31, 32], ["waterDepth", 20, 20], ["groundChange", 40, 3], ["fluxD2", 15, 16]];
        for (const [grid, x, y] of cases) {
            const changed = cloneState(state);
            const values = grid in changed ? (changed as unknown as Record<string, Int32Array>)[grid] : (changed.water as unknown as Record<string, Int32Array>)[grid];
            values[y * W + x] += 1;
            const after = regionChecksums(changed, size);
            expect({ grid, regions: differingRegions(base, after) }).toEqual({ grid, regions: [Math.floor(y / size) * 3 + Math.floor(x / size)] });
            expect(combinedChecksum(after)).not.toBe(combinedChecksum(base));
        }
    });

    it("take in the soil and hardness once the materials have run, and a repair from a right state brings a region back", () => {
        const sim = new CpuErosionSimulation(W, D, heightsToFixed(generateNoiseTerrain({ width: W, depth: D, seed: 2, relief: 15 })), resolveOptions({ patchSize: 16, hydraulic: { dropletsPerBatch: 64 }, materials: { enabled: true, initialSoil: 0.2 } }));
        sim.runCycles(1);
        const right = sim.getState();
        const checks = regionChecksums(right, size);
        for (const grid of ["soil", "hardness"] as const) {
            const parted = cloneState(right);
            parted.materials![grid][20 * W + 40] += 1;
            const after = regionChecksums(parted, size);
            expect({ grid, regions: differingRegions(checks, after) }).toEqual({ grid, regions: [1 * 3 + 2] });
            applyRegions(parted, readRegions(right, size, [5]));
            expect(differingRegions(checks, regionChecksums(parted, size))).toEqual([]);
        }
        // A patch with soil does not go into a state without.
        expect(() => applyRegions({ ...cloneState(right), materials: null }, readRegions(right, size, [0]))).toThrow(/has soil and this state has none/);
    });

    it("refuses a bad region size, naming it and its range", () => {
        expect(() => regionChecksums(state, 1)).toThrow(/size is 1: it must be a whole number of vertices in \[2, 4096\]/);
        expect(() => regionChecksums(state, 2.5)).toThrow(/size is 2.5/);
        expect(() => differingRegions(base, regionChecksums(state, 8))).toThrow(/cut the same way|one field cut one way/);
    });
});
