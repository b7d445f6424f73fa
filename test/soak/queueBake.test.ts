/**
 * `terrain-erosion bake --queue` on a real Redis (Debian's redis-server, started here on a free
 * port) with `terrain-erosion worker` processes, BullMQ's lock and stalled-job intervals shortened:
 * two workers bake a world of 4x4 tiles to the local fingerprint; a worker killed after writing
 * half an output changes nothing; a coordinator killed mid-bake and started again resumes from the
 * queue's state to the same fingerprint, with bedrock and soil on. The tile protocol without Redis: tileJobs.test.ts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { erodeHeightfield } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { bake } from "../../plugin/internal.js";

const CLI = ["--import", "tsx", "cli/src/cli.ts"];
const OPTIONS = { patchSize: 16, hydraulic: { dropletsPerBatch: 64 }, rivers: { stepsPerBatch: 8 } };
/** The restart's options: rock and soil too (dipping strata, soil from slope, weathering), so the checkpoint carries the soil. */
const ROCK_OPTIONS = { ...OPTIONS, materials: { enabled: true, hardness: 2, initialSoil: 0.5, initialSoilSlope: 1, weathering: 0.05, strataThickness: 1.5, strataShare: 0.5, strataDip: 0.3, strataDipDirection: 60 } };
const TILE = 32;
const SIDE = 4 * TILE + 1;

let dir: string;
let url: string;
let redisServer: ChildProcess;
let redis: Redis;
const workers: ChildProcess[] = [];
let world: string;
let optionsFile: string;
let rockOptionsFile: string;
let heights: Float32Array;

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

/** A `terrain-erosion worker` process with short lock and stalled intervals; resolves once it takes jobs. */
async function startWorker(env: Record<string, string> = {}): Promise<ChildProcess> {
    const child = spawn(process.execPath, [...CLI, "worker", url, "--lock-ms", "1000", "--stalled-ms", "500"], { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, ...env } });
    workers.push(child);
    await new Promise<void>((resolve, reject) => {
        let stderr = "";
        child.stderr!.on("data", (chunk) => {
            stderr += String(chunk);
            if (stderr.includes("taking tile jobs")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`the worker exited (${code}) before taking jobs: ${stderr}`)));
    });
    return child;
}

/** A client of the Redis on `port`, once it accepts connections (it takes some milliseconds to start). */
async function connectWhenUp(port: number): Promise<Redis> {
    for (let attempt = 0; ; attempt++) {
        const client = new Redis({ host: "127.0.0.1", port, lazyConnect: true, retryStrategy: () => null });
        client.on("error", () => undefined);
        try {
            await client.connect();
            return client;
        } catch (error) {
            client.disconnect();
            if (attempt > 100) throw new Error(`redis-server did not start on port ${port} (${(error as Error).message}); .ci/run installs Debian's redis-server.`);
            await new Promise((resolve) => setTimeout(resolve, 50));
        }
    }
}

/** What bakes left in Redis: their tile data and their step queues (the shared tile queue stays). */
async function leftKeys(): Promise<string[]> {
    return [...(await redis.keys("terrain-erosion:*")), ...(await redis.keys("bull:terrain-erosion-steps-*"))];
}

beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "queue-bake-"));
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    redisServer = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    redisServer.on("error", (error) => {
        throw new Error(`redis-server could not start (${error.message}); .ci/run installs Debian's redis-server.`);
    });
    redis = await connectWhenUp(port);
    // A world of 4x4 tiles of float32 heights, neighbours sharing their edge vertices.
    heights = generateNoiseTerrain({ width: SIDE, depth: SIDE, relief: 30, seed: 12 });
    world = join(dir, "world");
    mkdirSync(world);
    const names = Array.from({ length: 4 }, (_, r) => Array.from({ length: 4 }, (_, c) => `tile-${r}-${c}.f32`));
    for (let r = 0; r < 4; r++) {
        for (let c = 0; c < 4; c++) {
            const tile = new Float32Array((TILE + 1) * (TILE + 1));
            for (let y = 0; y <= TILE; y++) for (let x = 0; x <= TILE; x++) tile[y * (TILE + 1) + x] = heights[(r * TILE + y) * SIDE + c * TILE + x];
            writeFileSync(join(world, names[r][c]), new Uint8Array(tile.buffer));
        }
    }
    writeFileSync(join(world, "manifest.json"), JSON.stringify({ tiles: names, columns: [33, 33, 33, 33], rows: [33, 33, 33, 33] }));
    optionsFile = join(dir, "options.json");
    writeFileSync(optionsFile, JSON.stringify(OPTIONS));
    rockOptionsFile = join(dir, "rock-options.json");
    writeFileSync(rockOptionsFile, JSON.stringify(ROCK_OPTIONS));
}, 30000);

