/**
 * The GPU simulation on Dawn for Node (SwiftShader) under a NullEngine, behind a compute device
 * whose chosen readbacks never resolve (a `mapAsync` that never comes back): the stall is reported
 * naming the readback and the batch, erosion rebuilds its backend from the last checkpoint and
 * reaches the fingerprint of the CPU reference (the GPU's own, bit for bit), the dig given after
 * that checkpoint included; with every readback held, erosion stops after `stallRetries`
 * recoveries with `status` saying why and every read answering from the checkpoint.
 */
import { erodeHeightfield, type ErosionOptionsInput } from "../../../plugin/index.js";
import { createInitialState, HeadlessGpuBackend, WebGpuComputeDevice } from "../../../plugin/advanced.js";
import type { BackendMaker } from "../../../plugin/internal.js";
import { dawnDevice, HoldingComputeDevice, kinds, stalledRun, STALL_HEIGHTS, STALL_SIZE, type ReadbackHold, type StalledRun } from "../../helpers/stalls.js";

/**
 * The suite's deadline (ms). A frame's submitted work on a loaded CI host took over 1.5 s (the
 * unheld reference run stalled at that deadline), so it is generous; each held readback costs it once.
 */
const STALL_TIMEOUT_MS = 5000;
const OPTIONS: ErosionOptionsInput = { patchSize: 16, seed: 3, hydraulic: { dropletsPerBatch: 64, maxSteps: 20 }, maxCycles: 3, stallTimeoutMs: STALL_TIMEOUT_MS, stallRetries: 1 };

describe("a WebGPU backend whose readback never resolves", () => {
    let gpu: { device: GPUDevice; gpu: GPU };
    let shared: WebGpuComputeDevice;

    beforeAll(async () => {
        gpu = await dawnDevice();
        // One device for every backend of the suite: its kernels compile once, here (some 15 s on
        // SwiftShader, far past the suite's stallTimeoutMs), on a backend without a deadline.
        shared = new WebGpuComputeDevice(gpu.device, "Dawn for Node");
        const warm = await HeadlessGpuBackend.create(new HoldingComputeDevice(shared, () => false), createInitialState(STALL_SIZE, STALL_SIZE, new Int32Array(STALL_SIZE * STALL_SIZE)), OPTIONS.patchSize!, () => gpu.device.queue.onSubmittedWorkDone());
        warm.dispose();
    });

    afterAll(() => {
        shared?.dispose();
        gpu?.device.destroy();
    });

    /** GPU backends on the shared device, each behind a `HoldingComputeDevice` holding what `hold(backend index, ...)` picks. */
    function holding(hold: (backend: number, ...args: Parameters<ReadbackHold>) => boolean): BackendMaker {
        let made = 0;
        return (state, watch) => {
            const backend = made++;
            const device = new HoldingComputeDevice(shared, (buffer, index) => hold(backend, buffer, index));
            return HeadlessGpuBackend.create(device, state, OPTIONS.patchSize!, () => gpu.device.queue.onSubmittedWorkDone(), watch);
        };
    }

    it("is reported, naming the readback and the batch, and erosion recovers to the undisturbed fingerprint", async () => {
        const reference = await stalledRun(holding(() => false), OPTIONS, () => undefined, ({ erosion }) => erosion.cyclesCompleted >= 3 && !erosion.isRunning);
        const undisturbed = await reference.erosion.fingerprint();
        expect(reference.events).toEqual([]);
        reference.dispose();
        // The dig counts: the same cycles without it end elsewhere (so a recovery that lost it would show).
        expect(undisturbed).not.toBe(erodeHeightfield(STALL_HEIGHTS, STALL_SIZE, STALL_SIZE, OPTIONS, 3).fingerprint);

        let armed = false;
        let held = 0;
        // The frames after the held one go on meanwhile (two in flight), maxCycles' cycles perhaps among them: done once it recovered and ran them again.
        const recovered = ({ erosion, events }: StalledRun) => events.some((event) => event.kind === "recovered") && erosion.cyclesCompleted >= 3 && !erosion.isRunning;
        const run = await stalledRun(holding((backend, buffer) => armed && backend === 0 && buffer.label === "TerrainErosion.heights" && held++ === 0), OPTIONS, () => (armed = true), recovered);
        try {
            const { erosion, events } = run;
            expect(kinds(events)).toEqual(["stalled", "recovered"]);
            const stall = events[0].stall!;
            expect(stall.operation).toMatch(/^readBuffer TerrainErosion\.heights \(bytes \d+-\d+\)$/);
            expect(stall).toMatchObject({ wait: "readback", cycle: 1, inARow: 1 });
            expect(stall.during).toMatch(/^the frame of cycle 1, batch(es)? \d/);
            expect(stall.waitedMs).toBeGreaterThan(STALL_TIMEOUT_MS - 100); // the deadline (a timer may fire a fraction of a millisecond early)
            expect(events[0].message).toMatch(/rebuilding the webgpu backend from the last checkpoint/);
            expect(erosion.status).toEqual({ state: "paused", reason: null, stalls: 1 });
            expect(await erosion.fingerprint()).toBe(undisturbed);
        } finally {
            run.dispose();
        }
    });

    it("stops, with every readback held, after stallRetries recoveries, status saying why and reads answering from the checkpoint", async () => {
        let armed = false;
        const run = await stalledRun(holding(() => armed), OPTIONS, () => (armed = true), ({ erosion }) => erosion.status.state === "stopped");
        try {
            const { erosion, events } = run;
            expect(kinds(events)).toEqual(["stalled", "recovered", "stalled", "stopped"]);
            const status = erosion.status;
            expect(status.stalls).toBe(2);
            expect(status.reason).toMatch(/^Erosion stalled: readBuffer TerrainErosion\.\w+ \(bytes \d+-\d+\) did not settle within \d+ ms .*more stalls in a row than stallRetries \(1\)/);
            const reference = erodeHeightfield(STALL_HEIGHTS, STALL_SIZE, STALL_SIZE, OPTIONS, 1);
            expect(erosion.cyclesCompleted).toBe(1);
            expect(Array.from(await erosion.maps.readHeights())).toEqual(Array.from(reference.heights));
            expect(Array.from(await erosion.maps.exportFixedHeights())).toEqual(Array.from(reference.fixedHeights));
        } finally {
            run.dispose();
        }
    });
});
