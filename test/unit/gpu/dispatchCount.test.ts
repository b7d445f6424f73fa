/**
 * A cycle's dispatches do not grow with the field: the batches of each independent class share
 * them (one workgroup layer per batch). Counted on a device that records nothing, so a 4097 x 4097
 * cycle is planned and recorded in a second without a GPU.
 */
import { CountingComputeDevice, ErosionSchedule, GpuErosionSimulation, resolveOptions, type ComputeBuffer, type ComputeDevice, type ErosionOptionsInput, type PlannedBatch } from "../../../plugin/index.js";

/** A device with WebGPU's default limits that keeps no memory and runs nothing. */
function nullDevice(maxStorageBufferBindingSize = 128 * 1024 * 1024): ComputeDevice {
    return {
        adapterDescription: "null device (counts only)",
        maxStorageBufferBindingSize,
        maxWorkgroupsPerDimension: 65535,
        prepareKernels: async () => {},
        createBuffer: (label: string, byteLength: number): ComputeBuffer => ({ label, byteLength }),
        writeBuffer: () => {},
        dispatch: () => {},
        submit: () => {},
        readBuffer: async (_buffer, _offset, byteLength) => new ArrayBuffer(byteLength),
        wrapExternalBuffer: () => null,
        destroyBuffer: () => {},
        dispose: () => {},
    };
}

/** Dispatches (and workgroups) of one whole cycle recorded as `runCycles` records it. */
async function countCycle(size: number, options: ErosionOptionsInput, bindingLimit?: number): Promise<{ dispatches: number; workgroups: number; batches: number }> {
    const device = new CountingComputeDevice(nullDevice(bindingLimit));
    const resolved = resolveOptions(options);
    const schedule = new ErosionSchedule({ width: size, depth: size }, resolved);
    const simulation = await GpuErosionSimulation.create(device, size, size, resolved.patchSize);
    const planned: PlannedBatch[] = [];
    do {
        planned.push(schedule.planNext()!);
    } while (!schedule.advance());
    device.resetCounts();
    simulation.runBatches(planned);
    simulation.submit();
    simulation.dispose();
    return { dispatches: device.dispatches, workgroups: device.workgroups, batches: planned.length };
}

describe("dispatches per cycle", () => {
    it.each([{ name: "the defaults", options: {} }, { name: "patches of 32", options: { patchSize: 32 } }, { name: "droplets only, long walks", options: { rivers: { enabled: false }, thermal: { enabled: false }, hydraulic: { maxSteps: 200 } } }])(
        "are the same at 513 x 513 and 2049 x 2049 ($name), while the batches and the work grow sixteenfold",
        async ({ options }) => {
            const small = await countCycle(513, options);
            const large = await countCycle(2049, options);
            expect(large.dispatches).toBe(small.dispatches);
            expect(large.batches).toBeGreaterThan(10 * small.batches);
            expect(large.workgroups).toBeGreaterThan(10 * small.workgroups);
        }
    );

    it("do not grow on a tileable terrain either (the classes wrap around the torus, so their number depends a little on how the patch columns divide)", async () => {
        const options = { tileable: true, patchSize: 32 };
        const small = await countCycle(513, options);
        const large = await countCycle(2049, options);
        expect(large.batches).toBeGreaterThan(10 * small.batches);
        expect(large.dispatches).toBeLessThanOrEqual(small.dispatches);
    });

    it("stay within 300 for a cycle of the default operators at 4097 x 4097", async () => {
        // The routing's two halves (2 x 4097^2 x 4 bytes) are 64 KiB over the default 128 MiB
        // binding, so this counts on a device whose limit is raised (issue notes: still open).
        const cycle = await countCycle(4097, {}, 256 * 1024 * 1024);
        expect(cycle.batches).toBe(2 * 64 * 64 + 1);
        expect(cycle.dispatches).toBeLessThanOrEqual(300);
        expect(cycle.dispatches).toBe((await countCycle(513, {})).dispatches);
    });
});
