/**
 * Lockstep over a bad network, simulated: a host and 4 players (the CPU reference each), every
 * message held back a seeded random number of turns, so steps and inputs arrive late and out of
 * order. The players take the steps in the host's order (`StepOrder`, sample-scene/lockstep/) and run
 * to each horizon: over 200 turns with inputs from every player, each player's fingerprint at every
 * step's horizon is the host's there.
 */
import { CpuErosionSimulation, ErosionSnapshot, heightsToFixed, resolveOptions, type InputEntry, type InputStamp } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { LockstepHost, type PlayerInput } from "../../../plugin/lockstep.js";
import { StepOrder } from "../../../sample-scene/lockstep/protocol.js";

const SIZE = 33;
const UNIT = 65536;

/** A small seeded generator (mulberry32): the same delays every run. */
function seeded(seed: number): () => number {
    return () => {
        seed = (seed + 0x6d2b79f5) | 0;
        let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

interface Step {
    readonly n: number;
    readonly entries: readonly InputEntry[];
    readonly horizon: InputStamp;
}

describe("lockstep over a network that delays and reorders", () => {
    it("keeps 4 players identical to the host at every horizon over 200 turns", () => {
        const random = seeded(20261202);
        const options = resolveOptions({ patchSize: 16, hydraulic: { dropletsPerBatch: 24 }, water: { enabled: true, stepsPerCycle: 1, rain: 0.002 } });
        const host = new LockstepHost(new CpuErosionSimulation(SIZE, SIZE, heightsToFixed(generateNoiseTerrain({ width: SIZE, depth: SIZE, seed: 4, relief: 6 })), options));
        const join = host.join();
        const players = Array.from({ length: 4 }, () => ({ simulation: CpuErosionSimulation.fromSnapshot(ErosionSnapshot.fromArrayBuffer(join.snapshot.slice().buffer)), order: new StepOrder<Step>(1), inbox: [] as { turn: number; step: Step }[] }));
        const toHost: { turn: number; player: string; input: PlayerInput }[] = [];
        const fingerprints = new Map<number, string>();
        const delay = (most: number) => 1 + Math.floor(random() * most);
        let checked = 0;
        let inputs = 0;
        const deliver = (turn: number) => {
            for (const player of players) {
                const due = player.inbox.filter((message) => message.turn <= turn).sort(() => random() - 0.5);
                player.inbox = player.inbox.filter((message) => message.turn > turn);
                for (const { step } of due) {
                    for (const ready of player.order.accept(step)) {
                        for (const entry of ready.entries) player.simulation.give(entry);
                        player.simulation.runUntil(ready.horizon);
                        expect(player.simulation.fingerprint()).toBe(fingerprints.get(ready.n));
                        checked++;
                    }
                }
            }
        };
        for (let turn = 0; turn < 200; turn++) {
            // Players dig, pile and blast now and then; their inputs reach the host late, in any order.
            for (const [index] of players.entries()) {
                if (random() < 0.08) {
                    const centre = { x: 4 + random() * (SIZE - 8), y: 4 + random() * (SIZE - 8) };
                    const kind = random();
                    const request = kind < 0.4 ? { kind: "dig" as const, depth: UNIT } : kind < 0.8 ? { kind: "pile" as const, height: UNIT } : { kind: "crater" as const, depth: UNIT };
                    toHost.push({ turn: turn + delay(4), player: `player ${index}`, input: { kind: "edit", edit: request, points: [centre], radius: 2 + random() * 2 } });
                }
            }
            const arrived = toHost.filter((message) => message.turn <= turn).sort(() => random() - 0.5);
            toHost.splice(0, toHost.length, ...toHost.filter((message) => message.turn > turn));
            const entries = arrived.flatMap(({ input, player }) => host.submit(input, player) ?? []);
            inputs += entries.length;
            const horizon = host.advance(2);
            const step: Step = { n: turn + 1, entries, horizon };
            fingerprints.set(step.n, host.simulation.fingerprint());
            for (const player of players) player.inbox.push({ turn: turn + delay(5), step });
            deliver(turn);
        }
        deliver(Infinity);
        console.log(`4 players, 200 turns, ${inputs} inputs: every player equal to the host at all ${checked / 4} horizons (host at cycle ${host.horizon.cycle}, batch ${host.horizon.batch})`);
        expect(checked).toBe(4 * 200);
        expect(inputs).toBeGreaterThan(30);
        for (const player of players) expect(player.simulation.fingerprint()).toBe(host.simulation.fingerprint());
    });
});
