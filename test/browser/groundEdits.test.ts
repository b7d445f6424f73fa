/**
 * Ground edits on a real engine (headless Chromium, WebGPU on SwiftShader, the CPU backend in its Web
 * Worker): frames from `dig` to the changed vertices, paused and running, at a budget of one batch a
 * frame and at a large one (figures printed); and edits of every kind made while erosion runs give
 * the CPU reference's terrain at the stamps their handles report, at any budget, on both backends,
 * and again after a snapshot taken with edits pending is restored.
 */
import { CpuErosionSimulation, generateNoiseTerrain, heightsToFixed, resolveOptions, type GridPoint, type GroundEditRequest } from "../../plugin/index.js";
import { openTestPage, type OpenPage } from "../helpers/browser.js";
import type { LatencyRequest, LatencyResult, StampedRunRequest, StampedRunResult } from "./pages/groundEdits.js";

const SIZE = 65;
const UNIT = 65536;
/** World (x, z) on the page's centred 64 x 64 ground (1-unit cells) as a grid point. */
const cell = (x: number, z: number): GridPoint => ({ x: x + (SIZE - 1) / 2, y: (SIZE - 1) / 2 - z });
/** The page's edits in grid units and fixed point, in the order it makes them (stampedRun). */
const EDITS: { request: GroundEditRequest; points: GridPoint[]; radius: number }[] = [
    { request: { kind: "crater", depth: 2 * UNIT, rim: true }, points: [cell(-10, 8)], radius: 6 },
    { request: { kind: "dig", depth: 1.5 * UNIT }, points: [cell(12, -4)], radius: 4 },
    { request: { kind: "dig", depth: 1 * UNIT }, points: [cell(-20, -20), cell(0, -12), cell(20, -22)], radius: 1.5 },
    { request: { kind: "pile", height: 2 * UNIT }, points: [cell(5, 18)], radius: 5 },
    { request: { kind: "flatten", target: 3 * UNIT, edge: 0.4 }, points: [cell(-18, 16)], radius: 7 },
];

describe("ground edits reach the mesh", () => {
    let browser: OpenPage;
    beforeAll(async () => {
        browser = await openTestPage("groundEdits", [], "?engine=webgpu");
    }, 120000);
    afterAll(() => browser?.close());

    const run = (request: LatencyRequest) => browser.page.evaluate((r) => (window as unknown as { editLatency(r: LatencyRequest): Promise<LatencyResult> }).editLatency(r), request);

    it("within 2 frames on WebGPU and 3 on the CPU backend, paused or running, at any budget", async () => {
        const cases: LatencyRequest[] = [
            { backend: "webgpu", autoStart: false, frameBudgetMs: 8 },
            { backend: "webgpu", autoStart: true, frameBudgetMs: 0.05 },
            { backend: "cpu", autoStart: true, frameBudgetMs: 50 },
        ];
        for (const request of cases) {
            const result = await run(request);
            console.log(`${result.backend}, ${request.autoStart ? `running at ${request.frameBudgetMs} ms` : "paused"}: the CPU data after ${result.framesToCpuData} frame(s), the vertex buffer after ${result.framesToVertexBuffer ?? "-"}; height at the centre ${result.heightBefore.toFixed(2)} -> ${result.heightAfter.toFixed(2)}`);
            expect(result.backend).toBe(request.backend);
            expect(result.framesToCpuData).toBeGreaterThan(0);
            expect(result.framesToCpuData).toBeLessThanOrEqual(request.backend === "webgpu" ? 2 : 3);
            if (request.backend === "webgpu") expect(result.framesToVertexBuffer).toBeLessThanOrEqual(2);
            expect(result.heightBefore - result.heightAfter).toBeGreaterThan(2.5);
        }
        expect(browser.errors).toEqual([]);
    }, 240000);

    it("edits made while erosion runs give the CPU reference's terrain at their stamps, at any frame budget and after a snapshot round trip", async () => {
        const cycles = 3;
        const reference = (stamps: StampedRunResult["edits"]) => {
            const sim = new CpuErosionSimulation(SIZE, SIZE, heightsToFixed(Float32Array.from(generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 9, relief: 10 }))), resolveOptions({ patchSize: 32, hydraulic: { dropletsPerBatch: 256 }, rivers: { erosion: 0.1 } }));
            EDITS.forEach((edit, k) => sim.edit(edit.request, edit.points, edit.radius, stamps[k]));
            sim.runCycles(cycles);
            return sim.fingerprint();
        };
        for (const request of [
            { backend: "webgpu", frameBudgetMs: 0.05, cycles },
            { backend: "webgpu", frameBudgetMs: 30, cycles },
            { backend: "cpu", frameBudgetMs: 0.05, cycles },
        ] satisfies StampedRunRequest[]) {
            const result = await browser.page.evaluate((r) => (window as unknown as { stampedRun(r: StampedRunRequest): Promise<StampedRunResult> }).stampedRun(r), request);
            console.log(`${result.backend} at ${request.frameBudgetMs} ms: stamps ${result.edits.map((edit) => `${edit.kind}@${edit.cycle}.${edit.batch}`).join(", ")}; ${result.snapshotEdits} edit(s) pending at the snapshot`);
            expect(result.backend).toBe(request.backend);
            expect(result.fingerprint).toBe(reference(result.edits));
            expect(result.restoredFingerprint).toBe(result.fingerprint);
        }
        expect(browser.errors).toEqual([]);
    }, 300000);
});
