/**
 * Lockstep's traffic and catch-up (`lockstep-bytes-sent`, `lockstep-bytes-received`, bytes a player
 * a minute; `lockstep-catch-up`, cycles a second), on the sample's light terrain (129², water on):
 * two players each making a dig stroke of 20 segments (the sample's Dig tool dragged for two
 * seconds) every ten seconds, the host stepping every 50 ms (4 batches a step) and sending its
 * checksums every 3 s, as sample-scene/lockstep/ does. Bytes are the messages as the sample's
 * protocol encodes them (JSON; WebSocket framing adds 2 to 8 bytes a message); the game's time is
 * simulated (12 s, scaled to a minute). Catch-up: a player given the whole log runs from the start to
 * the host's horizon (`replayInputLog` on the CPU reference, one thread: what a player that fell
 * behind does, without the frames).
 */
import { CpuErosionSimulation, LockstepHost, replayInputLog, resolveOptions, serializeInputLog, type InputEntry } from "../../plugin/index.js";
import { shapeGroundEdit } from "../../plugin/advanced.js";
import { bytesToBase64, type ClientMessage, type ServerMessage } from "../../sample-scene/lockstep/protocol.js";
import { sampleHeights } from "../../sample-scene/lockstep/sampleTerrain.js";
import type { BenchRecord } from "./records.js";

const SIZE = 129;
const STEP_MS = 50;
const SECONDS = 12;

/** The three lockstep figures. */
export function runLockstepFigures(): BenchRecord[] {
    const options = resolveOptions({ hydraulic: { dropletsPerBatch: 64 }, water: { enabled: true } });
    const host = new LockstepHost(new CpuErosionSimulation(SIZE, SIZE, sampleHeights(SIZE), options));
    const start = host.snapshot();
    let sent = 0;
    let received = 0;
    const all: InputEntry[] = [];
    const steps = (SECONDS * 1000) / STEP_MS;
    for (let step = 1; step <= steps; step++) {
        const seconds = (step * STEP_MS) / 1000;
        const entries: InputEntry[] = [];
        for (const player of [0, 1]) {
            // A stroke: 20 segments over the first two seconds of every ten (player 1 five seconds later).
            const phase = (seconds + player * 5) % 10;
            if (phase < 2 && step % 2 === 0) {
                const x = 20 + (phase / 2) * 80;
                const y = 30 + player * 60;
                const shape = shapeGroundEdit({ kind: "dig", depth: 65536 }, [{ x, y }, { x: x + 4, y: y + 1 }], 1.6, SIZE, SIZE);
                const provisional = { kind: "edit" as const, edit: { ...shape, cycle: 0, batch: 0, id: 0 }, seq: 1, at: { cycle: 0, batch: 0 }, stamp: { cycle: 0, batch: 0 } };
                const message: ClientMessage = { type: "input", log: serializeInputLog([provisional]) };
                if (player === 0) sent += JSON.stringify(message).length;
                entries.push(host.submit(provisional));
            }
        }
        const horizon = host.advance(4);
        const checksums = step % 60 === 0 ? host.checksums(32).checksums : null;
        const message: ServerMessage = { type: "step", n: step, log: serializeInputLog(entries), horizon, ...(checksums ? { checksums: { size: 32, lanes: bytesToBase64(new Uint8Array(checksums.lanes.buffer)) } } : {}) };
        received += JSON.stringify(message).length;
        all.push(...entries);
    }
    const perMinute = 60 / SECONDS;
    const started = performance.now();
    const caught = replayInputLog(start, all, { until: host.horizon });
    const catchUpSeconds = (performance.now() - started) / 1000;
    if (caught.fingerprint() !== host.simulation.fingerprint()) throw new Error("Internal error: the catch-up replay parted from the host.");
    const cycles = host.horizon.cycle + host.horizon.batch / Math.max(1, host.simulation.schedule.batchesPerCycle);
    const detail = `the sample's light terrain (${SIZE}², water on, ${options.hydraulic.dropletsPerBatch} droplets a batch), two players each making a 20-segment dig stroke every 10 s, the host stepping every ${STEP_MS} ms (4 batches) with its checksums every 3 s; ${SECONDS} s of game (${all.length} entries, ${cycles.toFixed(1)} cycles) scaled to a minute`;
    const record = (kernel: string, unit: string, value: number, what: string): BenchRecord => ({ backend: "cpu", kernel, size: SIZE, brushRadius: null, threads: 1, unit, median: value, min: value, max: value, runs: 1, detail: `${detail}: ${what}` });
    return [
        record("lockstep-bytes-sent", "bytes/min", sent * perMinute, "bytes a player sends a minute (its inputs as the sample's protocol encodes them)"),
        record("lockstep-bytes-received", "bytes/min", received * perMinute, "bytes a player receives a minute (every player's entries, the horizon, the checksums)"),
        record("lockstep-catch-up", "cycles/s", cycles / catchUpSeconds, `cycles a second a player that fell behind runs to the host's horizon (the whole log replayed on the CPU reference, one thread, ${catchUpSeconds.toFixed(1)} s)`),
    ];
}