/** Kills `child` and resolves once it has exited (a child that has not keeps jest's worker from exiting). */
function killAndWait(child: ChildProcess | undefined): Promise<void> {
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGKILL");
    return exited;
}

afterAll(async () => {
    redis?.disconnect();
    await Promise.all([...workers, redisServer].map(killAndWait));
});

describe("a bake on a BullMQ queue", () => {
    it("bakes a 4x4 tile world on two worker processes to the local bake's fingerprint", async () => {
        await Promise.all([startWorker(), startWorker()]);
        const summary = await bake({ input: world, out: join(dir, "out"), cycles: 2, optionsFile, workers: 2, queue: { url, tilesPerSide: 4 } });
        expect(summary.fingerprint).toBe(erodeHeightfield(heights, SIDE, SIDE, OPTIONS, 2).fingerprint);
        const report = JSON.parse(readFileSync(join(dir, "out.report.json"), "utf8"));
        expect(report.device).toMatch(/^queue redis:\/\/127\.0\.0\.1:\d+, 4x4 tiles, rivers on the coordinator \(2 threads\)$/); // --workers: the coordinator's threads
        expect(report.queue.workers).toHaveLength(2);
        expect(report.queue.stepsSent).toBeGreaterThan(10);
        expect(report.queue.bytesMovedPerStep).toBeGreaterThan(0);
        expect(await leftKeys()).toEqual([]); // a completed bake leaves nothing in Redis
    }, 60000);

    it("gives the same terrain when a worker dies after writing half an output", async () => {
        workers.splice(1, 1)[0].kill("SIGTERM");
        const crashing = await startWorker({ TERRAIN_EROSION_WORKER_CRASH_AFTER: "0" });
        const died = new Promise<NodeJS.Signals | null>((resolve) => crashing.once("exit", (_code, signal) => resolve(signal)));
        const summary = await bake({ input: world, out: join(dir, "crash/out"), cycles: 1, optionsFile, queue: { url, tilesPerSide: 4 } });
        expect(await died).toBe("SIGKILL"); // it took a job and died mid-write
        expect(summary.fingerprint).toBe(erodeHeightfield(heights, SIDE, SIDE, OPTIONS, 1).fingerprint);
    }, 60000);

    it("resumes from the queue's state when the coordinator is killed and started again, with rock and soil", async () => {
        await startWorker();
        const out = join(dir, "restart/out");
        const args = [...CLI, "bake", world, "--cycles", "4", "--options", rockOptionsFile, "--queue", url, "--checkpoint-every", "0", "--out", `${out}`];
        const first = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
        const exited = new Promise<NodeJS.Signals | null>((resolve) => first.once("exit", (_code, signal) => resolve(signal)));
        let stderr = "";
        await new Promise<void>((resolve) =>
            first.stderr!.on("data", (chunk) => {
                stderr += String(chunk);
                if (/cycle 3,/.test(stderr)) resolve();
            })
        );
        first.kill("SIGKILL");
        expect(await exited).toBe("SIGKILL");
        expect((await leftKeys()).length).toBeGreaterThan(0); // the queue holds the bake's state
        const second = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
        let stdout = "";
        let secondStderr = "";
        second.stdout!.on("data", (chunk) => (stdout += String(chunk)));
        second.stderr!.on("data", (chunk) => (secondStderr += String(chunk)));
        const code = await new Promise((resolve) => second.once("exit", resolve));
        // Its last lines say why, should it fail.
        expect({ code, stderr: code === 0 ? "" : secondStderr.slice(-2000) }).toEqual({ code: 0, stderr: "" });
        expect(stdout).toContain(`fingerprint ${erodeHeightfield(heights, SIDE, SIDE, ROCK_OPTIONS, 4).fingerprint}`);
        const report = JSON.parse(readFileSync(`${out}.report.json`, "utf8"));
        expect(report.queue.startCycle).toBeGreaterThanOrEqual(2); // from the coordinator's checkpoint, not the input
        expect(await leftKeys()).toEqual([]);
    }, 60000);
});
