/**
 * Lockstep's traffic and catch-up (`lockstep-bytes-sent`, `lockstep-bytes-received`, bytes a player
 * a minute; `lockstep-catch-up`, cycles a second), measured on the sample's own server and client
 * (sample-scene/lockstep/) over real WebSockets on a loopback port: the server as the README starts
 * it (the sample's light terrain, 129², water on: a step every 50 ms, checksums every 3 s) and two
 * players on the component's CPU backend (NullEngine, one worker each, a 16 ms frame budget, a
 * frame every 16 ms), each dragging the sample's Dig tool for two seconds every ten (a dig, then
 * `along` segments half the tool's width apart, as groundTools.ts makes them; the players five
 * seconds apart). Bytes are those each player's socket carried after its join (frames, framing and
 * all: the server's `traffic()`), over 20 s scaled to a minute. Catch-up: one player stops drawing
 * for 10 s while the server steps on, then the server stops and the player draws again: the cycles
 * it was behind over the seconds it takes to stand at the horizon again; then the same with the
 * sample's map refit running on that player (`lockstep-catch-up-refit`), and the ratio of the two;
 * rounds of the two taken in turn, each figure their median.
 */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import { WebSocket as NodeWebSocket } from "ws";
import { fixedToHeights, TerrainErosion, type InputStamp } from "../../plugin/index.js";
import { joinLockstep } from "../../sample-scene/lockstep/lockstepClient.js";
import { startLockstepServer } from "../../sample-scene/lockstep/lockstepServer.js";
import { sampleHeights } from "../../sample-scene/lockstep/sampleTerrain.js";
import { keepScalesFitted } from "../../sample-scene/mapsView.js";
import type { BenchRecord } from "./records.js";

const SIZE = 129;
const PLAY_SECONDS = 20;
const BEHIND_SECONDS = 10;
const FRAME_MS = 16;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sample's refit interval, ms. */
const REFIT_MS = 2000;

/** Whether a lockstep player stands behind its horizon (the sample's rule for skipping a refit). */
const isBehind = (erosion: TerrainErosion) => erosion.lockstep.horizon !== null && (erosion.lockstep.stamp.cycle !== erosion.lockstep.horizon.cycle || erosion.lockstep.stamp.batch !== erosion.lockstep.horizon.batch);

/** Catch-up rounds of each kind (with and without the refit), taken in turn. */
const CATCH_UP_ROUNDS = 3;

/** One catch-up: the cycles the player stood behind, the seconds it took to reach the horizon, the horizon. */
interface CatchUp {
    readonly gap: number;
    readonly seconds: number;
    readonly horizon: InputStamp;
}

const rate = (round: CatchUp) => round.gap / round.seconds;

/** The round of median rate (the middle one of an odd count). */
function medianRound(rounds: readonly CatchUp[]): CatchUp {
    return [...rounds].sort((a, b) => rate(a) - rate(b))[Math.floor(rounds.length / 2)];
}

/** What the sample's refit asks of the material plugin, without a material: a readback of the maps. */
function readingPlugin(erosion: TerrainErosion): Parameters<typeof keepScalesFitted>[0] {
    return { whenReady: Promise.resolve(), fitScales: async () => void (await erosion.maps.readMaps()) } as unknown as Parameters<typeof keepScalesFitted>[0];
}

/** A player: its own engine and scene, a ground of the sample's size, a behavior joined to the server. */
async function joinPlayer(url: string) {
    const engine = new NullEngine();
    const scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 80, -120), scene);
    const ground = CreateGround("ground", { width: SIZE - 1, height: SIZE - 1, subdivisions: SIZE - 1, updatable: true }, scene);
    const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
    fixedToHeights(sampleHeights(SIZE)).forEach((height, i) => (positions[i * 3 + 1] = height));
    ground.updateVerticesData(VertexBuffer.PositionKind, positions);
    const erosion = new TerrainErosion({ backend: "cpu", cpuWorkers: 1, frameBudgetMs: FRAME_MS, autoStart: false });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    const lockstep = await joinLockstep(url, erosion, scene);
    let drawing: ReturnType<typeof setInterval> | null = null;
    const draw = (on: boolean) => {
        if (drawing) clearInterval(drawing);
        drawing = on ? setInterval(() => scene.render(), FRAME_MS) : null;
    };
    draw(true);
    return { erosion, lockstep, draw, dispose: () => (draw(false), lockstep.close(), scene.dispose(), engine.dispose()) };
}

