/**
 * The sample's lockstep server: a `LockstepHost` (the CPU reference, authoritative) behind a
 * WebSocket (`ws`). Players join (`?join=ws://host:port` on the sample), get the host's snapshot
 * and log, send their inputs, and receive every stamped entry and the horizon a few times a second;
 * every few seconds the host's region checksums too, and on request the state of the regions where
 * a player parted (from the state kept at that stamp), so the player repairs them exactly.
 *
 *   npm run lockstep-server -- [--port=8765] [--size=129] [--water]
 *
 * The terrain is the sample's generated one at `--size` (the players take the host's state on
 * joining, so their own start heights do not matter; their grid must be the same size).
 */
import { WebSocketServer, type WebSocket } from "ws";
import { CpuErosionSimulation, LockstepHost, parseInputLog, readRegions, resolveOptions, serializeInputLog, type ErosionOptionsInput, type InputStamp } from "../../plugin/index.js";
import { bytesToBase64, type ClientMessage, type ServerMessage } from "./protocol.js";
import { sampleHeights } from "./sampleTerrain.js";

/** How the server runs. */
export interface LockstepServerOptions {
    /** Port to listen on (0: any free one). Default 8765. */
    readonly port?: number;
    /** The generated terrain's side, vertices (the sample's `?size`). Default 129. */
    readonly size?: number;
    /** Simulation options over the sample's (water on, for instance). */
    readonly options?: ErosionOptionsInput;
    /** Batches the host runs a step. Default 4. */
    readonly batchesPerStep?: number;
    /** Milliseconds between steps. Default 50. */
    readonly stepMs?: number;
    /** Steps between two checksum broadcasts. Default 60 (3 s at 50 ms). */
    readonly checksumSteps?: number;
    /** Region side of the checksums, vertices. Default 32. */
    readonly regionSize?: number;
}

/** A running server. */
export interface LockstepServer {
    readonly port: number;
    readonly host: LockstepHost;
    /** Stops stepping (the players then reach the last horizon and wait there); the sockets stay open. */
    pause(): void;
    close(): Promise<void>;
}

/** Starts the server; resolves once it listens. */
export function startLockstepServer(options: LockstepServerOptions = {}): Promise<LockstepServer> {
    const size = options.size ?? 129;
    const regionSize = options.regionSize ?? 32;
    const host = new LockstepHost(new CpuErosionSimulation(size, size, sampleHeights(size), resolveOptions({ hydraulic: { dropletsPerBatch: Math.max(64, Math.round((1024 * size * size) / 513 ** 2)) }, ...options.options })));
    const players = new Set<WebSocket>();
    const inputs: string[] = [];
    /** States kept at the last checksum stamps, for repairs. */
    const kept: { stamp: InputStamp; state: ReturnType<CpuErosionSimulation["getState"]> }[] = [];
    let step = 0;
    const send = (socket: WebSocket, message: ServerMessage) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(message));
    const server = new WebSocketServer({ port: options.port ?? 8765 });
    server.on("connection", (socket) => {
        const join = host.join();
        send(socket, { type: "join", snapshot: bytesToBase64(join.snapshot), log: serializeInputLog(join.entries), horizon: join.horizon, nextStep: step + 1 });
        players.add(socket);
        socket.on("close", () => players.delete(socket));
        socket.on("message", (data) => {
            let message: ClientMessage;
            try {
                message = JSON.parse(String(data)) as ClientMessage;
            } catch {
                return; // not ours
            }
            if (message.type === "input") {
                inputs.push(message.log);
            } else if (message.type === "regions") {
                const at = kept.find((entry) => entry.stamp.cycle === message.stamp.cycle && entry.stamp.batch === message.stamp.batch);
                if (!at) {
                    // Too old to repair (the state there is no longer kept): the player joins again.
                    const again = host.join();
                    send(socket, { type: "join", snapshot: bytesToBase64(again.snapshot), log: serializeInputLog(again.entries), horizon: again.horizon, nextStep: step + 1 });
                    return;
                }
                const patch = readRegions(at.state, regionSize, message.regions);
                send(socket, { type: "repair", stamp: at.stamp, size: regionSize, regions: patch.regions, water: patch.water, values: bytesToBase64(new Uint8Array(patch.values.buffer)) });
            }
        });
    });
    const timer = setInterval(() => {
        const entries = inputs.splice(0).flatMap((log) => {
            try {
                return parseInputLog(log).map(({ seq, at, stamp, ...payload }) => (void seq, void at, void stamp, host.submit(payload)));
            } catch {
                return []; // a player's bad input is dropped, not the game
            }
        });
        const horizon = host.advance(options.batchesPerStep ?? 4);
        step++;
        let checksums: { size: number; lanes: string } | undefined;
        if (step % (options.checksumSteps ?? 60) === 0) {
            const { checksums: set } = host.checksums(regionSize);
            checksums = { size: regionSize, lanes: bytesToBase64(new Uint8Array(set.lanes.buffer)) };
            kept.push({ stamp: horizon, state: host.simulation.getState() });
            if (kept.length > 3) kept.shift();
        }
        const message: ServerMessage = { type: "step", n: step, log: serializeInputLog(entries), horizon, ...(checksums ? { checksums } : {}) };
        for (const socket of players) send(socket, message);
    }, options.stepMs ?? 50);
    return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.once("listening", () => {
            const address = server.address();
            resolve({
                port: typeof address === "object" && address ? address.port : (options.port ?? 8765),
                host,
                pause: () => clearInterval(timer),
                close: () =>
                    new Promise<void>((done) => {
                        clearInterval(timer);
                        for (const socket of players) socket.terminate();
                        server.close(() => done());
                    }),
            });
        });
    });
}

/** `npm run lockstep-server -- --port=8765 --size=129 --water` */
async function main(): Promise<void> {
    const arg = (name: string) => process.argv.find((value) => value.startsWith(`--${name}=`))?.slice(name.length + 3);
    const server = await startLockstepServer({ port: Number(arg("port") ?? 8765), size: Number(arg("size") ?? 129), options: process.argv.includes("--water") ? { water: { enabled: true } } : {} });
    console.log(`Lockstep server on ws://localhost:${server.port} (a ${arg("size") ?? 129}² terrain). Open the sample with ?size=${arg("size") ?? 129}&join=ws://localhost:${server.port} in two tabs.`);
}

if (process.argv[1] && /lockstepServer\.(ts|js|mjs)$/.test(process.argv[1])) {
    main().catch((error) => {
        console.error(error);
        process.exit(1);
    });
}
