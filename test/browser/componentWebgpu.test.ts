/**
 * The TerrainErosion component on Babylon's WebGPUEngine in headless Chromium (SwiftShader): its
 * terrain one batch a frame, with runCycles and on the CPU backend, at any frame budget; the
 * ground's GPU and CPU data. Its frame costs, maps and water textures: componentWebgpuOutputs.test.ts.
 */
import { erodeHeightfield, fixedToHeights, heightsToFixed } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { writeNormalRow } from "../../plugin/advanced.js";
import { encodeInt32 } from "../helpers/base64.js";
import { openTestPage, type OpenPage } from "../helpers/browser.js";

const WIDTH = 65;
const DEPTH = 49;
const CYCLES = 3;
const OPTIONS = { patchSize: 32, seed: 21, hydraulic: { dropletsPerBatch: 300, maxSteps: 40 }, thermal: { talus: 0.3 } };

interface ScenarioResult {
    framedStartup: { phase: string; kernels: number; kernelsCompiled: number; phases: { phase: string; ms: number }[] };
    framedFingerprint: string;
    bakedFingerprint: string;
    cpuFingerprint: string;
    backends: string[];
    maxBatchesInFrame: number;
    batchesPerCycle: number;
    eroded: number[];
    gpuPositions: number[];
    gpuNormals: number[];
    cpuPositions: number[];
    probes: { x: number; z: number; height: number; expected: number }[];
    bakedAfterDetach: number[];
    buffers: { baseline: number; heldWhileAttached: number; afterDetach: number };
}