/** The three lockstep figures. */
export async function runLockstepFigures(): Promise<BenchRecord[]> {
    (globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;
    const server = await startLockstepServer({ port: 0, size: SIZE, options: { water: { enabled: true } } });
    const players: Awaited<ReturnType<typeof joinPlayer>>[] = [];
    try {
        for (let k = 0; k < 2; k++) players.push(await joinPlayer(`ws://127.0.0.1:${server.port}`));
        const width = SIZE / 40; // the sample's tool width and depth at this size (groundTools.ts)
        const depth = Math.max((90 * SIZE) / 513 / 20, SIZE / 400);
        const baseline = server.traffic();
        const startStep = server.host.simulation.schedule.batch + server.host.simulation.schedule.cycle * server.host.simulation.schedule.batchesPerCycle;
        const started = performance.now();
        let edits = 0;
        for (let seconds = 0; seconds < PLAY_SECONDS; seconds = (performance.now() - started) / 1000) {
            for (const [index, { erosion }] of players.entries()) {
                const phase = (seconds + index * 5) % 10;
                if (phase >= 2) continue;
                // The pointer goes across the terrain over two seconds; a segment each half width.
                const x = -SIZE / 3 + (phase / 2) * (SIZE * 0.6);
                const z = -SIZE / 4 + index * (SIZE / 2);
                if (phase < 0.05) erosion.edits.dig(new Vector3(x, 0, z), width / 2, depth);
                else erosion.edits.along([new Vector3(x - width / 2, 0, z), new Vector3(x, 0, z)], width, { dig: depth });
                edits++;
            }
            // Segments as far apart as the sample makes them at this pace (~0.1 s a half width).
            await sleep(100);
        }
        const seconds = (performance.now() - started) / 1000;
        const traffic = server.traffic().map((now, k) => ({ sent: now.received - baseline[k].received, received: now.sent - baseline[k].sent }));
        const schedule = server.host.simulation.schedule;
        const batchesRun = schedule.batch + schedule.cycle * schedule.batchesPerCycle - startStep;

        // Catch-up: player 1 stops drawing while the server steps on; then again with the sample's
        // map refit running on it (sample-scene/mapsView.ts: a readback of the maps every 2 s, skipped
        // while the player is behind its horizon), whose readback held a slow page's frames before.
        const cycles = (stamp: InputStamp) => stamp.cycle + stamp.batch / Math.max(1, schedule.batchesPerCycle);
        const behind = players[1];
        const catchUp = async (refit: boolean): Promise<CatchUp> => {
            behind.draw(false);
            server.resume();
            await sleep(BEHIND_SECONDS * 1000);
            server.pause();
            await sleep(200); // the last steps reach the player
            const horizon = server.host.horizon;
            const gap = cycles(horizon) - cycles(behind.erosion.lockstep.stamp);
            const stopRefit = refit ? keepScalesFitted(readingPlugin(behind.erosion), REFIT_MS, () => isBehind(behind.erosion)) : () => undefined;
            const catchUpStarted = performance.now();
            behind.draw(true);
            while (behind.erosion.lockstep.stamp.cycle !== horizon.cycle || behind.erosion.lockstep.stamp.batch !== horizon.batch) {
                if (performance.now() - catchUpStarted > 300_000) throw new Error(`Internal error: the player that fell behind did not catch up in 300 s (at ${JSON.stringify(behind.erosion.lockstep.stamp)}, the horizon ${JSON.stringify(horizon)}).`);
                await sleep(5);
            }
            stopRefit();
            return { gap, seconds: (performance.now() - catchUpStarted) / 1000, horizon };
        };
        // A catch-up takes under a second at this size, so one of each differed by 20% from noise
        // alone: rounds alternate, and each figure is the median of its rounds' rates.
        const plainRounds: CatchUp[] = [];
        const refitRounds: CatchUp[] = [];
        for (let round = 0; round < CATCH_UP_ROUNDS; round++) {
            plainRounds.push(await catchUp(false));
            refitRounds.push(await catchUp(true));
        }
        const plain = medianRound(plainRounds);
        const withRefit = medianRound(refitRounds);
        const horizon = refitRounds[refitRounds.length - 1].horizon;
        for (const { erosion } of players) {
            while (erosion.lockstep.stamp.cycle !== horizon.cycle || erosion.lockstep.stamp.batch !== horizon.batch) await sleep(5);
            await erosion.whenIdle();
            if ((await erosion.fingerprint()) !== server.host.simulation.fingerprint()) throw new Error("Internal error: a lockstep player parted from the host.");
        }

        const perMinute = 60 / seconds;
        const stepsRate = batchesRun / 4 / seconds;
        const detail = `the sample's server and client over loopback WebSockets: the light terrain (${SIZE}², water on), two players on the CPU backend (NullEngine, a ${FRAME_MS} ms budget) dragging the Dig tool two seconds in ten (${edits} edits in ${seconds.toFixed(0)} s), the host stepping ${stepsRate.toFixed(1)} times a second (4 batches a step, 20 asked for) with its checksums every 60 steps`;
        const record = (kernel: string, unit: string, value: number, what: string): BenchRecord => ({ backend: "cpu", kernel, size: SIZE, brushRadius: null, threads: 1, unit, median: value, min: value, max: value, runs: 1, detail: `${detail}: ${what}` });
        const rounds = (kernel: string, taken: readonly CatchUp[], what: string): BenchRecord => {
            const rates = taken.map(rate);
            return { ...record(kernel, "cycles/s", rate(medianRound(taken)), what), min: Math.min(...rates), max: Math.max(...rates), runs: rates.length };
        };
        const mean = (pick: (t: { sent: number; received: number }) => number) => traffic.reduce((sum, t) => sum + pick(t), 0) / traffic.length;
        return [
            record("lockstep-bytes-sent", "bytes/min", mean((t) => t.sent) * perMinute, `bytes a player's socket sent a minute (its inputs, framing included; mean of the two players)`),
            record("lockstep-bytes-received", "bytes/min", mean((t) => t.received) * perMinute, `bytes a player's socket received a minute (every player's entries, the horizons, the checksums, framing included; mean of the two)`),
            rounds("lockstep-catch-up", plainRounds, `cycles a second a player that stopped drawing for ${BEHIND_SECONDS} s runs back to the host's horizon at its frame budget (median of ${CATCH_UP_ROUNDS} rounds; ${plain.gap.toFixed(2)} cycles behind, ${plain.seconds.toFixed(1)} s in the median one)`),
            rounds("lockstep-catch-up-refit", refitRounds, `the same with the sample's map refit on (a maps readback every ${REFIT_MS / 1000} s, skipped while behind the horizon; ${withRefit.gap.toFixed(2)} cycles behind, ${withRefit.seconds.toFixed(1)} s in the median one)`),
            record("ratio-catch-up-refit-vs-none", "x", rate(withRefit) / rate(plain), `the median catch-up with the sample's map refit on over the median without it, ${CATCH_UP_ROUNDS} rounds of each taken in turn (issue 62: equal within 20%)`),
        ];
    } finally {
        for (const player of players) player.dispose();
        await server.close();
    }
}
