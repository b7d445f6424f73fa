/**
 * The CPU backend's frames into reused buffers (`SpareBuffers`): rows, normals and maps texels
 * written whole over whatever an earlier frame left there, the same as into new arrays.
 */
import { generateNoiseTerrain, heightsToFixed, resolveOptions } from "../../../plugin/index.js";
import { createInitialState, ErosionSchedule } from "../../../plugin/advanced.js";
import { CpuBackendCore, mapsTexels, normalRowsFromFixed, SpareBuffers } from "../../../plugin/internal.js";

describe("SpareBuffers", () => {
    it("hands out the smallest free buffer that holds the bytes, else a new one, and keeps the twelve largest", () => {
        const spare = new SpareBuffers();
        const sizes = [64, 16, 256, 32, 128, 40, 48, 56, 72, 80, 88, 96, 104];
        const buffers = sizes.map((bytes) => new ArrayBuffer(bytes));
        spare.give([...buffers, buffers[0], new ArrayBuffer(0)]); // a repeat and a detached-sized one are skipped
        expect(spare.take(20)).toBe(buffers[3]); // 32: the 16 was dropped (twelve kept), 32 the smallest that holds 20
        expect(spare.take(300).byteLength).toBe(300); // none holds it: a new one
        expect(spare.takeAll().map((buffer) => buffer.byteLength)).toEqual([256, 128, 104, 96, 88, 80, 72, 64, 56, 48, 40]);
        expect(spare.takeAll()).toEqual([]);
    });
});

describe("CpuBackendCore frames into reused buffers", () => {
    it("writes every row, normal and texel over an earlier frame's leftovers", async () => {
        const width = 41;
        const depth = 33;
        const cellSize = 1.5;
        const core = new CpuBackendCore(() => null);
        expect((await core.handle({ type: "init", state: createInitialState(width, depth, heightsToFixed(generateNoiseTerrain({ width, depth, relief: 20, seed: 2 }))), pool: null })).type).toBe("ready");
        const schedule = new ErosionSchedule({ width, depth, cellSize, worldScale: 1 }, resolveOptions({ patchSize: 16, hydraulic: { dropletsPerBatch: 64 } }));
        // The water's texels without water grids leave the velocities unwritten: zeros in a new array.
        const texels = { tileable: false, cellSize, water: true, materials: null };
        let spare: ArrayBuffer[] = [];
        for (let frame = 0; frame < 6; frame++) {
            const planned = schedule.planNext()!;
            schedule.advance();
            const changed = { x0: 0, x1: width, y0: frame * 3, y1: depth - frame * 2 };
            // Leftovers: garbage larger than the frame needs.
            for (const buffer of spare) new Float32Array(buffer).fill(NaN);
            const answer = await core.handle({ type: "frame", batches: [planned], changed, texels, normalsCellSize: cellSize, spare });
            if (answer.type !== "frame") throw new Error(answer.type);
            const state = await core.handle({ type: "read", cycle: 0, batch: 0 });
            if (state.type !== "state") throw new Error(state.type);
            expect(Array.from(answer.rows!)).toEqual(Array.from(state.state.heights.subarray(changed.y0 * width, changed.y1 * width)));
            expect(Array.from(answer.normals!)).toEqual(Array.from(normalRowsFromFixed(state.state.heights, width, depth, cellSize, changed.y0, changed.y1)));
            const maps = await core.handle({ type: "maps" });
            if (maps.type !== "maps") throw new Error(maps.type);
            const fresh = mapsTexels(maps.maps, state.state, texels, changed.y0, changed.y1);
            for (const name of ["maps", "area", "water"] as const) expect(Array.from(answer.texels![name]!)).toEqual(Array.from(fresh[name]!));
            if (frame > 0) expect(spare).toContain(answer.rows!.buffer); // a buffer handed back was reused
            spare = [answer.rows!, answer.normals!, answer.texels!.maps, answer.texels!.area, answer.texels!.water!].map((array) => array.buffer as ArrayBuffer);
        }
        core.dispose();
    });
});
