/**
 * Shallow-water parity in real WebGPU (headless Chromium, SwiftShader): the water kernels through
 * Babylon's ComputeShader against the CPU reference, bit for bit over the whole state (the ground's
 * grids, the water's ten grids and the velocity it carries, and every counter).
 */
import { readFileSync } from "node:fs";
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput, type MaskName } from "../../plugin/index.js";
import { decodeGrayPng, generateNoiseTerrain, samplesToHeights } from "../../plugin/terrain.js";
import { MASKED_OPERATORS, noMasks, STATE_GRIDS, WATER_CARRIED_GRIDS, type ErosionStateData, type WaterGrids } from "../../plugin/advanced.js";
import { decodeInt32, encodeInt32 } from "../helpers/base64.js";
import { openTestPage, type OpenPage } from "../helpers/browser.js";
import { firstDifference } from "../helpers/stateDiff.js";
import type { GpuRunRequest, GpuRunResult } from "./pages/gpuParity.js";

interface WaterCase {
    name: string;
    width: number;
    depth: number;
    heights: () => Float64Array;
    options: ErosionOptionsInput;
    /** Cycles to run, fractional: the run stops part-way through a step. */
    cycles: number;
    rainMask?: boolean;
    sources?: { afterBatch: number; x: number; y: number; radius: number; rate: number }[];
    mode?: "batch" | "class" | "reverse";
}

let montBlanc: Float64Array;

const WATER_ONLY = { hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false } };

const CASES: WaterCase[] = [
    {
        name: "water alone on a non-square 61 x 47 noise field (patches of 24: sides not multiples of the workgroup), heavy rain, a spring added mid-cycle, stopped inside a step",
        width: 61,
        depth: 47,
        heights: () => Float64Array.from(generateNoiseTerrain({ width: 61, depth: 47, relief: 25, seed: 5 })),
        options: { ...WATER_ONLY, patchSize: 24, water: { enabled: true, rain: 0.02, stepsPerCycle: 6, capacity: 8, dissolving: 0.3 } },
        cycles: 2.55,
        sources: [{ afterBatch: 40, x: 30.4, y: 20.7, radius: 3, rate: 2 }],
    },
    {
        name: "every operator with water on a real-mountain crop (Mont Blanc), closed edges, a rain mask, classes sharing their dispatches",
        width: 41,
        depth: 41,
        heights: () => montBlanc,
        options: { patchSize: 16, seed: 3, hydraulic: { dropletsPerBatch: 200 }, water: { enabled: true, rain: 0.01, stepsPerCycle: 4, boundary: "closed", friction: 0.2 } },
        cycles: 2,
        rainMask: true,
        mode: "class",
    },
    {
        name: "water alone, many small patches (patches of 8 on 50 x 36), each class's batches one at a time in reverse",
        width: 50,
        depth: 36,
        heights: () => Float64Array.from({ length: 50 * 36 }, (_, i) => 10 + Math.abs((i % 50) - 25) * 0.4 + Math.floor(i / 50) * 0.2),
        options: { ...WATER_ONLY, patchSize: 8, water: { enabled: true, rain: 0.05, stepsPerCycle: 3, friction: 0 } },
        cycles: 2,
        mode: "reverse",
    },
    {
        name: "a lake levelling in a bowl (light rain, closed edges): the one-unit pushes through each set of pipes in turn",
        width: 21,
        depth: 21,
        heights: () => Float64Array.from({ length: 21 * 21 }, (_, i) => 2 + 0.04 * (((i % 21) - 10) ** 2 + (Math.floor(i / 21) - 10) ** 2)),
        options: { ...WATER_ONLY, patchSize: 16, water: { enabled: true, rain: 0.0001, evaporation: 0, stepsPerCycle: 25, boundary: "closed" } },
        cycles: 2.5,
    },
];

describe("the shallow-water kernels in WebGPU equal the CPU reference bit for bit", () => {
    let browser: OpenPage;
    const runOnGpu = async (request: GpuRunRequest) => (await browser.page.evaluate((r) => (window as unknown as { runGpuBatches(r: GpuRunRequest): Promise<GpuRunResult> }).runGpuBatches(r), request)) as GpuRunResult;

    beforeAll(async () => {
        const image = await decodeGrayPng(readFileSync("sample-scene/public/alps-montblanc.png"));
        const crop = new Uint16Array(41 * 41);
        for (let y = 0; y < 41; y++) for (let x = 0; x < 41; x++) crop[y * 41 + x] = image.samples[(300 + y) * image.width + 300 + x];
        montBlanc = Float64Array.from(samplesToHeights(crop, { min: 454, max: 4810 }), (metres) => metres / 93);
        browser = await openTestPage("gpuParity");
    });

    afterAll(async () => {
        await browser?.close();
    });

    it.each(CASES)("$name", async (testCase) => {
        const { width, depth } = testCase;
        const fixed = heightsToFixed(testCase.heights());
        const options = resolveOptions(testCase.options);
        const cpu = new CpuErosionSimulation(width, depth, fixed, options);
        const masks = noMasks();
        if (testCase.rainMask) masks.rain = Int32Array.from({ length: width * depth }, (_, i) => ((i % width) < width / 2 ? 65536 : 16384));
        cpu.setMasks(masks);
        const batches = Math.round(testCase.cycles * cpu.schedule.batchesPerCycle);
        for (let i = 0; i < batches; i++) {
            for (const source of testCase.sources ?? []) if (source.afterBatch === i) cpu.addWaterSource(source.x, source.y, source.radius, source.rate);
            cpu.runBatch();
        }
        const encodedMasks = Object.fromEntries(MASKED_OPERATORS.map((name) => [name, masks[name] ? encodeInt32(masks[name]!) : null])) as Record<MaskName, string | null>;
        const result = await runOnGpu({ width, depth, heights: encodeInt32(fixed), cellSize: 1, options: testCase.options, batches, masks: encodedMasks, sources: testCase.sources, mode: testCase.mode });
        const gpuState = { width, depth, cycle: result.cycle, batch: result.batch, masks: noMasks(), counters: Float64Array.from(result.counters) } as ErosionStateData;
        for (const grid of STATE_GRIDS) gpuState[grid] = decodeInt32(result.grids[grid]);
        gpuState.water = result.water ? (Object.fromEntries(WATER_CARRIED_GRIDS.map((grid) => [grid, decodeInt32(result.water![grid])])) as WaterGrids) : null;
        const expected = cpu.getState();
        expect(firstDifference(gpuState, expected)).toBeNull();
        for (const map of ["wear", "deposition"] as const) {
            expect(Array.from(new Uint32Array(decodeInt32(result.maps[map]).buffer))).toEqual(Array.from(cpu.maps[map]));
        }
        // The water really flowed and cut: some vertices are wet, some ground changed.
        expect(expected.water!.waterDepth.some((value) => value > 65536 / 100)).toBe(true);
        expect(expected.heights.some((value, i) => value !== fixed[i])).toBe(true);
        expect(browser.errors).toEqual([]);
    });
});
