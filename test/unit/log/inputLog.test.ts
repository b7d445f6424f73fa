/**
 * The input log on the CPU reference: every input kind recorded with its stamps, replayed from a
 * snapshot to the live fingerprint at every entry, undo and redo exact (also after a restore), the
 * checkpoint ring within its memory, apply-by-stamp, and the serialised form's checks.
 */
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions, type InputEntry } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { parseInputLog, replayInputLog, serializeInputLog } from "../../../plugin/lockstep.js";

const size = 33;
const metres = (value: number) => Math.round(value * 65536);
const start = heightsToFixed(generateNoiseTerrain({ width: size, depth: size, seed: 5, relief: 12 }));

function simulation(options = {}): CpuErosionSimulation {
    return new CpuErosionSimulation(size, size, start, resolveOptions({ patchSize: 16, hydraulic: { dropletsPerBatch: 32 }, water: { enabled: true, stepsPerCycle: 2 }, ...options }));
}

/** Gives inputs of every kind at assorted positions; returns the live fingerprint where each entry was given, and the first snapshot. */
function recordedRun(): { sim: CpuErosionSimulation; first: ErosionSnapshot; mid: ErosionSnapshot; live: Map<number, string> } {
    const sim = simulation();
    const first = new ErosionSnapshot(sim.getState(), sim.schedule.options);
    const live = new Map<number, string>();
    const give = (input: () => void) => {
        sim.runUntil(sim.stamp); // the state at this stamp: the edits stamped here applied
        live.set(sim.log.lastSeq + 1, sim.fingerprint());
        input();
    };
    for (let k = 0; k < 3; k++) sim.runBatch();
    give(() => sim.schedule.setOptions(resolveOptions({ ...sim.schedule.latestOptions, thermal: { talus: 0.6 } })));
    sim.runClass();
    const mid = sim.snapshot(); // mid-cycle, the options change still waiting for the boundary
    give(() => sim.erodeAt(12, 14, 5, { droplets: 200 }));
    give(() => sim.addWaterSource(20, 8, 2, 0.1));
    sim.runCycles(1);
    for (let k = 0; k < 4; k++) sim.runBatch();
    give(() => sim.edit({ kind: "dig", depth: metres(1.5) }, [{ x: 10, y: 10 }], 4));
    give(() => sim.setMasks({ ...sim.schedule.latestMasks, thermal: new Int32Array(size * size).fill(32768) }));
    const saved = new ErosionSnapshot(sim.getState(), sim.schedule.options);
    give(() => sim.edit({ kind: "crater", depth: metres(2) }, [{ x: 22, y: 20 }], 5, { cycle: sim.stamp.cycle + 1, batch: 2 }));
    sim.runCycles(2);
    give(() => sim.edit({ kind: "pile", height: metres(1) }, [{ x: 5, y: 25 }, { x: 25, y: 25 }], 2));
    give(() => sim.restore(saved));
    sim.runClass();
    give(() => sim.edit({ kind: "flatten", target: metres(6) }, [{ x: 16, y: 16 }], 6));
    sim.runCycles(1);
    give(() => sim.undo());
    sim.runBatch();
    give(() => sim.redo());
    sim.runCycles(1);
    return { sim, first, mid, live };
}

