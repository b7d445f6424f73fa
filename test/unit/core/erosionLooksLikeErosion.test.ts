/**
 * On a noisy slope the change must concentrate into channels that run downhill and carry
 * material down: a test that fails for uniform lowering, for noise and for droplets that flow uphill.
 */
import { erodeHeightfield, heightsToFixed } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { hash4 } from "../../../plugin/internal.js";
import { erosionPatternProblems } from "../../helpers/erosionMetrics.js";

const N = 96;
const slope = heightsToFixed(generateNoiseTerrain({ width: N, depth: N, relief: 10, tilt: 0.5, seed: 5 }));

describe("erosion on a noisy slope falling toward +x", () => {
    it("cuts channels down the slope and lays material down below them", () => {
        const eroded = erodeHeightfield(slope, N, N, { patchSize: 32, thermal: { enabled: false }, hydraulic: { dropletsPerBatch: 2000 } }, 10);
        expect(erosionPatternProblems(slope, eroded.fixedHeights, N, N)).toEqual([]);
    });

    describe("the measure itself rejects what is not erosion", () => {
        it("uniform lowering", () => {
            const lowered = slope.map((h) => h - 65536);
            expect(erosionPatternProblems(slope, lowered, N, N).join()).toMatch(/not concentrated/);
        });

        it("spatial noise", () => {
            const noisy = slope.map((h, i) => h + ((hash4(1, 2, 3, i) % 131072) - 65536));
            expect(erosionPatternProblems(slope, noisy, N, N).join()).toMatch(/not channelled/);
        });

        it("droplets flowing uphill (a walk on the inverted field, its change applied to the real one)", () => {
            const inverted = slope.map((h) => -h);
            const eroded = erodeHeightfield(inverted, N, N, { patchSize: 32, thermal: { enabled: false }, hydraulic: { dropletsPerBatch: 2000 } }, 10);
            const uphill = slope.map((h, i) => h + (eroded.fixedHeights[i] - inverted[i]));
            expect(erosionPatternProblems(slope, uphill, N, N).join()).toMatch(/did not move downhill/);
        });
    });
});
