/**
 * The water's velocity over a running cycle on the CPU reference (the GPU's equal to it:
 * test/browser/waterParity.test.ts compares the view grids too): it changes only in the depth
 * passes, where the pipes hold the step's flows and the depth is the one they left, so what the
 * maps show mid-step is the last depth pass's (the pipes change in place in the flux, scale and limit
 * passes: read from them, the maps showed hundreds of cells a step there); no component exceeds a
 * cell a step; the texture's texels are the view grids in local units; a snapshot's load works the
 * velocity out again exactly at a step boundary.
 */
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { createWaterGrids, refreshWaterVelocity, WATER_PASSES, waterTexels, type WaterGrids } from "../../../plugin/advanced.js";

const FIXED_ONE = 65536;
const DEPTH_PASS = WATER_PASSES.indexOf("depth");

function waterOf(simulation: CpuErosionSimulation): WaterGrids {
    const water = simulation.state.water;
    if (!water) throw new Error("the state has no water");
    return water;
}

describe("the water's velocity within a cycle", () => {
    it("changes only in the depth passes, stays within a cell a step a component, and is what the step's pipes and depth give", () => {
        const width = 41;
        const depth = 33;
        const heights = heightsToFixed(generateNoiseTerrain({ width, depth, relief: 12, seed: 4 }));
        const simulation = new CpuErosionSimulation(width, depth, heights, resolveOptions({ patchSize: 16, hydraulic: { dropletsPerBatch: 80 }, water: { enabled: true, rain: 0.01, stepsPerCycle: 4 } }));
        simulation.runCycles(2);
        let before = waterOf(simulation);
        let depthBatches = 0;
        let moved = 0;
        for (let cycle = 0; cycle < 2; ) {
            const planned = simulation.schedule.planNext()!;
            if (simulation.runBatch()) cycle++;
            const water = waterOf(simulation);
            const changed = water.velocityX.some((v, i) => v !== before.velocityX[i]) || water.velocityY.some((v, i) => v !== before.velocityY[i]);
            if (planned.operator !== "water" || planned.params.waterPass !== DEPTH_PASS) {
                expect(changed).toBe(false);
            } else {
                depthBatches++;
                if (changed) moved++;
                // Right after the depth pass the view is the step's pipes over the depth they left.
                const worked = { ...water, velocityX: new Int32Array(width * depth), velocityY: new Int32Array(width * depth) };
                const { patchX0, patchY0, patchX1, patchY1 } = planned.params;
                refreshWaterVelocity(worked, width, depth);
                for (let y = patchY0; y < patchY1; y++) {
                    for (let x = patchX0; x < patchX1; x++) {
                        const i = y * width + x;
                        if (water.velocityX[i] !== worked.velocityX[i] || water.velocityY[i] !== worked.velocityY[i]) throw new Error(`vertex (${x}, ${y}) holds a velocity its pipes and depth do not give`);
                    }
                }
            }
            // What the maps and the texture show (cells of 1 local unit): never over a cell a step a component.
            const texels = waterTexels(simulation.state, 1, 0, depth);
            for (let i = 0; i < width * depth; i++) {
                const fastest = Math.max(Math.abs(texels[i * 4 + 1]), Math.abs(texels[i * 4 + 2]));
                if (fastest > 1) throw new Error(`batch ${planned.batch} (${planned.operator}, pass ${planned.params.waterPass}) shows ${fastest} cells a step at vertex ${i}`);
            }
            before = { ...water, velocityX: water.velocityX.slice(), velocityY: water.velocityY.slice() };
        }
        // Two cycles of 4 steps over 3 x 2 patches, and the water flows.
        expect(depthBatches).toBe(2 * 4 * 6);
        expect(moved).toBeGreaterThan(depthBatches / 2);
        expect(Math.max(...waterOf(simulation).velocityX.map(Math.abs))).toBeGreaterThan(FIXED_ONE / 8);
    });

    it("gives the texture's texels from the view grids (local units, rows toward -z) and zero where dry", () => {
        const water = createWaterGrids(4);
        water.waterDepth.set([0, FIXED_ONE, FIXED_ONE / 2, 3]);
        water.velocityX.set([0, FIXED_ONE / 2, -FIXED_ONE, 0]);
        water.velocityY.set([0, -FIXED_ONE / 4, FIXED_ONE, 7]);
        const heights = Int32Array.from([FIXED_ONE, 2 * FIXED_ONE, 0, 0]);
        const texels = waterTexels({ width: 2, heights, water }, 2, 0, 2);
        // (+ 0: a velocity of 0 along -z is written as -0.)
        expect(Array.from(texels, (texel) => texel + 0)).toEqual([0, 0, 0, 2, 2, 1, 0.5, 6, 1, -2, -2, 1, 6 / FIXED_ONE, 0, -14 / FIXED_ONE, 6 / FIXED_ONE]);
    });

    it("is worked out again, exactly, when a snapshot taken between steps loads (snapshots leave the view out)", () => {
        const width = 29;
        const depth = 23;
        const simulation = new CpuErosionSimulation(width, depth, heightsToFixed(generateNoiseTerrain({ width, depth, relief: 8, seed: 2 })), resolveOptions({ patchSize: 16, water: { enabled: true, rain: 0.02, stepsPerCycle: 3 } }));
        simulation.runCycles(3);
        const loaded = ErosionSnapshot.fromArrayBuffer(simulation.snapshot().toArrayBuffer()).state.water!;
        expect(Array.from(loaded.velocityX)).toEqual(Array.from(waterOf(simulation).velocityX));
        expect(Array.from(loaded.velocityY)).toEqual(Array.from(waterOf(simulation).velocityY));
        expect(waterOf(simulation).velocityX.some((v) => v !== 0)).toBe(true);
    });
});
