/**
 * The sample's lockstep server under attack, over real WebSockets: two honest players (NullEngine
 * behaviors, the CPU backend, water on) dig, pile, undo their own edits and ask for an edit past
 * their limit, while a third client sends well over 1,000 malformed, oversized, out-of-range,
 * replayed and out-of-order messages and edits larger than its limit, connecting again each time it
 * is thrown out. The honest players end identical to the server at every stamp they compared; the
 * hostile client is refused with a reason each time and disconnected; the server never throws and
 * its memory stays bounded; a server with a token lets in no one without it.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { WebSocket as NodeWebSocket } from "ws";
import { authorizeToken, startLockstepServer } from "../../../sample-scene/lockstep/lockstepServer.js";
import { joinSamplePlayer, play } from "../../helpers/lockstepPlayers.js";
import { createNullScene } from "../../helpers/nullScene.js";

const SIZE = 33;
const UNIT = 65536;

setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;
const heapUsed = () => {
    collect();
    return process.memoryUsage().heapUsed;
};

const input = (request: unknown) => JSON.stringify({ type: "input", input: typeof request === "string" ? request : JSON.stringify(request) });
const dig = (fields: object) => input({ kind: "edit", edit: { kind: "dig", depth: UNIT }, points: [{ x: 16, y: 16 }], radius: 3, ...fields });

/** Messages the server refuses as it reads them: not JSON, not a message, not a request, a value of the wrong type or range, regions past the field. */
const MALFORMED = [
    "not json {",
    "[1,2,3]",
    JSON.stringify({ type: 7 }),
    JSON.stringify({ type: "input" }),
    JSON.stringify({ type: "input", input: { kind: "undo" } }),
    input("{oops"),
    input({ kind: "teleport" }),
    dig({ amounts: [-1e9, -1e9] }), // heights instead of a request
    dig({ radius: "3" }),
    dig({ points: [{ x: "NaN", y: 4 }] }),
    input({ kind: "erodeAt", event: { centreX: 0, centreY: 0, radius: UNIT, droplets: 1e9, hydraulic: {} } }),
    input({ kind: "mask", name: "soil", values: { base64: "/////w==" } }),
    JSON.stringify({ type: "regions", stamp: { cycle: 0, batch: 0 }, regions: [-1, 999] }),
    JSON.stringify({ type: "regions", stamp: { cycle: -3, batch: 0.5 }, regions: [0] }),
    JSON.stringify({ type: "regions", stamp: { cycle: 0, batch: 0 }, regions: Array.from({ length: 10 }, () => 0) }),
    JSON.stringify({ type: "regions", stamp: { cycle: 0, batch: 0 }, regions: [0, 0] }),
];

/** Requests well formed but refused by the host at its next step: past the player's limits, off the field, out of range, not its own. */
const OVERREACHING = [
    dig({ radius: 1e9 }),
    dig({ radius: 40 }),
    dig({ points: Array.from({ length: 300 }, (_, i) => ({ x: i % 32, y: 3 })) }),
    dig({ points: [{ x: 1e6, y: 1e6 }] }),
    input({ kind: "edit", edit: { kind: "dig", depth: -UNIT }, points: [{ x: 4, y: 4 }], radius: 2 }),
    input({ kind: "mask", name: "rivers", values: { base64: "AAAAAAEAAAA=" } }),
    input({ kind: "addSource", tag: 1, x: 4, y: 4, radius: 1, rate: 1e12 }),
    input({ kind: "removeSource", tag: 99 }),
    input({ kind: "options", options: { backend: "gpu", undoMemoryMB: 0 } }),
    input({ kind: "options", options: { thermal: { talus: -4 } } }),
];

/**
 * The attacker's rounds, a connection each: the malformed messages (from a new place in the list
 * each time), one request replayed 60 times, 60 repairs asked for at stamps never announced, and
 * the overreaching requests (12 of them: the last refusal throws it out).
 */
