/**
 * The CPU backend's frames into reused buffers (`SpareBuffers`): rows, normals and maps texels
 * written whole over whatever an earlier frame left there, the same as into new arrays; each the
 * changed region's columns of whole rows' values.
 */
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { heightsToFixed, resolveOptions } from "../../../plugin/index.js";
import { createInitialState, ErosionSchedule } from "../../../plugin/advanced.js";
import { CpuBackendCore, mapsTexels, materialParams, normalRowsFromFixed, SpareBuffers } from "../../../plugin/internal.js";

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

/** Columns `x0 .. x1 - 1` of rows of `width` values of `channels` each. */
function columnsOf(values: ArrayLike<number>, width: number, channels: number, x0: number, x1: number): number[] {
    const rows = values.length / (width * channels);
    return Array.from({ length: rows }, (_, y) => Array.from(values).slice((y * width + x0) * channels, (y * width + x1) * channels)).flat();
}

describe("CpuBackendCore frames into reused buffers", () => {
    it("writes every row, normal and texel of the changed region over an earlier frame's leftovers", async () => {
        const width = 41;
        const depth = 33;
        const cellSize = 1.5;
        const core = new CpuBackendCore(() => null);
        expect((await core.handle({ type: "init", state: createInitialState(width, depth, heightsToFixed(generateNoiseTerrain({ width, depth, relief: 20, seed: 2 }))), pool: null })).type).toBe("ready");
        const options = resolveOptions({ patchSize: 16, hydraulic: { dropletsPerBatch: 64 } });
        const schedule = new ErosionSchedule({ width, depth, cellSize, worldScale: 1 }, options);
        // The water's texels without water grids leave the velocities unwritten: zeros in a new array.
        const texels = { tileable: false, cellSize, water: true, materials: materialParams(options, options.thermal.talus) };
        let spare: ArrayBuffer[] = [];
        for (let frame = 0; frame < 6; frame++) {
            const planned = schedule.planNext()!;
            schedule.advance();
            const changed = { x0: frame * 4, x1: width - frame, y0: frame * 3, y1: depth - frame * 2 };
            const { x0, x1 } = changed;
            // Leftovers: garbage larger than the frame needs.
            for (const buffer of spare) new Float32Array(buffer).fill(NaN);
            const answer = await core.handle({ type: "frame", batches: [planned], changed, texels, normalsCellSize: cellSize, spare });
            if (answer.type !== "frame") throw new Error(answer.type);
            const state = await core.handle({ type: "read", cycle: 0, batch: 0 });
            if (state.type !== "state") throw new Error(state.type);
            expect([answer.x0, answer.x1]).toEqual([x0, x1]);
            expect(Array.from(answer.rows!)).toEqual(columnsOf(state.state.heights.subarray(changed.y0 * width, changed.y1 * width), width, 1, x0, x1));
            expect(Array.from(answer.normals!)).toEqual(columnsOf(normalRowsFromFixed(state.state.heights, width, depth, cellSize, changed.y0, changed.y1), width, 3, x0, x1));
            const maps = await core.handle({ type: "maps" });
            if (maps.type !== "maps") throw new Error(maps.type);
            const fresh = mapsTexels(maps.maps, state.state, texels, changed.y0, changed.y1);
            for (const name of ["maps", "area", "water", "materials"] as const) expect(Array.from(answer.texels![name]!)).toEqual(columnsOf(fresh[name]!, width, name === "area" ? 1 : 4, x0, x1));
            if (frame > 0) expect(spare).toContain(answer.rows!.buffer); // a buffer handed back was reused
            spare = [answer.rows!, answer.normals!, answer.texels!.maps, answer.texels!.area, answer.texels!.water!, answer.texels!.materials!].map((array) => array.buffer as ArrayBuffer);
        }
        core.dispose();
    });
});
