/**
 * erodeAt: local erosion over a disc, confined, deterministic and recorded in the state.
 */
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { discDirection, QUARTER_COSINES } from "../../../plugin/core/localErosion.js";

const W = 80;
const D = 60;
const start = heightsToFixed(generateNoiseTerrain({ width: W, depth: D, relief: 15, tilt: 0.2, seed: 23 }));
const localOnly = resolveOptions({ patchSize: 32, seed: 4, hydraulic: { enabled: false, maxSteps: 20, brushRadius: 2 }, rivers: { enabled: false }, thermal: { enabled: false } });

describe("erodeAt", () => {
    it("changes nothing farther from its disc than a walk can reach (maxSteps + brushRadius + 1)", () => {
        const simulation = new CpuErosionSimulation(W, D, start, localOnly);
        const [cx, cy, radius] = [31.5, 22.25, 6];
        simulation.erodeAt(cx, cy, radius, { droplets: 800 });
        simulation.runCycles(1);
        const reach = radius + 20 + 2 + 1;
        let changed = 0;
        for (let i = 0; i < W * D; i++) {
            if (simulation.state.heights[i] === start[i] && simulation.state.suspended[i] === 0) continue;
            changed++;
            const x = i % W;
            const y = Math.floor(i / W);
            expect(Math.max(Math.abs(x - cx), Math.abs(y - cy))).toBeLessThanOrEqual(reach + 1);
        }
        expect(changed).toBeGreaterThan(50);
        expect(simulation.state.counters[3]).toBeGreaterThan(800);
    });

    it("runs from the next cycle boundary only, once, and is deterministic given its inputs and that cycle", () => {
        const run = (cycle: number, x = 40) => {
            const simulation = new CpuErosionSimulation(W, D, start, resolveOptions({ patchSize: 32, seed: 4, hydraulic: { dropletsPerBatch: 200 } }));
            simulation.runCycles(cycle);
            simulation.runBatch(); // mid-cycle: the event waits for the boundary
            simulation.erodeAt(x, 30, 5, { droplets: 300 });
            expect(simulation.schedule.pendingEvents.length).toBe(1);
            simulation.runCycles(1); // finishes the cycle in progress
            expect(simulation.schedule.events.length).toBe(1);
            simulation.runCycles(1); // the event's cycle
            expect(simulation.schedule.events.length).toBe(0);
            return simulation.fingerprint();
        };
        expect(run(1)).toBe(run(1));
        expect(run(1)).not.toBe(run(2));
        expect(run(1)).not.toBe(run(1, 41));
    });

    it("is part of the state: the fingerprint sees a pending event, snapshots carry it", () => {
        const simulation = new CpuErosionSimulation(W, D, start, resolveOptions({ patchSize: 32, hydraulic: { dropletsPerBatch: 200 } }));
        simulation.runBatch();
        const before = simulation.fingerprint();
        simulation.erodeAt(20, 20, 4, { hydraulic: { erosion: 0.8 } });
        expect(simulation.fingerprint()).not.toBe(before);
        const snapshot = ErosionSnapshot.fromArrayBuffer(new ErosionSnapshot(simulation.getState(), simulation.schedule.options).toArrayBuffer());
        simulation.runCycles(2);
        const resumed = new CpuErosionSimulation(W, D, start, resolveOptions({ patchSize: 32, hydraulic: { dropletsPerBatch: 200 } }));
        resumed.setState(snapshot.state);
        resumed.runCycles(2);
        expect(resumed.fingerprint()).toBe(simulation.fingerprint());
    });

    it("rejects bad discs and droplet counts with clear errors", () => {
        const simulation = new CpuErosionSimulation(W, D, start, localOnly);
        expect(() => simulation.erodeAt(NaN, 3, 2)).toThrow(/centre x is NaN/);
        expect(() => simulation.erodeAt(10, 10, 0.1)).toThrow(/radius is 0.1 cells/);
        expect(() => simulation.erodeAt(500, 10, 3)).toThrow(/misses the ground/);
        expect(() => simulation.erodeAt(10, 10, 3, { droplets: 0 })).toThrow(/droplets is 0/);
        expect(() => simulation.erodeAt(10, 10, 3, { hydraulic: { inertia: 2 } })).toThrow(/"hydraulic.inertia" is 2/);
    });

    it("places droplets with a literal angle table: cosines and sines of every step agree with Math to the unit", () => {
        expect(QUARTER_COSINES.length).toBe(65);
        for (let a = 0; a < 256; a++) {
            const [cosine, sine] = discDirection(a);
            expect(Math.abs(cosine - Math.cos((2 * Math.PI * a) / 256) * 65536)).toBeLessThanOrEqual(1);
            expect(Math.abs(sine - Math.sin((2 * Math.PI * a) / 256) * 65536)).toBeLessThanOrEqual(1);
        }
    });
});
