/**
 * The run's history makes the input log's decisions as plans, once for the CPU reference and the
 * runner: an undo's targets and its rewind, a reset's or restore's put-back, where a given entry
 * goes (or why it is refused), a replay's step, a lockstep player's undo. These check the plans
 * themselves, on a history over a small simulation's schedule, without carrying them out.
 */
import { RunHistory, stepRuns, playerStepEntry } from "../../../plugin/core/inputLog/history.js";
import { CpuErosionSimulation, ErosionSnapshot, resolveOptions, type InputEntry } from "../../../plugin/index.js";

const SIZE = 17;

/** A small simulation (nothing run) and a history over its schedule, started where it stands. */
function setUp() {
    const heights = new Int32Array(SIZE * SIZE).map((_, i) => (i % SIZE) * 65536);
    const simulation = new CpuErosionSimulation(SIZE, SIZE, heights, resolveOptions({ patchSize: 16 }));
    const start = { state: simulation.getState(), options: simulation.snapshot().options, held: [], seq: 0 };
    const history = new RunHistory(simulation.schedule, heights, start, 64 * 2 ** 20);
    return { simulation, history, heights, start };
}

describe("the run's history (its plans, not carried out)", () => {
    it("plans an undo of two inputs: both logged as undos, last first, and one rewind from the start giving the rest again", () => {
        const { simulation, history, start } = setUp();
        simulation.erodeAt(4, 4, 2);
        simulation.erodeAt(8, 8, 2);
        simulation.erodeAt(12, 12, 2);
        const here = simulation.stamp;
        const plan = history.step("undo", 2, here);
        expect(plan.targets.map((entry) => entry.seq)).toEqual([3, 2]);
        expect(history.entries.slice(3).map((entry) => [entry.kind, (entry as { target: number }).target])).toEqual([["undo", 3], ["undo", 2]]);
        expect(plan.rewind?.point.state).toBe(start.state);
        expect(plan.rewind?.entries.map((entry) => entry.seq)).toEqual([1]);
        expect(plan.rewind?.here).toEqual(here);
        // A redo gives the last one taken back again: entry 2, in force with entry 1 after the rewind.
        const redo = history.step("redo", 1, here);
        expect(redo.targets.map((entry) => entry.seq)).toEqual([2]);
        expect(redo.rewind?.entries.map((entry) => entry.seq)).toEqual([1, 2]);
    });

    it("plans nothing when nothing is in force, and refuses a count that is not a whole number at least 1", () => {
        const { simulation, history } = setUp();
        expect(history.step("undo", 3, simulation.stamp)).toEqual({ targets: [], rewind: null });
        expect(history.entries).toEqual([]);
        expect(() => history.step("redo", 0, simulation.stamp)).toThrow(/redo: count is 0: it must be a whole number, at least 1/);
        expect(() => history.step("undo", 1.5, simulation.stamp)).toThrow(/undo: count is 1.5/);
    });

    it("says where a given entry goes: an input to the inputs, an act once the run reaches its stamp, and why it refuses one", () => {
        const { simulation, history } = setUp();
        simulation.erodeAt(4, 4, 2);
        const field = simulation.field;
        const input = { ...history.entries[0], seq: 2 } as InputEntry;
        expect(history.give(input, field, "give")).toMatchObject({ kind: "input", entry: { kind: "erodeAt", seq: 2 } });
        const ahead = { cycle: 2, batch: 0 };
        const undo = { kind: "undo", target: 1, seq: 2, at: ahead, stamp: ahead } as InputEntry;
        expect(history.give(undo, field, "give")).toMatchObject({ kind: "act", entries: [undo], runTo: ahead });
        expect(() => history.give({ ...input, seq: 1 }, field, "give")).toThrow(/give \(seq 1\): the log's last entry is seq 1: entries must be given in order/);
        const reset = { kind: "reset", heights: "0123456789abcdef", seq: 2, at: ahead, stamp: ahead } as InputEntry;
        expect(() => history.give(reset, field, "replay")).toThrow(/replay: the reset \(entry 2\) goes back to heights hashed 0123456789abcdef, but this run started from heights hashed/);
        simulation.runCycles(3);
        expect(() => history.give(undo, field, "give")).toThrow(/give: the undo entry's stamp \(cycle 2, batch 0\) has passed: the run stands at cycle 3, batch 0/);
    });

    it("plans a reset's and a restore's put-back, and a run of undos at one stamp as one rewind to the oldest target", () => {
        const { simulation, history, heights } = setUp();
        simulation.erodeAt(4, 4, 2);
        simulation.runCycles(1);
        const snapshot = simulation.snapshot();
        const restore = history.restore(new Uint8Array(snapshot.toArrayBuffer()), simulation.field, simulation.stamp);
        expect(restore.kind).toBe("putBack");
        expect(restore.seq).toBe(2);
        expect(restore.state.heights).toEqual(snapshot.state.heights);
        const reset = history.reset(simulation.stamp);
        expect(reset.seq).toBe(3);
        expect(reset.state.cycle).toBe(0);
        expect(reset.state.heights).toEqual(heights);
        expect(reset.state.edits).toEqual([]);
        // Carried out, the run starts again there (the executor tells the history so).
        history.restart({ state: reset.state, options: reset.options, held: [], seq: reset.seq });
        // Undos past a reset or restore are never planned: the stacks start again there.
        expect(history.undoable).toBeNull();
        simulation.erodeAt(4, 4, 2);
        simulation.erodeAt(8, 8, 2);
        const here = simulation.stamp;
        const run: InputEntry[] = [
            { kind: "undo", target: 5, seq: 6, at: here, stamp: here },
            { kind: "undo", target: 4, seq: 7, at: here, stamp: here },
        ];
        const plan = history.act(run);
        expect(plan.kind).toBe("rewind");
        expect(plan.kind === "rewind" && plan.rewind.entries).toEqual([]);
        expect(history.lastSeq).toBe(7);
    });

    it("splits given entries into single ones and runs of undos and redos at one stamp", () => {
        const at = (cycle: number) => ({ cycle, batch: 0 });
        const undo = (seq: number, cycle: number) => ({ kind: "undo", target: 1, seq, at: at(cycle), stamp: at(cycle) }) as InputEntry;
        const reset = { kind: "reset", heights: "x", seq: 9, at: at(3), stamp: at(3) } as InputEntry;
        const runs = stepRuns([undo(2, 1), undo(3, 1), undo(4, 2), reset, undo(10, 3)]);
        expect(runs.map((run) => run.map((entry) => entry.seq))).toEqual([[2, 3], [4], [9], [10]]);
    });

    it("plans a replay's steps: an entry recorded already given again, one before the start given, a later one run to first", () => {
        const { simulation, history } = setUp();
        simulation.runCycles(2);
        const startedAt = simulation.stamp;
        const early = { kind: "erodeAt", event: null, seq: 1, at: { cycle: 1, batch: 0 }, stamp: { cycle: 3, batch: 0 } } as unknown as InputEntry;
        expect(history.replayStep(early, startedAt, false, "replay")).toEqual({ kind: "give", entry: early });
        const later = { ...early, at: { cycle: 4, batch: 0 } } as InputEntry;
        expect(history.replayStep(later, startedAt, true, "replay")).toEqual({ kind: "runThenGive", entry: later, runTo: later.at });
        expect(() => history.replayStep(early, startedAt, true, "replay")).toThrow(/replay: entry 1 \(erodeAt\) was given at cycle 1, batch 0, but the replay already stands at cycle 2, batch 0/);
        simulation.erodeAt(4, 4, 2);
        const recorded = history.entries[0];
        expect(history.replayStep(recorded, startedAt, true, "replay")).toEqual({ kind: "regive", entry: recorded });
    });

    it("plans a lockstep player's undo of its own last input, never another's", () => {
        const { simulation } = setUp();
        simulation.schedule.inputs.give({ kind: "mask", name: "thermal", values: null }, undefined, undefined, "ann");
        const here = simulation.stamp;
        expect(playerStepEntry(simulation.log, "undo", "bob", here)).toBeNull();
        expect(playerStepEntry(simulation.log, "undo", "ann", here)).toEqual({ kind: "undo", target: 1, seq: 2, at: here, stamp: here, player: "ann" });
        expect(playerStepEntry(simulation.log, "redo", "ann", here)).toBeNull();
    });

    it("keeps the start a join's history carries, and the snapshot it makes of it", () => {
        const { simulation, history, start } = setUp();
        simulation.erodeAt(4, 4, 2);
        const join = history.joinHistory(1);
        expect(join.entries.map((entry) => entry.seq)).toEqual([1]);
        expect(ErosionSnapshot.fromArrayBuffer(join.start.slice().buffer).state.heights).toEqual(start.state.heights);
    });
});