describe("TerrainErosion on WebGPU", () => {
    let browser: OpenPage;
    let result: ScenarioResult;
    const heights = heightsToFixed(generateNoiseTerrain({ width: WIDTH, depth: DEPTH, relief: 25, seed: 4 }));

    beforeAll(async () => {
        browser = await openTestPage("componentWebgpu");
        result = await browser.page.evaluate(
            (request) => (window as unknown as { framesVersusRunCycles(r: unknown): Promise<ScenarioResult> }).framesVersusRunCycles(request),
            { width: WIDTH, depth: DEPTH, heights: encodeInt32(heights), options: OPTIONS, cycles: CYCLES }
        );
    });

    afterAll(async () => {
        await browser?.close();
    });

    it("runs on the WebGPU backend, and the CPU backend in a Web Worker", () => {
        expect(result.backends).toEqual(["webgpu", "webgpu", "cpu", "true"]);
    });

    it("reports its start: the kernels compiled asynchronously before the first dispatch, the upload, the first batch", () => {
        const startup = result.framedStartup;
        expect(startup.phases.map(({ phase }) => phase)).toEqual(["creating-buffers", "compiling-kernels", "uploading", "first-batch", "running"]);
        expect(startup.kernels).toBeGreaterThanOrEqual(30);
        expect(startup.kernelsCompiled).toBe(startup.kernels);
        console.log(`WebGPU start on SwiftShader: ${startup.phases.map(({ phase, ms }) => `${phase} at ${ms.toFixed(0)} ms`).join(", ")} (${startup.kernels} kernels)`);
    });

    it("gives the same fingerprint at a budget no frame meets, with runCycles, on the CPU backend and from the mesh-free entry point", () => {
        const reference = erodeHeightfield(heights, WIDTH, DEPTH, OPTIONS, CYCLES).fingerprint;
        // At 0.05 ms a frame holds a batch, or the few cheap ones that cost about a piece of the river batch (`evenFrames`).
        expect(result.maxBatchesInFrame).toBeGreaterThan(0);
        expect(result.maxBatchesInFrame).toBeLessThan(result.batchesPerCycle);
        expect(result.framedFingerprint).toBe(reference);
        expect(result.bakedFingerprint).toBe(reference);
        expect(result.cpuFingerprint).toBe(reference);
    });

    it.each(["webgpu", "cpu"] as const)("gives one fingerprint with frame budgets of 0.05, 1 and 50 ms on the %s backend, classes of several patches split over frames or not, the river batch in pieces or whole", async (backend) => {
        // Patches of 16 and short walks on 129 x 97: the droplet and thermal classes hold several
        // patches each, and the river batch is more work than one piece (`PIECE_WORK`) on WebGPU.
        const options = { patchSize: 16, seed: 9, hydraulic: { dropletsPerBatch: 40, maxSteps: 6 }, thermal: { talus: 0.3 } };
        const cycles = 2;
        const [width, depth] = [129, 97];
        const small = heightsToFixed(generateNoiseTerrain({ width, depth, relief: 12, seed: 4 }));
        const runs = await browser.page.evaluate(
            (request) => (window as unknown as { budgets(r: unknown): Promise<{ budget: number; fingerprint: string; backend: string; piecedFrames: number }[]> }).budgets(request),
            { width, depth, heights: encodeInt32(small), options, cycles, budgets: [0.05, 1, 50], backend }
        );
        const reference = erodeHeightfield(small, width, depth, options, cycles).fingerprint;
        expect(runs.map((run) => [run.budget, run.backend, run.fingerprint])).toEqual([0.05, 1, 50].map((budget) => [budget, backend, reference]));
        // At 0.05 ms the river batch ran in pieces over frames (its passes on WebGPU, its phases on the CPU), and gave the same terrain.
        expect(runs[0].piecedFrames).toBeGreaterThan(2 * 2);
    });

    it("writes the eroded heights into the ground's own GPU vertex buffer and keeps the CPU copy in sync", () => {
        const expected = fixedToHeights(erodeHeightfield(heights, WIDTH, DEPTH, OPTIONS, CYCLES).fixedHeights);
        expect(result.eroded).toEqual(Array.from(expected));
        for (let i = 0; i < WIDTH * DEPTH; i++) {
            expect(result.gpuPositions[i * 3 + 1]).toBe(expected[i]);
            expect(result.cpuPositions[i * 3 + 1]).toBe(expected[i]);
        }
        expect(result.bakedAfterDetach).toEqual(Array.from(expected));
    });

    it("regenerates normals on the GPU within 1 degree of CPU central differences of the same heights", () => {
        // The normals the CPU backend writes (writeNormalRow, as GroundField calls it) of the GPU's heights.
        const cpuNormals = new Float32Array(WIDTH * DEPTH * 3);
        const row = (y: number) => Array.from({ length: WIDTH }, (_, x) => result.gpuPositions[(y * WIDTH + x) * 3 + 1]);
        for (let y = 0; y < DEPTH; y++) {
            const rowSpan = (y > 0 ? 1 : 0) + (y < DEPTH - 1 ? 1 : 0);
            writeNormalRow(row(Math.max(0, y - 1)), row(y), row(Math.min(DEPTH - 1, y + 1)), rowSpan, WIDTH, 1, cpuNormals.subarray(y * WIDTH * 3));
        }
        let worst = 0;
        for (let i = 0; i < WIDTH * DEPTH; i++) {
            const dot = result.gpuNormals[i * 3] * cpuNormals[i * 3] + result.gpuNormals[i * 3 + 1] * cpuNormals[i * 3 + 1] + result.gpuNormals[i * 3 + 2] * cpuNormals[i * 3 + 2];
            worst = Math.max(worst, (Math.acos(Math.min(1, dot)) * 180) / Math.PI);
        }
        expect(worst).toBeLessThan(1);
    });

    it("answers getHeightAtCoordinates with the eroded heights", () => {
        for (const probe of result.probes) {
            expect(Math.abs(probe.height - probe.expected)).toBeLessThan(0.5);
        }
        // Off a vertex the query interpolates the eroded triangle, so compare at the vertex itself too.
        expect(result.probes.length).toBe(4);
    });

    it("releases every GPU buffer it created on detach, and logs no console errors", () => {
        expect(result.buffers.heldWhileAttached).toBeGreaterThan(result.buffers.baseline);
        expect(result.buffers.afterDetach).toBe(result.buffers.baseline);
        expect(browser.errors).toEqual([]);
    });
});

