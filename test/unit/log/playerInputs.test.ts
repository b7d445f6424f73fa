/**
 * A lockstep host that trusts no player: two players editing alternately each undo and redo their
 * own inputs only; springs placed in one turn both stay and each player removes only its own; a
 * request past the player's limits, of runtime settings, or carrying heights is refused with its
 * reason and changes nothing; a player refused too often is to be disconnected. Every player equals
 * the host after every turn. And a behavior with `forwardInputs` sends requests, not heights.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions, TerrainErosion, type InputEntry } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { LockstepHost, parsePlayerInput, PlayerRefusedError, serializePlayerInput, type PlayerInput } from "../../../plugin/lockstep.js";
import { createGroundWithHeights, createNullScene } from "../../helpers/nullScene.js";

const SIZE = 33;
const UNIT = 65536;
const heights = generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 21, relief: 6 });
const OPTIONS = { patchSize: 16, hydraulic: { dropletsPerBatch: 16 }, water: { enabled: true, stepsPerCycle: 1, rain: 0.001 } };

function game(limits = {}) {
    let now = 0;
    const host = new LockstepHost(new CpuErosionSimulation(SIZE, SIZE, heightsToFixed(heights), resolveOptions(OPTIONS)), { limits, now: () => now });
    const join = host.join();
    const peers = ["A", "B"].map(() => CpuErosionSimulation.fromSnapshot(ErosionSnapshot.fromArrayBuffer(join.snapshot.slice().buffer)));
    /** One turn: the host takes the requests (each through the wire form), runs, and every peer gives the entries and runs to the horizon. */
    const turn = (requests: [string, PlayerInput][], batches = 2): (InputEntry | null)[] => {
        const entries = requests.map(([player, input]) => host.submit(parsePlayerInput(serializePlayerInput(input)), player));
        host.advance(batches);
        now += 1000;
        for (const peer of peers) {
            for (const entry of entries) if (entry) peer.give(entry);
            peer.runUntil(host.horizon);
            expect(peer.fingerprint()).toBe(host.simulation.fingerprint());
        }
        return entries;
    };
    return { host, peers, turn, tick: (ms: number) => (now += ms) };
}

const dig = (x: number, y: number): PlayerInput => ({ kind: "edit", edit: { kind: "dig", depth: UNIT }, points: [{ x, y }], radius: 3 });
const pile = (x: number, y: number): PlayerInput => ({ kind: "edit", edit: { kind: "pile", height: UNIT }, points: [{ x, y }], radius: 3 });

