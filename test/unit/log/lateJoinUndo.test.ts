/**
 * An undo across a join: a host, two players and two late joiners (the CPU reference, and a
 * behavior on the CPU backend), each starting from the host's `join()` with its history. A player
 * undoes an edit made before the joiners joined, then redoes it, then another player undoes one of
 * its own from before the join, and a stroke of three edits is taken back at once (the behavior
 * gives the step's three undos with one rewind); every player and joiner equals the host at every
 * turn's horizon.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions, TerrainErosion, type InputEntry } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { LockstepHost, replayInputLog, type PlayerInput } from "../../../plugin/lockstep.js";
import { createGroundWithHeights, createNullScene, renderFrames } from "../../helpers/nullScene.js";
import { RunnerRewind } from "../../../plugin/component/runnerRewind.js";

const SIZE = 33;
const UNIT = 65536;
const heights = generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 8, relief: 6 });
const OPTIONS = { patchSize: 16, hydraulic: { dropletsPerBatch: 16 }, water: { enabled: true, stepsPerCycle: 1, rain: 0.001 } };
const dig = (x: number, y: number): PlayerInput => ({ kind: "edit", edit: { kind: "dig", depth: UNIT }, points: [{ x, y }], radius: 3 });

describe("an undo across a join", () => {
    it("takes back, on every player and late joiner alike, an input given before they joined", async () => {
        const world = createNullScene();
        try {
            const host = new LockstepHost(new CpuErosionSimulation(SIZE, SIZE, heightsToFixed(heights), resolveOptions(OPTIONS)));
            const first = host.join();
            const peers = ["A", "B"].map(() => replayInputLog(ErosionSnapshot.fromArrayBuffer(first.snapshot.slice().buffer), first.entries, { until: first.horizon, history: first.history }));
            const behaviors: TerrainErosion[] = [];
            const turn = async (requests: [string, PlayerInput][], batches = 3): Promise<(InputEntry | null)[]> => {
                const entries = requests.map(([player, input]) => host.submit(input, player));
                const horizon = host.advance(batches);
                const fingerprint = host.simulation.fingerprint();
                for (const peer of peers) {
                    for (const entry of entries) if (entry) peer.give(entry);
                    peer.runUntil(horizon);
                    expect(peer.fingerprint()).toBe(fingerprint);
                }
                for (const erosion of behaviors) {
                    await erosion.lockstep.giveAll(entries.filter((entry): entry is InputEntry => entry !== null));
                    erosion.lockstep.horizon = horizon;
                    await erosion.lockstep.runUntil(horizon);
                    expect(await erosion.fingerprint()).toBe(fingerprint);
                }
                return entries;
            };
            const [a1] = await turn([["A", dig(8, 8)]]);
            await turn([["B", { kind: "addSource", tag: 1, x: 24, y: 8, radius: 1, rate: 0.05 }]]);
            const [b1] = await turn([["B", dig(24, 24)]], 40); // past a cycle boundary: the spring in force
            await turn([["A", dig(8, 24)]]);
            // Two late joiners, from the host's join with its history.
            const join = host.join();
            expect(join.history.entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
            peers.push(replayInputLog(ErosionSnapshot.fromArrayBuffer(join.snapshot.slice().buffer), join.entries, { until: join.horizon, history: join.history }));
            const ground = createGroundWithHeights(world.scene, heights, SIZE, SIZE);
            const erosion = new TerrainErosion({ ...OPTIONS, backend: "cpu", cpuWorkers: 1, autoStart: false });
            ground.addBehavior(erosion);
            await erosion.whenReady();
            await erosion.history.replay(ErosionSnapshot.fromArrayBuffer(join.snapshot.slice().buffer), join.entries, join.horizon, join.history);
            behaviors.push(erosion);
            await turn([["B", dig(16, 16)]]);
            // A takes back its last edit (before the joins), then the one before it, and gives one back.
            const [undo1] = await turn([["A", { kind: "undo" }]]);
            expect(undo1).toMatchObject({ kind: "undo", target: 4 });
            const [undo2] = await turn([["A", { kind: "undo" }]]);
            expect(undo2).toMatchObject({ kind: "undo", target: a1!.seq });
            await turn([["A", { kind: "redo" }]]);
            // B takes back its last (after the joins), then its dig from before them.
            await turn([["B", { kind: "undo" }]]);
            const [undo3] = await turn([["B", { kind: "undo" }]], 5);
            expect(undo3).toMatchObject({ kind: "undo", target: b1!.seq });
            // A stroke of three edits, taken back at once: three undos in one step, one rewind on the behavior.
            await turn([["B", dig(6, 20)], ["B", dig(9, 20)], ["B", dig(12, 20)]]);
            const rewinds = jest.spyOn(RunnerRewind.prototype, "rewind");
            const undos = await turn([["B", { kind: "undo" }], ["B", { kind: "undo" }], ["B", { kind: "undo" }]]);
            expect(undos.map((entry) => entry?.kind)).toEqual(["undo", "undo", "undo"]);
            expect(rewinds).toHaveBeenCalledTimes(1);
            rewinds.mockRestore();
            await renderFrames(world.scene, 2);
            expect(await erosion.fingerprint()).toBe(host.simulation.fingerprint());
        } finally {
            world.dispose();
        }
    });
});
