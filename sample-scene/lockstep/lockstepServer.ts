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
import { CpuErosionSimulation, FINGERPRINT_TAG, LockstepHost, parseInputLog, readRegions, resolveOptions, serializeInputLog, type ErosionOptionsInput, type InputStamp } from "../../plugin/index.js";
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

/** Where the players were asked to compare: the host's stamp and fingerprint there. */
export interface AgreedStamp {
    readonly stamp: InputStamp;
    readonly fingerprint: string;
}

/** Bytes one player's socket carried, WebSocket framing and the opening handshake included. */
export interface PlayerTraffic {
    /** Bytes the server sent the player. */
    readonly sent: number;
    /** Bytes the server received from the player. */
    readonly received: number;
}

/** A running server. */
export interface LockstepServer {
    readonly port: number;
    readonly host: LockstepHost;
    /** The stamps where the players compared checksums (the last 100), with the host's fingerprint there. */
    readonly agreed: readonly AgreedStamp[];
    /** Stops stepping (the players then reach the last horizon and wait there); the sockets stay open. */
    pause(): void;
    /** Steps again every `stepMs`. */
    resume(): void;
    /** Sends the checksums where the host stands now, without running a batch (a check on demand, paused or not). */
    checkNow(): void;
    /** Each connected player's traffic, measured on its socket. */
    traffic(): PlayerTraffic[];
    close(): Promise<void>;
}

/** Starts the server; resolves once it listens. */
export function startLockstepServer(options: LockstepServerOptions = {}): Promise<LockstepServer> {
    const size = options.size ?? 129;
    const regionSize = options.regionSize ?? 32;
    const host = new LockstepHost(new CpuErosionSimulation(size, size, sampleHeights(size), resolveOptions({ hydraulic: { dropletsPerBatch: Math.max(64, Math.round((1024 * size * size) / 513 ** 2)) }, ...options.options })));
    const players = new Map<WebSocket, { readonly bytesRead: number; readonly bytesWritten: number }>();
    const agreed: AgreedStamp[] = [];
    const inputs: string[] = [];
    /** States kept at the last checksum stamps, for repairs. */
    const kept: { stamp: InputStamp; state: ReturnType<CpuErosionSimulation["getState"]> }[] = [];
    let step = 0;
    const send = (socket: WebSocket, message: ServerMessage) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(message));
    const server = new WebSocketServer({ port: options.port ?? 8765 });
    server.on("connection", (socket, request) => {
        const join = host.join();
        send(socket, { type: "join", contract: FINGERPRINT_TAG, snapshot: bytesToBase64(join.snapshot), log: serializeInputLog(join.entries), horizon: join.horizon, nextStep: step + 1 });
        players.set(socket, request.socket);
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
                    send(socket, { type: "join", contract: FINGERPRINT_TAG, snapshot: bytesToBase64(again.snapshot), log: serializeInputLog(again.entries), horizon: again.horizon, nextStep: step + 1 });
                    return;
                }
                const patch = readRegions(at.state, regionSize, message.regions);
                send(socket, { type: "repair", stamp: at.stamp, size: regionSize, regions: patch.regions, water: patch.water, materials: patch.materials ?? false, values: bytesToBase64(new Uint8Array(patch.values.buffer)) });
            }
        });
    });
    /** One step: the inputs since the last stamped, `batches` run, the checksums when asked for. */
    const stepOnce = (batches: number, withChecksums: boolean) => {
        const entries = inputs.splice(0).flatMap((log) => {
            try {
                return parseInputLog(log).map(({ seq, at, stamp, ...payload }) => (void seq, void at, void stamp, host.submit(payload)));
            } catch {
                return []; // a player's bad input is dropped, not the game
            }
        });
        const horizon = host.advance(batches);
        step++;
        let checksums: { size: number; lanes: string } | undefined;
        if (withChecksums) {
            const { checksums: set } = host.checksums(regionSize);
            checksums = { size: regionSize, lanes: bytesToBase64(new Uint8Array(set.lanes.buffer)) };
            kept.push({ stamp: horizon, state: host.simulation.getState() });
            if (kept.length > 3) kept.shift();
            agreed.push({ stamp: horizon, fingerprint: host.simulation.fingerprint() });
            if (agreed.length > 100) agreed.shift();
        }
        const message: ServerMessage = { type: "step", n: step, log: serializeInputLog(entries), horizon, ...(checksums ? { checksums } : {}) };
        for (const socket of players.keys()) send(socket, message);
    };
    const every = options.checksumSteps ?? 60;
    const stepOnTimer = () => stepOnce(options.batchesPerStep ?? 4, (step + 1) % every === 0);
    let timer: ReturnType<typeof setInterval> | null = setInterval(stepOnTimer, options.stepMs ?? 50);
    const pause = () => {
        if (timer) clearInterval(timer);
        timer = null;
    };
    return new Promise((resolve, reject) => {
        server.once("error", reject);
        server.once("listening", () => {
            const address = server.address();
            resolve({
                port: typeof address === "object" && address ? address.port : (options.port ?? 8765),
                host,
                agreed,
                pause,
                resume: () => {
                    timer ??= setInterval(stepOnTimer, options.stepMs ?? 50);
                },
                checkNow: () => stepOnce(0, true),
                traffic: () => [...players.values()].map((socket) => ({ sent: socket.bytesWritten, received: socket.bytesRead })),
                close: () =>
                    new Promise<void>((done) => {
                        pause();
                        for (const socket of players.keys()) socket.terminate();
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