function rounds(count: number): string[][] {
    const replayed = JSON.stringify({ type: "input", input: JSON.stringify({ kind: "edit", edit: { kind: "pile", height: UNIT }, points: [{ x: 8, y: 28 }], radius: 2 }) });
    return Array.from({ length: count }, (_, round) => {
        if (round % 4 === 1) return Array.from({ length: 60 }, () => replayed);
        if (round % 4 === 2) return Array.from({ length: 60 }, (_, k) => JSON.stringify({ type: "regions", stamp: { cycle: 5000 + k, batch: 3 }, regions: [1] }));
        if (round % 4 === 3) return [...OVERREACHING, ...OVERREACHING.slice(0, 2)];
        return MALFORMED.map((_, k) => MALFORMED[(k + round) % MALFORMED.length]);
    });
}

/**
 * One hostile connection: sends `messages` once it has joined, then waits for the server to throw
 * it out (or, 300 ms later, leaves); resolves with what it heard and how it was closed.
 */
function attack(port: number, messages: readonly string[]): Promise<{ sent: number; refusals: string[]; closed: { code: number; reason: string } }> {
    return new Promise((resolve, reject) => {
        const socket = new NodeWebSocket(`ws://127.0.0.1:${port}`);
        const refusals: string[] = [];
        let sent = 0;
        let quiet: ReturnType<typeof setTimeout> | null = null;
        socket.on("message", (data) => {
            const message = JSON.parse(String(data)) as { type: string; reason?: string };
            if (message.type === "refused") refusals.push(message.reason!);
            if (message.type === "join" && sent === 0) {
                for (const text of messages) {
                    socket.send(text);
                    sent++;
                }
                quiet = setTimeout(() => socket.close(1000, "done"), 300);
            }
        });
        socket.on("close", (code, reason) => {
            if (quiet) clearTimeout(quiet);
            resolve({ sent, refusals, closed: { code, reason: String(reason) } });
        });
        socket.on("error", reject);
    });
}

