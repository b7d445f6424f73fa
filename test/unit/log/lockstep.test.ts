/**
 * Lockstep without a network (NullEngine, CPU backend): a host (`LockstepHost` over the CPU
 * reference) and two players whose inputs go to the host (`forwardInputs`) and come back as entries
 * they are given; each player runs to the host's horizon and no further. They dig, pile and blast
 * with water on and stay identical to the host; a late joiner starts from `join()` and is identical
 * from its first frame; a player that parts from the host in one region (a unit off in one vertex)
 * finds exactly that region by the checksums and repairs it.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions, TerrainErosion } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { LockstepHost, readRegions, type PlayerInput } from "../../../plugin/lockstep.js";
import { createGroundWithHeights, createNullScene, renderFrames } from "../../helpers/nullScene.js";

const W = 41;
const D = 33;
const heights = generateNoiseTerrain({ width: W, depth: D, seed: 12, relief: 8 });
const OPTIONS = { patchSize: 16, hydraulic: { dropletsPerBatch: 32 }, water: { enabled: true, stepsPerCycle: 1, rain: 0.001 } };

describe("lockstep through a host", () => {
    let world: ReturnType<typeof createNullScene>;
    let joined = 0;
    beforeEach(() => (world = createNullScene()));
    afterEach(() => world.dispose());

    async function player(host: LockstepHost, sent: { input: PlayerInput; player: string }[]): Promise<TerrainErosion> {
        const ground = createGroundWithHeights(world.scene, heights, W, D);
        const erosion = new TerrainErosion({ ...OPTIONS, backend: "cpu", cpuWorkers: 1, frameBudgetMs: 0.05 });
        ground.addBehavior(erosion);
        await erosion.whenReady();
        const join = host.join();
        await erosion.history.replay(ErosionSnapshot.fromArrayBuffer(join.snapshot.slice().buffer), join.entries, join.horizon);
        erosion.lockstep.horizon = join.horizon;
        const name = `player ${++joined}`;
        erosion.lockstep.forwardInputs = (input) => sent.push({ input, player: name });
        return erosion;
    }

    it("keeps every player identical to the host while they dig, pile and blast; a late joiner too; a parted region is found and repaired", async () => {
        const host = new LockstepHost(new CpuErosionSimulation(W, D, heightsToFixed(heights), resolveOptions(OPTIONS)));
        const sent: { input: PlayerInput; player: string }[] = [];
        const players = [await player(host, sent), await player(host, sent)];
        /** One round: the host takes what was sent, runs a few batches, and every player gets the entries and the new horizon. */
        const round = async (batches: number) => {
            const entries = sent.splice(0).flatMap(({ input, player: name }) => host.submit(input, name) ?? []);
            const horizon = host.advance(batches);
            for (const erosion of players) {
                for (const entry of entries) await erosion.lockstep.give(entry);
                erosion.lockstep.horizon = horizon;
            }
            await renderFrames(world.scene, 4);
        };
        players[0].edits.dig(new Vector3(-8, 0, 4), 3, 1.5);
        await round(3);
        players[1].edits.pile(new Vector3(6, 0, -5), 3, 1);
        players[0].edits.crater(new Vector3(10, 0, 8), 4, 1.2);
        expect(sent).toHaveLength(2); // forwarded, not applied
        await round(5);
        players[1].edits.along([new Vector3(-15, 0, -10), new Vector3(12, 0, -12)], 2, { dig: 0.8 });
        await round(7);
        await round(6);
        // A late joiner, identical from its first frame.
        players.push(await player(host, sent));
        await round(4);
        for (let k = 0; k < 60 && players.some((erosion) => erosion.lockstep.stamp.cycle !== host.horizon.cycle || erosion.lockstep.stamp.batch !== host.horizon.batch); k++) await renderFrames(world.scene, 2);
        const fingerprint = host.simulation.fingerprint();
        for (const erosion of players) {
            expect(erosion.lockstep.stamp).toEqual(host.horizon);
            expect(await erosion.fingerprint()).toBe(fingerprint);
        }
        console.log(`host and ${players.length} players identical at cycle ${host.horizon.cycle}, batch ${host.horizon.batch}: ${host.simulation.log.entries.length} entries`);
        // One player parts (one unit off in one vertex, where it stands): the checksums say where, and the host's regions repair it.
        const parted = players[1];
        const corrupt = readRegions((await parted.history.snapshot()).state, 16, [4]);
        corrupt.values[7] += 1;
        await parted.lockstep.repairRegions({ stamp: parted.lockstep.stamp, patch: corrupt });
        const reported: number[][] = [];
        parted.lockstep.onRegionsPartedObservable.add((event) => reported.push([...event.regions]));
        const regions = await parted.lockstep.checkRegions(host.checksums(16));
        expect(regions).toEqual([4]);
        expect(reported).toEqual([regions]);
        await parted.lockstep.repairRegions(host.regions(regions, 16));
        expect(await parted.fingerprint()).toBe(fingerprint);
        expect(await parted.lockstep.checkRegions(host.checksums(16))).toEqual([]);
    });
});
