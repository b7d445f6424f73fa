/**
 * The sample's lockstep server and client over real WebSockets (`ws`), in one Node process: two
 * players (NullEngine, CPU backend) join, dig, pile and blast with water on, one of them parts (a
 * unit off in one vertex) and is repaired from the checksums and regions the server sends; when the server stops, both
 * stand at its horizon with its fingerprint.
 */
import "@babylonjs/core/Meshes/groundMesh.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { WebSocket as NodeWebSocket, WebSocketServer } from "ws";
import { FINGERPRINT_TAG, readRegions } from "../../../plugin/lockstep.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { TerrainErosion } from "../../../plugin/index.js";
import { joinLockstep } from "../../../sample-scene/lockstep/lockstepClient.js";
import { startLockstepServer } from "../../../sample-scene/lockstep/lockstepServer.js";
import { joinSamplePlayer, play as playFor } from "../../helpers/lockstepPlayers.js";
import { createGroundWithHeights, createNullScene } from "../../helpers/nullScene.js";

const SIZE = 33;

describe("the sample's lockstep server", () => {
    it("keeps two players identical to the host through WebSockets, and repairs one that parted", async () => {
        const world = createNullScene();
        const server = await startLockstepServer({ port: 0, size: SIZE, stepMs: 20, checksumSteps: 8, regionSize: 16, options: { patchSize: 16, water: { enabled: true, stepsPerCycle: 1, rain: 0.001 } } });
        try {
            // Their own start heights do not matter: a player takes the host's state on joining.
            const players = [await joinSamplePlayer(world.scene, server.port, SIZE, 1), await joinSamplePlayer(world.scene, server.port, SIZE, 2)];
            const play = (milliseconds: number) => playFor(world.scene, milliseconds);
            await play(300);
            players[0].erosion.edits.dig(new Vector3(-6, 0, 4), 3, 1.5);
            players[1].erosion.edits.pile(new Vector3(5, 0, -5), 3, 1);
            await play(300);
            players[1].erosion.edits.crater(new Vector3(8, 0, 8), 4, 1.2);
            // Player 0 parts: one unit off in one vertex of its state, where it stands.
            const parted = players[0].erosion;
            parted.pause();
            await parted.whenIdle();
            const patch = readRegions((await parted.history.snapshot()).state, 16, [3]);
            patch.values[5] += 1;
            await parted.lockstep.repairRegions({ stamp: parted.lockstep.stamp, patch });
            parted.start();
            await play(1500);
            server.pause();
            const horizon = server.host.horizon;
            // Until both stand at the horizon (a minute at most: a loaded host runs their frames slowly).
            await playFor(world.scene, 60000, () => players.every(({ erosion }) => erosion.lockstep.stamp.cycle === horizon.cycle && erosion.lockstep.stamp.batch === horizon.batch));
            const fingerprint = server.host.simulation.fingerprint();
            const hostAgreed = new Map(server.agreed.map(({ stamp, fingerprint: print }) => [`${stamp.cycle}:${stamp.batch}`, print]));
            for (const { erosion, lockstep } of players) {
                expect(erosion.lockstep.stamp).toEqual(horizon);
                expect(await erosion.fingerprint()).toBe(fingerprint);
                expect(lockstep.status().checks).toBeGreaterThan(0);
                // At every stamp it compared, after the repair where it parted: the host's fingerprint there.
                for (const { stamp, fingerprint: print } of lockstep.status().agreed) expect({ stamp, print }).toEqual({ stamp, print: hostAgreed.get(`${stamp.cycle}:${stamp.batch}`) });
            }
            // Region 3 parted; on a loaded host the check can come many batches after the corruption, and by then
            // the one unit has moved droplets into the regions around it too (each then repaired exactly).
            expect(players[0].lockstep.status().partedRegions).toContain(3);
            expect(players[0].lockstep.status().parted).toBeGreaterThan(0);
            console.log(`host and 2 players identical at cycle ${horizon.cycle}, batch ${horizon.batch} (${server.host.simulation.log.entries.length} entries); player 0 parted and was repaired ${players[0].lockstep.status().parted} time(s) in ${players[0].lockstep.status().checks} checks`);
            for (const { lockstep } of players) lockstep.close();
        } finally {
            await server.close();
            world.dispose();
        }
    }, 60000);

    it("joins a player whose connection dropped again by itself, without a reload, and keeps it identical to the host", async () => {
        const world = createNullScene();
        const server = await startLockstepServer({ port: 0, size: SIZE, stepMs: 20, checksumSteps: 8, regionSize: 16, options: { patchSize: 16 } });
        try {
            const { erosion, lockstep } = await joinSamplePlayer(world.scene, server.port, SIZE, 3);
            const play = (until: () => boolean) => playFor(world.scene, 30000, until);
            erosion.edits.dig(new Vector3(-4, 0, 4), 3, 1);
            await play(() => lockstep.status().entries > 0);
            expect(server.dropPlayer("player 1")).toBe(true); // the network cuts it: no close frame
            await play(() => lockstep.status().joins > 1);
            expect(lockstep.status()).toMatchObject({ reconnects: 1, joins: 2, connected: true, player: "player 2" });
            erosion.edits.pile(new Vector3(5, 0, -5), 3, 1);
            const entries = lockstep.status().entries;
            await play(() => lockstep.status().entries > entries);
            server.pause();
            const horizon = server.host.horizon;
            await play(() => erosion.lockstep.stamp.cycle === horizon.cycle && erosion.lockstep.stamp.batch === horizon.batch);
            expect(erosion.lockstep.stamp).toEqual(horizon);
            expect(await erosion.fingerprint()).toBe(server.host.simulation.fingerprint());
            expect(server.host.simulation.log.entries.map((entry) => `${entry.player}:${entry.kind}`)).toEqual(["player 1:edit", "player 2:edit"]);
            lockstep.close();
        } finally {
            await server.close();
            world.dispose();
        }
    }, 60000);

    it("refuses to join a server of another simulation contract, naming both", async () => {
        const world = createNullScene();
        // A server of another version: its join names its contract's tag.
        const other = new WebSocketServer({ port: 0 });
        other.on("connection", (socket) => socket.send(JSON.stringify({ type: "join", contract: "TEFP0", snapshot: "", log: "", horizon: { cycle: 0, batch: 0 }, nextStep: 1 })));
        await new Promise((resolve) => other.once("listening", resolve));
        (globalThis as { WebSocket?: unknown }).WebSocket = NodeWebSocket;
        try {
            const ground = createGroundWithHeights(world.scene, generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 1, relief: 5 }), SIZE, SIZE);
            const erosion = new TerrainErosion({ backend: "cpu", cpuWorkers: 1, autoStart: false });
            ground.addBehavior(erosion);
            await erosion.whenReady();
            const port = (other.address() as { port: number }).port;
            await expect(joinLockstep(`ws://127.0.0.1:${port}`, erosion, world.scene)).rejects.toThrow(`runs the simulation contract TEFP0, this page ${FINGERPRINT_TAG}: every player must run the same version`);
        } finally {
            await new Promise((resolve) => other.close(resolve));
            world.dispose();
        }
    });
});