describe("a lockstep host's players", () => {
    it("take back and give again only their own inputs, editing alternately", () => {
        const { host, turn } = game();
        const [a1] = turn([["A", dig(8, 8)]]);
        const [b1] = turn([["B", pile(24, 8)]]);
        const [a2] = turn([["A", dig(8, 24)]]);
        const [b2] = turn([["B", pile(24, 24)]]);
        expect([a1, b1, a2, b2].map((entry) => entry!.player)).toEqual(["A", "B", "A", "B"]);
        // A's undo takes back A's last edit, not B's (the last in the log).
        const [undoA] = turn([["A", { kind: "undo" }]]);
        expect(undoA).toMatchObject({ kind: "undo", target: a2!.seq, player: "A" });
        const [undoB] = turn([["B", { kind: "undo" }]]);
        expect(undoB).toMatchObject({ kind: "undo", target: b2!.seq, player: "B" });
        const [undoA2] = turn([["A", { kind: "undo" }]]);
        expect(undoA2).toMatchObject({ target: a1!.seq });
        expect(turn([["A", { kind: "undo" }]])).toEqual([null]); // nothing of A's left: nothing sent to anyone
        // B's new edit does not end A's redo: A gives back its own, last taken back first.
        const [b3] = turn([["B", dig(16, 16)]]);
        const [redoA] = turn([["A", { kind: "redo" }]]);
        expect(redoA).toMatchObject({ kind: "redo", target: a1!.seq, player: "A" });
        // ...but B's new edit ended B's own redo.
        expect(turn([["B", { kind: "redo" }]])).toEqual([null]);
        expect(host.simulation.log.undoableBy("B")?.seq).toBe(b3!.seq);
        // The host's log is the one history: every input and every undo, in order.
        expect(host.simulation.log.entries.map((entry) => `${entry.player}:${entry.kind}`)).toEqual(["A:edit", "B:edit", "A:edit", "B:edit", "A:undo", "B:undo", "A:undo", "B:edit", "A:redo"]);
    });

    it("keeps springs placed by two players in one turn, each removed only by its own player", () => {
        const { host, turn } = game();
        turn([
            ["A", { kind: "addSource", tag: 1, x: 8, y: 8, radius: 1, rate: 0.05 }],
            ["B", { kind: "addSource", tag: 1, x: 24, y: 24, radius: 1, rate: 0.05 }],
        ]);
        host.advance(40); // past the cycle boundary: both in force
        const inForce = () => host.simulation.getState().sources!.inForce.map(({ id, column }) => ({ id, column }));
        expect(inForce()).toEqual([
            { id: 1, column: 8 },
            { id: 2, column: 24 },
        ]);
        turn([["B", { kind: "removeSource", tag: 1 }]]);
        host.advance(40);
        expect(inForce()).toEqual([{ id: 1, column: 8 }]);
        expect(() => host.submit({ kind: "removeSource", tag: 2 }, "A")).toThrow(/no spring tagged 2/);
    });

    it("refuses, with its reason and nothing applied, what a player may not ask", () => {
        const { host, turn, tick } = game({ maxEditVertices: 400, inputBurst: 3, inputsPerSecond: 1, maxRefusals: 6 });
        turn([["A", dig(8, 8)]]);
        const before = { fingerprint: host.simulation.fingerprint(), entries: host.simulation.log.entries.length };
        const refusal = (input: unknown, player = "A") => {
            try {
                host.submit(input, player);
            } catch (error) {
                expect(error).toBeInstanceOf(PlayerRefusedError);
                return error as PlayerRefusedError;
            }
            throw new Error("taken");
        };
        expect(refusal({ kind: "edit", edit: { kind: "dig", depth: UNIT }, points: [{ x: 16, y: 16 }], radius: 15 }).reason).toMatch(/would cover 961 vertices: at most 400/);
        expect(refusal({ kind: "options", options: { frameBudgetMs: 50 } }).reason).toMatch(/frameBudgetMs: runtime settings are each machine's own/);
        expect(refusal({ kind: "edit", edit: { kind: "dig", depth: UNIT }, points: [{ x: 4, y: 4 }], radius: 2, amounts: [-1e9] }).reason).toMatch(/unknown field "amounts"/);
        expect(refusal({ kind: "edit", edit: { kind: "dig", depth: "deep" }, points: [{ x: 4, y: 4 }], radius: 2 }).reason).toMatch(/edit\.depth is "deep": it must be a finite number/);
        expect(host.simulation.fingerprint()).toBe(before.fingerprint);
        expect(host.simulation.log.entries).toHaveLength(before.entries);
        // B is held to its own limits: its edit is taken.
        expect(host.submit(dig(24, 24), "B")).toMatchObject({ kind: "edit", player: "B" });
        // A's rate: the refused edits spent tokens too; one is left, then A is refused until its rate allows.
        expect(host.submit(dig(10, 10), "A")).toMatchObject({ kind: "edit", player: "A" });
        const rate = refusal(dig(12, 12));
        expect(rate.reason).toMatch(/more than 1 inputs a second \(after a burst of 3\)/);
        expect([rate.refusals, rate.disconnect]).toEqual([5, false]);
        const last = refusal({ kind: "teleport" });
        expect(last.reason).toMatch(/its kind is "teleport"/);
        expect([last.refusals, last.disconnect]).toEqual([6, true]); // the game should now disconnect A
        tick(1000);
        expect(host.submit(dig(12, 12), "A")).toMatchObject({ player: "A" });
    });

    it("gets requests, not heights, from a behavior that forwards its inputs", async () => {
        const world = createNullScene();
        try {
            const ground = createGroundWithHeights(world.scene, heights, SIZE, SIZE);
            const erosion = new TerrainErosion({ ...OPTIONS, backend: "cpu", cpuWorkers: 1, autoStart: false });
            ground.addBehavior(erosion);
            await erosion.whenReady();
            const sent: PlayerInput[] = [];
            erosion.lockstep.forwardInputs = (input) => sent.push(input);
            erosion.edits.dig(new Vector3(0, 0, 0), 4, 1);
            const spring = erosion.edits.addWaterSource(new Vector3(4, 0, 4), 1, 0.1);
            expect(spring.remove()).toBe(true);
            expect(spring.remove()).toBe(false);
            await erosion.history.undo(2);
            await expect(erosion.history.reset()).rejects.toThrow(/reset is the lockstep host's to make/);
            expect(sent.map((input) => input.kind)).toEqual(["edit", "addSource", "removeSource", "undo", "undo"]);
            const edit = sent[0] as Extract<PlayerInput, { kind: "edit" }>;
            expect(edit).toEqual({ kind: "edit", edit: { kind: "dig", depth: edit.edit.kind === "dig" ? edit.edit.depth : NaN, sediment: false }, points: [{ x: 16, y: 16 }], radius: edit.radius });
            expect(sent[2]).toEqual({ kind: "removeSource", tag: (sent[1] as { tag: number }).tag });
            // Nothing applied here: the host's entries bring them.
            expect(erosion.history.inputLog).toHaveLength(0);
        } finally {
            world.dispose();
        }
    });
});