describe("the input log (CPU)", () => {
    it("records every input with where it was given and where it applies, and replays from the first snapshot to the live fingerprint at every entry", () => {
        const { sim, first, live } = recordedRun();
        const entries = sim.log.entries;
        expect(entries.map((entry) => entry.kind)).toEqual(["options", "erodeAt", "sources", "edit", "mask", "edit", "edit", "restore", "edit", "undo", "redo"]);
        const options = entries[0];
        expect(options.stamp).toEqual({ cycle: options.at.cycle + 1, batch: 0 }); // given mid-cycle: it applies at the next boundary
        const text = serializeInputLog(entries);
        console.log(`the log of ${entries.length} entries: ${text.length} characters of JSON (a mask and a snapshot in it)`);
        let checked = 0;
        const replayed = replayInputLog(first, parseInputLog(text), {
            until: sim.stamp,
            onEntry: (entry: InputEntry, replay) => {
                expect(replay.fingerprint()).toBe(live.get(entry.seq));
                checked++;
            },
        });
        expect(checked).toBe(entries.length);
        expect(replayed.fingerprint()).toBe(sim.fingerprint());
        expect(replayed.log.entries.map((entry) => entry.seq)).toEqual(entries.map((entry) => entry.seq));
    });

    it("replays from a snapshot taken mid-cycle with the log since it; the options change still waiting then travels in the snapshot", () => {
        const { sim, mid, live } = recordedRun();
        const since = sim.inputsSince(mid);
        expect(since[0].seq).toBe(mid.logSeq + 1);
        const restored = ErosionSnapshot.fromArrayBuffer(mid.toArrayBuffer());
        expect(restored.state.pendingOptions?.thermal.talus).toBe(0.6);
        let checked = 0;
        const replayed = replayInputLog(restored, since, {
            until: sim.stamp,
            onEntry: (entry, replay) => {
                expect(replay.fingerprint()).toBe(live.get(entry.seq));
                checked++;
            },
        });
        expect(checked).toBe(since.length);
        expect(replayed.fingerprint()).toBe(sim.fingerprint());
        // Without the waiting change, the replay parts from the run at the next boundary.
        const restore = since.find((entry) => entry.kind === "restore")!;
        const without = replayInputLog(new ErosionSnapshot({ ...mid.state, pendingOptions: null }, mid.options), since, { until: restore.at });
        expect(without.fingerprint()).not.toBe(live.get(restore.seq));
    });

    it("undo takes an edit back exactly, redo gives it back, and an undo after a restore is exact too", () => {
        const edited = simulation();
        edited.runCycles(1);
        edited.edit({ kind: "crater", depth: metres(2) }, [{ x: 16, y: 16 }], 6);
        edited.runCycles(3);
        const withEdit = edited.fingerprint();
        expect(edited.undo().map((entry) => entry.kind)).toEqual(["edit"]);
        const never = simulation();
        never.runCycles(4);
        expect(edited.fingerprint()).toBe(never.fingerprint());
        expect(withEdit).not.toBe(never.fingerprint());
        expect(edited.redo().map((entry) => entry.kind)).toEqual(["edit"]);
        expect(edited.fingerprint()).toBe(withEdit);
        // Save, edit, restore the save, edit again: the undo takes back only the last edit.
        const saved = new ErosionSnapshot(edited.getState(), edited.schedule.options);
        edited.edit({ kind: "dig", depth: metres(1) }, [{ x: 8, y: 8 }], 4);
        edited.runCycles(1);
        edited.restore(saved);
        edited.erodeAt(20, 20, 4, { droplets: 100 });
        edited.runCycles(2);
        expect(edited.undo().map((entry) => entry.kind)).toEqual(["erodeAt"]);
        const restoredOnly = CpuErosionSimulation.fromSnapshot(saved);
        restoredOnly.runCycles(2);
        expect(edited.fingerprint()).toBe(restoredOnly.fingerprint());
        expect(edited.undo()).toEqual([]); // nothing before the restore
    });

    it("an option or a mask change is undone like an edit", () => {
        const sim = simulation({ water: { enabled: false } });
        sim.runCycles(1);
        sim.schedule.setOptions(resolveOptions({ ...sim.schedule.latestOptions, hydraulic: { erosion: 0.9 } }));
        sim.runCycles(2);
        expect(sim.undo().map((entry) => entry.kind)).toEqual(["options"]);
        const never = simulation({ water: { enabled: false } });
        never.runCycles(3);
        expect(sim.fingerprint()).toBe(never.fingerprint());
        expect(sim.schedule.options.hydraulic.erosion).toBe(never.schedule.options.hydraulic.erosion);
    });

    it("keeps the checkpoint ring within its memory over 10^4 edits, and still undoes exactly", () => {
        const sim = simulation({ water: { enabled: false }, hydraulic: { enabled: false }, rivers: { enabled: false } });
        const stateBytes = 4 * size * size * 4;
        sim.undoMemoryBytes = 3 * stateBytes;
        let most = 0;
        for (let k = 0; k < 10_000; k++) {
            sim.edit({ kind: k % 2 ? "pile" : "dig", ...(k % 2 ? { height: 300 } : { depth: 300 }) } as never, [{ x: 4 + (k % 25), y: 4 + ((k * 7) % 25) }], 2);
            if (k % 50 === 0) sim.runClass();
            most = Math.max(most, sim.undoMemory.bytes);
        }
        console.log(`10^4 edits: the ring held at most ${most} bytes (${most / stateBytes} states) of its ${sim.undoMemoryBytes}`);
        expect(most).toBeLessThanOrEqual(sim.undoMemoryBytes);
        expect(sim.undoMemory.points).toBe(3);
        const before = sim.fingerprint();
        sim.undo();
        sim.redo();
        expect(sim.fingerprint()).toBe(before);
    });

    it("applies an entry given with a future stamp exactly there, and refuses a stamp that has passed, naming the current one", () => {
        const direct = simulation();
        direct.runCycles(1);
        for (let k = 0; k < 6; k++) direct.runBatch();
        const entry = direct.edit({ kind: "dig", depth: metres(1) }, [{ x: 12, y: 12 }], 4);
        direct.runCycles(1);
        const ahead = simulation();
        ahead.runBatch();
        ahead.give(direct.log.entries.at(-1)!); // given early, stamped (1, 6)
        ahead.runCycles(2);
        expect(ahead.fingerprint()).toBe(direct.fingerprint());
        expect([entry.cycle, entry.batch]).toEqual([1, 6]);
        expect(() => ahead.give({ ...direct.log.entries.at(-1)!, seq: 99 })).toThrow(/stamp \(cycle 1, batch 6\) has passed: the schedule stands at cycle 2, batch 0/);
    });

    it("reads back what it wrote, and refuses a wrong version, a truncated text, bad stamps and unknown kinds, naming the entry", () => {
        const { sim } = recordedRun();
        const text = serializeInputLog(sim.log.entries);
        expect(serializeInputLog(parseInputLog(text)) === text).toBe(true); // (not toBe: a failure would print the whole log)
        const json = JSON.parse(text);
        expect(() => parseInputLog(JSON.stringify({ ...json, version: 2 }))).toThrow(/version 2; this package reads version 1/);
        expect(() => parseInputLog(text.slice(0, text.length / 2))).toThrow(/not JSON .* truncated/);
        const broken = (change: (entries: Record<string, unknown>[]) => void) => {
            const copy = JSON.parse(text);
            change(copy.entries);
            return () => parseInputLog(JSON.stringify(copy));
        };
        expect(broken((entries) => (entries[2].kind = "teleport"))).toThrow(/entry 2 \(seq 3\): its kind is "teleport"/);
        expect(broken((entries) => (entries[3].stamp = { cycle: 0, batch: 0 }))).toThrow(/entry 3 \(seq 4\): its stamp .* is before where it was given/);
        expect(broken((entries) => (entries[0].stamp = { cycle: 2, batch: 3 }))).toThrow(/entry 0 \(seq 1\): a options entry applies at a cycle boundary/);
        expect(broken((entries) => (entries[4].seq = 2))).toThrow(/entry 4 is numbered 2, after 4/);
        expect(broken((entries) => (entries[1].at = { cycle: -1, batch: 0 }))).toThrow(/entry 1 \(seq 2\): its at is/);
        expect(broken((entries) => ((entries[4] as { values: unknown }).values = { base64: "AAA" }))).toThrow(/entry 4 \(seq 5\): its values/);
        // A replay of a bad log changes nothing: the log is refused before the first entry is given.
        for (let cut = 1; cut < 40; cut++) {
            expect(() => parseInputLog(text.slice(0, Math.floor((text.length * cut) / 40)))).toThrow(RangeError);
        }
    });
});