describe("the sample's lockstep server against a hostile client", () => {
    it("keeps honest players identical to the host while a third client sends over 1,000 bad messages; refuses and disconnects it; never throws", async () => {
        const world = createNullScene();
        const server = await startLockstepServer({ port: 0, size: SIZE, stepMs: 20, checksumSteps: 8, regionSize: 16, limits: { maxEditVertices: 1024, maxMessageBytes: 32768, maxRefusals: 12 }, options: { patchSize: 16, water: { enabled: true, stepsPerCycle: 1, rain: 0.001 } } });
        const thrown: unknown[] = [];
        const record = (error: unknown) => thrown.push(error);
        process.on("uncaughtException", record);
        process.on("unhandledRejection", record);
        try {
            const honest = [await joinSamplePlayer(world.scene, server.port, SIZE, 1), await joinSamplePlayer(world.scene, server.port, SIZE, 2)];
            const at = (horizon: { cycle: number; batch: number }) => honest.every(({ erosion }) => erosion.lockstep.stamp.cycle === horizon.cycle && erosion.lockstep.stamp.batch === horizon.batch);
            await play(world.scene, 200);
            const heapBefore = heapUsed();
            // The honest players play while the attack goes on, connection after connection.
            const attacks: Awaited<ReturnType<typeof attack>>[] = [];
            let turn = 0;
            for (const round of rounds(28)) {
                attacks.push(await attack(server.port, round));
                if (turn % 4 === 0) honest[0].erosion.edits.dig(new Vector3(-8 + (turn % 5), 0, 6), 3, 0.5);
                if (turn % 4 === 1) honest[1].erosion.edits.pile(new Vector3(7, 0, -6 + (turn % 5)), 3, 0.5);
                if (turn % 9 === 4) await honest[turn % 2].erosion.history.undo();
                turn++;
                await play(world.scene, 30);
            }
            // A message past the size limit: the socket is closed at once (1009), before the message is read.
            attacks.push(await attack(server.port, ["x".repeat(32769)]));
            // An honest player asks for an edit past its limit: refused, and told why.
            honest[1].erosion.edits.dig(new Vector3(0, 0, 0), 20, 1);
            await play(world.scene, 800);
            server.pause();
            const horizon = server.host.horizon;
            // Until both stand at the host's horizon (a minute at most: a loaded host runs their frames slowly).
            await play(world.scene, 60000, () => at(horizon));
            const heapAfter = heapUsed();

            const sent = attacks.reduce((sum, { sent: count }) => sum + count, 0);
            const heard = attacks.flatMap(({ refusals }) => refusals);
            console.log(`${sent} hostile messages over ${attacks.length} connections: ${heard.length} refusals heard, closed with ${[...new Set(attacks.map(({ closed }) => closed.code))].join(", ")}; heap ${(heapBefore / 2 ** 20).toFixed(1)} -> ${(heapAfter / 2 ** 20).toFixed(1)} MiB; the host at cycle ${horizon.cycle}, batch ${horizon.batch} with ${server.host.simulation.log.entries.length} entries`);
            expect(sent).toBeGreaterThanOrEqual(1000);
            // Thrown out every time: after 12 refusals (1008, with the reason), or at once for an oversized message (1009).
            for (const { closed, refusals } of attacks.slice(0, -1)) expect([closed.code, closed.reason, refusals.length]).toEqual([1008, "refused 12 times", 12]);
            expect(attacks.at(-1)!.closed.code).toBe(1009);
            const reasons = ["not JSON", "not an object", 'unknown field "amounts"', "must be a finite number", "would cover", "path has 300 points", "misses the ground", "droplets", "the rivers mask has 2 values", "Q16 mask values", "rate is", "no spring tagged 99", "runtime settings", "thermal.talus", "regions are whole numbers", "not { cycle, batch }", "must name 1 to 9", "names a region twice", "already wait for the next step", "no checksums were announced", 'its kind is "teleport"'];
            expect(reasons.filter((reason) => !heard.some((text) => text.includes(reason)))).toEqual([]);
            expect(server.refusals.length).toBeLessThanOrEqual(100);
            // The honest players: identical to the host where it stands and at every stamp they compared.
            const fingerprint = server.host.simulation.fingerprint();
            const hostAgreed = new Map(server.agreed.map(({ stamp, fingerprint: print }) => [`${stamp.cycle}:${stamp.batch}`, print]));
            for (const { erosion, lockstep } of honest) {
                expect(erosion.lockstep.stamp).toEqual(horizon);
                expect(await erosion.fingerprint()).toBe(fingerprint);
                expect(lockstep.status().checks).toBeGreaterThan(0);
                for (const { stamp, fingerprint: print } of lockstep.status().agreed) expect({ stamp, print }).toEqual({ stamp, print: hostAgreed.get(`${stamp.cycle}:${stamp.batch}`) });
                expect(lockstep.status().closed).toBeNull();
            }
            expect(honest[1].lockstep.status().lastRefusal).toMatch(/would cover \d+ vertices: at most 1024/);
            const kinds = server.host.simulation.log.entries.map((entry) => `${entry.player}:${entry.kind}`);
            expect(kinds).toContain("player 1:undo");
            expect(server.playerNames()).toEqual(["player 1", "player 2"]);
            expect(server.errors).toEqual([]);
            expect(thrown).toEqual([]);
            // Bounded: what the attack left behind is the host's log of what it accepted, not its traffic.
            expect(heapAfter - heapBefore).toBeLessThan(48 * 2 ** 20);
            for (const { lockstep } of honest) lockstep.close();
        } finally {
            process.off("uncaughtException", record);
            process.off("unhandledRejection", record);
            await server.close();
            world.dispose();
        }
    }, 120000);

    it("lets no one in without the token, when it asks for one", async () => {
        const server = await startLockstepServer({ port: 0, size: 17, authorize: authorizeToken("s3cret") });
        try {
            const status = (query: string) =>
                new Promise<number>((resolve) => {
                    const socket = new NodeWebSocket(`ws://127.0.0.1:${server.port}/${query}`);
                    socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
                    socket.on("message", () => {
                        socket.close();
                        resolve(101);
                    });
                    socket.on("error", () => undefined);
                });
            expect(await status("")).toBe(403);
            expect(await status("?token=guess")).toBe(403);
            expect(await status("?token=s3cret")).toBe(101);
        } finally {
            await server.close();
        }
    });
});
