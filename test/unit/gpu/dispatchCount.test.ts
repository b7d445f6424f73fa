/**
 * A cycle's dispatches do not grow with the field: the batches of each independent class share
 * them (one workgroup layer per batch). Counted on a device that records nothing, so a 4097 x 4097
 * cycle is planned and recorded in a second without a GPU; the device has WebGPU's default limits,
 * so every buffer of a 4097 x 4097 simulation is shown to fit them, and every kernel's bindings too.
 */
import { KERNELS } from "../../../plugin/advanced.js";
import { UNIFORM_BINDINGS } from "../../../plugin/gpu/kernelBindings.js";
import { recordCycle } from "../../../scripts/lib/cycleRecording.js";

describe("dispatches per cycle", () => {
    it.each([{ name: "the defaults", options: {} }, { name: "patches of 128", options: { patchSize: 128 } }, { name: "droplets only, long walks", options: { rivers: { enabled: false }, thermal: { enabled: false }, hydraulic: { maxSteps: 200 } } }])(
        "are the same at 513 x 513 and 2049 x 2049 ($name), while the batches and the work grow sixteenfold",
        async ({ options }) => {
            const small = await recordCycle(513, options);
            const large = await recordCycle(2049, options);
            expect(large.dispatches).toBe(small.dispatches);
            expect(large.batches).toBeGreaterThan(10 * small.batches);
            expect(large.workgroups).toBeGreaterThan(10 * small.workgroups);
        }
    );

    it("do not grow on a tileable terrain either (the classes wrap around the torus, so their number depends a little on how the patch columns divide)", async () => {
        const options = { tileable: true };
        const small = await recordCycle(513, options);
        const large = await recordCycle(2049, options);
        expect(large.batches).toBeGreaterThan(10 * small.batches);
        expect(large.dispatches).toBeLessThanOrEqual(small.dispatches);
    });

    it("grow by one dispatch set per 256 batches of a class (what one uniform params buffer holds): thermal on patches of 32 at 2049 x 2049", async () => {
        const small = await recordCycle(513, { patchSize: 32 });
        const large = await recordCycle(2049, { patchSize: 32 });
        // 4,096 patches: 4 thermal classes of 1,024, each 4 sets of 4 dispatches instead of 1 set.
        expect(large.dispatches - small.dispatches).toBe(4 * 3 * 4);
    });

    it("stay within 300 for a cycle of the default operators at 4097 x 4097, every buffer within the default 128 MiB binding", async () => {
        const cycle = await recordCycle(4097, {});
        expect(cycle.batches).toBe(2 * 64 * 64 + 1);
        expect(cycle.dispatches).toBeLessThanOrEqual(300);
        // 16 droplet classes of 256 patches (9 dispatches each), the rivers (71), and 4 thermal
        // classes of 1,024 patches, each in 4 dispatch sets of 256 (the params a uniform buffer holds).
        expect(cycle.dispatches).toBe(16 * 9 + 71 + 4 * 4 * 4);
        expect((await recordCycle(513, {})).dispatches).toBe(16 * 9 + 71 + 4 * 4);
    });

    it("leave every kernel within WebGPU's default 8 storage buffers (the params are a uniform buffer)", () => {
        for (const [kernel, spec] of Object.entries(KERNELS)) {
            const storage = spec.bindings.filter((binding) => !UNIFORM_BINDINGS.has(binding));
            expect({ kernel, storage: storage.length }).toEqual({ kernel, storage: Math.min(storage.length, 8) });
        }
    });
});
