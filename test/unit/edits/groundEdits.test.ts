/**
 * Ground edits on the CPU reference: integers that conserve what they say they do, stamped at a
 * position of the schedule and applied there whatever the frames, recorded in the state (snapshot,
 * fingerprint) until they apply, and bad requests refused before anything changes.
 */
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions, type GroundEditRequest } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { conservedMass, countersToObject } from "../../../plugin/advanced.js";

const size = 49;
const metres = (value: number) => Math.round(value * 65536);

function simulation(options = {}): CpuErosionSimulation {
    const heights = heightsToFixed(generateNoiseTerrain({ width: size, depth: size, seed: 3, relief: 20 }));
    return new CpuErosionSimulation(size, size, heights, resolveOptions({ patchSize: 16, hydraulic: { dropletsPerBatch: 64 }, ...options }));
}

function sum(values: Int32Array): number {
    return values.reduce((total, value) => total + value, 0);
}

describe("ground edits (CPU)", () => {
    it("dig, pile and crater change the ground by what the counters say; a crater's rim is its bowl to the unit", () => {
        const sim = simulation({ hydraulic: { enabled: false }, thermal: { enabled: false } });
        const before = sum(sim.state.heights);
        const massBefore = conservedMass(sim.state);
        sim.edit({ kind: "crater", depth: metres(3) }, [{ x: 24, y: 24 }], 6);
        expect(sum(sim.state.heights)).toBe(before);
        const { editAdded, editRemoved } = countersToObject(sim.state.counters);
        expect(editRemoved).toBeGreaterThan(metres(3) * 20);
        expect(editAdded).toBe(editRemoved);
        sim.edit({ kind: "dig", depth: metres(2) }, [{ x: 10, y: 10 }], 4);
        sim.edit({ kind: "pile", height: metres(1) }, [{ x: 40, y: 12 }], 3);
        const counters = countersToObject(sim.state.counters);
        expect(sum(sim.state.heights) - before).toBe(counters.editAdded - counters.editRemoved);
        expect(conservedMass(sim.state)).toBe(massBefore);
        console.log(`crater of 3 m over 6 cells moved ${(editRemoved / 65536).toFixed(1)} m·cells from bowl to rim`);
    });

    it("flatten levels the disc's middle to the target and leaves the ground past its radius alone", () => {
        const sim = simulation({ hydraulic: { enabled: false }, thermal: { enabled: false } });
        const original = sim.state.heights.slice();
        const target = metres(7.5);
        sim.edit({ kind: "flatten", target, edge: 0.25 }, [{ x: 20, y: 30 }], 8);
        const h = sim.state.heights;
        expect(h[30 * size + 20]).toBe(target);
        expect(h[30 * size + 22]).toBe(target);
        expect(h[30 * size + 29]).toBe(original[30 * size + 29]);
        expect(h[39 * size + 20]).toBe(original[39 * size + 20]);
    });

    it("keeps what a dig removes as the water's loose sediment when asked, and the water carries it downhill", () => {
        const sim = simulation({ hydraulic: { enabled: false }, thermal: { enabled: false }, rivers: { enabled: false }, water: { enabled: true, rain: 0.002, stepsPerCycle: 4 } });
        const massBefore = conservedMass(sim.state);
        sim.edit({ kind: "dig", depth: metres(1), sediment: true }, [{ x: 24, y: 24 }], 4);
        const kept = Array.from(sim.state.water!.waterSediment).reduce((total, value) => total + value, 0);
        expect(countersToObject(sim.state.counters).editRemoved).toBe(0);
        expect(kept).toBeGreaterThan(metres(1) * 10);
        expect(conservedMass(sim.state)).toBe(massBefore);
        sim.runCycles(6);
        // Some of it now lies (in the water or laid down) outside the dug disc, and the mass is still exact.
        const outside = Array.from(sim.state.water!.waterSediment).reduce((total, value, i) => total + (Math.hypot((i % size) - 24, Math.floor(i / size) - 24) > 5 ? value : 0), 0);
        expect(outside).toBeGreaterThan(0);
        expect(conservedMass(sim.state)).toBe(massBefore);
    });

    it("on a tileable terrain an edit reaches across the seam, and the repeated column and row stay equal to the first", () => {
        // A terrain that tiles: its last column and row repeat the first.
        const heights = heightsToFixed(generateNoiseTerrain({ width: size, depth: size, seed: 3, relief: 20 }));
        for (let y = 0; y < size; y++) heights[y * size + size - 1] = heights[y * size];
        for (let x = 0; x < size; x++) heights[(size - 1) * size + x] = heights[x];
        const sim = new CpuErosionSimulation(size, size, heights, resolveOptions({ patchSize: 16, tileable: true, hydraulic: { enabled: false }, thermal: { enabled: false }, rivers: { enabled: false } }));
        const original = sim.state.heights.slice();
        sim.edit({ kind: "crater", depth: metres(2), rim: true }, [{ x: 1, y: 0.5 }], 5);
        sim.edit({ kind: "dig", depth: metres(1) }, [{ x: 30, y: size - 1 }], 3);
        const h = sim.state.heights;
        // Two cells west of the crater's centre is column size - 2, across the seam.
        expect(original[0 * size + size - 2] - h[0 * size + size - 2]).toBeGreaterThan(metres(1));
        expect(original[(size - 2) * size + 30] - h[(size - 2) * size + 30]).toBeGreaterThan(metres(0.5)); // the dig's far side, across the row seam
        for (let y = 0; y < size; y++) expect(h[y * size + size - 1]).toBe(h[y * size]);
        for (let x = 0; x < size; x++) expect(h[(size - 1) * size + x]).toBe(h[x]);
        const { seamAdded, seamRemoved } = countersToObject(sim.state.counters);
        expect([seamAdded, seamRemoved]).toEqual([0, 0]); // the seam copy found nothing to change
    });

    it("flattenArea levels a polygon to the target inside, softly within its edge, and leaves the rest alone", () => {
        const sim = simulation({ hydraulic: { enabled: false }, thermal: { enabled: false } });
        const original = sim.state.heights.slice();
        const target = metres(4);
        // A triangle; a soft edge 3 cells wide.
        sim.edit({ kind: "flatten", target, area: true }, [{ x: 10, y: 10 }, { x: 34, y: 12 }, { x: 14, y: 36 }], 3);
        const h = sim.state.heights;
        for (const [x, y] of [[15, 15], [20, 14], [14, 30]]) expect(h[y * size + x]).toBe(target);
        for (const [x, y] of [[40, 40], [5, 5], [30, 30]]) expect(h[y * size + x]).toBe(original[y * size + x]);
        // About 1.5 cells outside the border: moved part of the way.
        const i = 20 * size + 10;
        expect(Math.abs(h[i] - target)).toBeLessThan(Math.abs(original[i] - target));
        expect(h[i]).not.toBe(target);
        expect(() => sim.edit({ kind: "flatten", target, area: true }, [{ x: 1, y: 1 }, { x: 5, y: 5 }], 0)).toThrow(/flattenArea: the polygon has 2 points/);
    });

    it("along a path digs a canal: every vertex on the line is lowered by the depth", () => {
        const sim = simulation({ hydraulic: { enabled: false }, thermal: { enabled: false } });
        const original = sim.state.heights.slice();
        sim.edit({ kind: "dig", depth: metres(2) }, [{ x: 5, y: 20 }, { x: 40, y: 20 }, { x: 40, y: 35 }], 2);
        for (const [x, y] of [[5, 20], [22, 20], [40, 20], [40, 28]]) {
            expect(original[y * size + x] - sim.state.heights[y * size + x]).toBe(metres(2));
        }
        expect(sim.state.heights[25 * size + 22]).toBe(original[25 * size + 22]);
    });

    it("an edit stamped mid-cycle applies there, whatever frames the run is cut into, and is in the state until it does", () => {
        const request: GroundEditRequest = { kind: "crater", depth: metres(2) };
        const ways: ((sim: CpuErosionSimulation) => void)[] = [(sim) => sim.runBatch(), (sim) => sim.runClass(), (sim) => sim.runCycles(1)];
        const results = ways.map((step) => {
            const sim = simulation({ thermal: { enabled: true } });
            sim.runCycles(1);
            for (let k = 0; k < 3; k++) sim.runBatch();
            const edit = sim.edit(request, [{ x: 30, y: 18 }], 5, { cycle: 1, batch: 5 });
            expect([edit.cycle, edit.batch]).toEqual([1, 5]);
            const pending = sim.getState();
            expect(pending.edits).toHaveLength(1);
            const restored = ErosionSnapshot.fromArrayBuffer(new ErosionSnapshot(pending, sim.schedule.options).toArrayBuffer());
            expect(restored.fingerprint).toBe(sim.fingerprint());
            while (sim.schedule.cycle < 3) step(sim);
            expect(sim.getState().edits).toHaveLength(0);
            return { fingerprint: sim.fingerprint(), restored };
        });
        expect(new Set(results.map((result) => result.fingerprint)).size).toBe(1);
        // The snapshot taken while the edit waited resumes to the same terrain.
        const resumed = simulation({ thermal: { enabled: true } });
        resumed.setState(results[0].restored.state);
        resumed.runCycles(2);
        expect(resumed.fingerprint()).toBe(results[0].fingerprint);
        // And the edit changed the outcome.
        const without = simulation({ thermal: { enabled: true } });
        without.runCycles(3);
        expect(without.fingerprint()).not.toBe(results[0].fingerprint);
    });

    it("refuses bad requests with the argument's name, before anything changes", () => {
        const sim = simulation();
        expect(() => sim.edit({ kind: "dig", depth: metres(1) }, [{ x: 10, y: 10 }], NaN)).toThrow(/radius is NaN/);
        expect(() => sim.edit({ kind: "dig", depth: metres(1) }, [{ x: 10, y: 10 }], -2)).toThrow(/radius is -2/);
        expect(() => sim.edit({ kind: "pile", height: -5 }, [{ x: 10, y: 10 }], 3)).toThrow(/height is/);
        expect(() => sim.edit({ kind: "flatten", target: 2 ** 31 }, [{ x: 10, y: 10 }], 3)).toThrow(/target is .* height range/);
        expect(() => sim.edit({ kind: "dig", depth: metres(1) }, [{ x: 500, y: 10 }], 3)).toThrow(/misses the ground/);
        expect(() => sim.edit({ kind: "dig", depth: metres(1) }, [{ x: Number.NaN, y: 10 }, { x: 3, y: 4 }], 3)).toThrow(/path point 0/);
        expect(() => sim.edit({ kind: "crater", depth: metres(1) }, [{ x: 1, y: 1 }, { x: 3, y: 4 }], 3)).toThrow(/one centre/);
        sim.runBatch();
        expect(() => sim.edit({ kind: "dig", depth: metres(1) }, [{ x: 10, y: 10 }], 3, { cycle: 0, batch: 0 })).toThrow(/cycle 0, batch 1/);
        expect(sim.getState().edits ?? []).toHaveLength(0);
    });
});
