/**
 * The queued bake's figures (issue 19): `terrain-erosion bake --queue` of a generated 2049² PNG, one
 * cycle at the default options, with 1 and then 2 `terrain-erosion worker` processes on this
 * machine and a Redis started here (Debian's redis-server), against the local bake on one worker in
 * the same run: time, bytes moved per step (tile inputs and outputs) and coordination ms per step
 * (a step's time beyond its busiest worker's computing). Every bake must give the local fingerprint.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateNoiseTerrain, encodeGray16Png, heightsToSamples } from "../../plugin/terrain.js";
import type { BenchRecord } from "./records.js";

interface BakeReport {
    seconds: number;
    fingerprint: string;
    peakResidentMB: number;
    queue?: { coordinationMsPerStep: number; bytesMovedPerStep: number; stepsSent: number; riverMs: number; workers: string[]; workerPeakResidentMB: number };
}

function freePort(): Promise<number> {
    return new Promise((resolve, reject) => {
        const server = createServer();
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => {
            const { port } = server.address() as { port: number };
            server.close(() => resolve(port));
        });
    });
}

function bake(cli: string, args: string[], out: string): BakeReport {
    const run = spawnSync(process.execPath, [cli, "bake", ...args, "--cycles", "1", "--out", out], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`terrain-erosion bake ${args.join(" ")} failed (${run.status}): ${run.stderr}`);
    return JSON.parse(readFileSync(out.replace(/\.png$/, ".report.json"), "utf8"));
}

/** Starts `count` worker processes on `url`; resolves once each takes jobs. */
async function startWorkers(cli: string, url: string, count: number): Promise<ChildProcess[]> {
    return Promise.all(
        Array.from({ length: count }, async () => {
            const child = spawn(process.execPath, [cli, "worker", url], { stdio: ["ignore", "ignore", "pipe"] });
            let stderr = "";
            await new Promise<void>((resolve, reject) => {
                child.stderr!.on("data", (chunk) => {
                    stderr += String(chunk);
                    if (stderr.includes("taking tile jobs")) resolve();
                });
                child.once("exit", (code) => reject(new Error(`a worker exited (${code}): ${stderr}`)));
            });
            return child;
        })
    );
}

/** The queued bake's figures at `size`², or none (with a warning) where redis-server is not installed. */
export async function runQueueBakeFigures(cli: string, size: number, workerCounts: readonly number[]): Promise<BenchRecord[]> {
    if (spawnSync("redis-server", ["--version"]).status !== 0) {
        console.warn("queued bake figures skipped: redis-server is not installed (apt-get install redis-server).");
        return [];
    }
    const dir = mkdtempSync(join(tmpdir(), "bench-queue-"));
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const redis = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    try {
        const input = join(dir, "in.png");
        writeFileSync(input, await encodeGray16Png(heightsToSamples(generateNoiseTerrain({ width: size, depth: size, relief: 100, seed: 1 })).samples, size, size));
        const local = bake(cli, [input, "--workers", "1"], join(dir, "local.png"));
        const records: BenchRecord[] = [];
        const base = { backend: "cpu", size, brushRadius: null, runs: 1 } as const;
        for (const count of workerCounts) {
            const workers = await startWorkers(cli, url, count);
            try {
                const queued = bake(cli, [input, "--queue", url], join(dir, `queued-${count}.png`));
                if (queued.fingerprint !== local.fingerprint) throw new Error(`The queued bake on ${count} workers gave ${queued.fingerprint}, the local bake ${local.fingerprint}.`);
                const q = queued.queue!;
                const detail = `terrain-erosion bake --queue of a generated ${size}² 16-bit PNG, 1 cycle at the default options, 4x4 tiles, ${count} worker process${count === 1 ? "" : "es"} and the coordinator on this machine (Redis on localhost); ${q.stepsSent} steps, rivers on the coordinator (${(q.riverMs / 1000).toFixed(1)} s)`;
                const one = (median: number) => ({ median, min: median, max: median });
                records.push({ ...base, kernel: "bake-queue", threads: count, unit: "s", ...one(queued.seconds), detail });
                records.push({ ...base, kernel: "bake-queue-vs-local", threads: count, unit: "x", ...one(local.seconds / queued.seconds), detail: `the local bake on one worker (${local.seconds.toFixed(1)} s, same run) over the queued bake on ${count} worker${count === 1 ? "" : "s"}` });
                records.push({ ...base, kernel: "bake-queue-MB-per-step", threads: count, unit: "MB", ...one(q.bytesMovedPerStep / 2 ** 20), detail: "tile inputs and outputs moved through Redis per step (mean)" });
                records.push({ ...base, kernel: "bake-queue-coordination", threads: count, unit: "ms", ...one(q.coordinationMsPerStep), detail: "per step (mean): the step's time beyond its busiest worker's computing (encoding, Redis, BullMQ, gathering)" });
                records.push({ ...base, kernel: "bake-queue-peak-memory", threads: count, unit: "MB", ...one(q.workerPeakResidentMB), detail: `the largest worker process's peak resident memory (a job runs on grids the size of its tile); the coordinator's: ${Math.round(queued.peakResidentMB)} MB (it holds the whole field and runs the rivers)` });
            } finally {
                for (const worker of workers) worker.kill("SIGKILL");
            }
        }
        return records;
    } finally {
        redis.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
    }
}
