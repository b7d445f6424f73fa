/**
 * The sample's lockstep server: a `LockstepHost` (the CPU reference, authoritative) behind a
 * WebSocket (`ws`). Players join (`?join=ws://host:port` on the sample), get the host's snapshot
 * and log, send their inputs, and receive every stamped entry and the horizon a few times a second;
 * every few seconds the host's region checksums too, and on request the state of the regions where
 * a player parted (from the state kept at that stamp), so the player repairs them exactly.
 *
 *   npm run lockstep-server -- [--port=8765] [--size=129] [--water] [--step-ms=50] [--batches=4]
 *                              [--checksum-steps=60] [--token=SECRET] [--print-fingerprints]
 *
 * The terrain is the sample's generated one at `--size` (the players take the host's state on
 * joining, so their own start heights do not matter; their grid must be the same size).
 *
 * It treats every player as untrusted, as a real server must: who may join is `authorize`'s
 * (default: this machine only; `--token` asks for `?token=`), a message is at most
 * `maxMessageBytes` (larger ones close the socket), a player's requests wait in a bounded queue
 * and are re-checked and shaped by the host (`LockstepHost.submit`), a regions request must name
 * regions of the field, and a player refused too often is disconnected (code 1008). Every refusal
 * reaches the player as a `refused` message with its reason; nothing a player sends makes the
 * server throw.
 */
import type { IncomingMessage } from "node:http";
import { WebSocketServer, type WebSocket } from "ws";
import { CpuErosionSimulation, resolveOptions, type ErosionOptionsInput, type InputEntry, type InputStamp } from "../../plugin/index.js";
import { LockstepHost, PlayerRefusedError, serializeInputLog, type LockstepHostOptions, type PlayerInput, type PlayerLimits } from "../../plugin/lockstep.js";
import { bytesToBase64, type ServerMessage } from "./protocol.js";
import { readClientMessage } from "./clientMessages.js";
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
    /** Per-player limits (`PlayerLimits`: rate, largest edit, message size, queued inputs, refusals before a disconnect). */
    readonly limits?: Partial<PlayerLimits>;
    /** The game's rule on what a player may ask (`LockstepHostOptions.allow`). Default: everything. */
    readonly allow?: LockstepHostOptions["allow"];
    /**
     * Who may join: true to let the connection in, or the reason to refuse it (HTTP 403). Default
     * `authorizeLocal`: players on this machine only. `authorizeToken(token)` asks for `?token=`.
     */
    readonly authorize?: (request: IncomingMessage) => true | string;
    /** Most players at once (more are refused at the door). Default 16. */
    readonly maxPlayers?: number;
    /** Called with the host's fingerprint at each checksum step (the command line's `--print-fingerprints`). */
    readonly onChecksumStep?: (stamp: InputStamp, fingerprint: string) => void;
}

/** Lets in connections from this machine (loopback) only: the default, since the sample's server has no accounts. */
export function authorizeLocal(request: IncomingMessage): true | string {
    const address = request.socket.remoteAddress ?? "";
    return address === "127.0.0.1" || address === "::1" || address === "::ffff:127.0.0.1" ? true : `players from ${address} may not join: this server takes players on its own machine only`;
}

/** Lets in connections whose URL carries `?token=<token>` (compared in full). */
export function authorizeToken(token: string): (request: IncomingMessage) => true | string {
    return (request) => (new URL(request.url ?? "/", "ws://server").searchParams.get("token") === token ? true : "a wrong or missing token");
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

/** A refusal the server made: whose, why, and whether it disconnected the player. */
export interface ServerRefusal {
    readonly player: string;
    readonly reason: string;
    readonly disconnected: boolean;
}

/** A running server. */
export interface LockstepServer {
    readonly port: number;
    readonly host: LockstepHost;
    /** The stamps where the players compared checksums (the last 100), with the host's fingerprint there. */
    readonly agreed: readonly AgreedStamp[];
    /** The last 100 refusals. */
    readonly refusals: readonly ServerRefusal[];
    /** Errors the server caught in its own handling (a bug, not a player's fault; the last 100): it never throws. */
    readonly errors: readonly string[];
    /** Stops stepping (the players then reach the last horizon and wait there); the sockets stay open. */
    pause(): void;
    /** Steps again every `stepMs`. */
    resume(): void;
    /** Sends the checksums where the host stands now, without running a batch (a check on demand, paused or not). */
    checkNow(): void;
    /** Each connected player's traffic, measured on its socket. */
    traffic(): PlayerTraffic[];
    /** The players connected now, by name. */
    playerNames(): string[];
    /** Cuts a player's connection as a network would (no close frame): for tests and tools. False if no player has that name. */
    dropPlayer(name: string): boolean;
    close(): Promise<void>;
}

/** What the server keeps of a player. */
interface Player {
    readonly name: string;
    readonly socket: IncomingMessage["socket"];
    /** Requests waiting for the next step. */
    readonly queued: PlayerInput[];
}

/** Keeps the last `most` items of a list. */
function pushBounded<T>(list: T[], item: T, most = 100): void {
    list.push(item);
    if (list.length > most) list.shift();
}

/** Starts the server; resolves once it listens. */
export function startLockstepServer(options: LockstepServerOptions = {}): Promise<LockstepServer> {
    const size = options.size ?? 129;
    const regionSize = options.regionSize ?? 32;
    const regionCount = Math.ceil(size / regionSize) ** 2;
    const simulation = new CpuErosionSimulation(size, size, sampleHeights(size), resolveOptions({ hydraulic: { dropletsPerBatch: Math.max(64, Math.round((1024 * size * size) / 513 ** 2)) }, ...options.options }));
    const host = new LockstepHost(simulation, { limits: options.limits, allow: options.allow });
    const players = new Map<WebSocket, Player>();
    const agreed: AgreedStamp[] = [];
    const refusals: ServerRefusal[] = [];
    const errors: string[] = [];
    let step = 0;
    let joined = 0;
    const authorize = options.authorize ?? authorizeLocal;
    const maxPlayers = options.maxPlayers ?? 16;
    const send = (socket: WebSocket, message: ServerMessage) => socket.readyState === socket.OPEN && socket.send(JSON.stringify(message));
    /** Never lets an error out of a handler: a bug is recorded, the game goes on. */
    const guarded =
        <A extends unknown[]>(what: string, handle: (...args: A) => void) =>
        (...args: A) => {
            try {
                handle(...args);
            } catch (error) {
                pushBounded(errors, `${what}: ${error instanceof Error ? error.message : String(error)}`);
            }
        };
    /** Tells the player why, and disconnects it when the host says it has been refused too often. */
    const refuse = (socket: WebSocket, player: Player, error: unknown) => {
        const refusal = error instanceof PlayerRefusedError ? error : host.players.refuse(player.name, error instanceof Error ? error.message : String(error));
        pushBounded(refusals, { player: player.name, reason: refusal.reason, disconnected: refusal.disconnect });
        send(socket, { type: "refused", reason: refusal.reason, ...(refusal.disconnect ? { disconnect: true } : {}) });
        if (refusal.disconnect) socket.close(1008, `refused ${refusal.refusals} times`);
    };
    const joinMessage = (player: Player): ServerMessage => {
        const join = host.join();
        const history = { start: bytesToBase64(join.history.start), log: serializeInputLog(join.history.entries) };
        return { type: "join", contract: join.contract, player: player.name, snapshot: bytesToBase64(join.snapshot), log: serializeInputLog(join.entries), history, horizon: join.horizon, nextStep: step + 1 };
    };
    const server = new WebSocketServer({
        port: options.port ?? 8765,
        maxPayload: host.players.limits.maxMessageBytes,
        verifyClient: (info, done) => {
            const verdict = players.size >= maxPlayers ? `the game is full (${maxPlayers} players)` : authorize(info.req);
            if (verdict === true) done(true);
            else done(false, 403, verdict);
        },
    });
    server.on("connection", guarded("connection", (socket: WebSocket, request: IncomingMessage) => {
        const player: Player = { name: `player ${++joined}`, socket: request.socket, queued: [] };
        players.set(socket, player);
        send(socket, joinMessage(player));
        socket.on("close", () => {
            players.delete(socket);
            host.players.forget(player.name);
        });
        socket.on("error", () => socket.terminate()); // an oversized message (1009) or a broken frame: the socket closes
        socket.on("message", guarded("message", (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
            try {
                const bytes = Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : (data as Buffer).byteLength;
                host.players.admitMessage(player.name, bytes);
                if (isBinary) throw new RangeError("a binary message: players send JSON text");
                const message = readClientMessage(String(data), regionCount);
                if (message.type === "input") {
                    host.players.admitQueued(player.name, player.queued.length);
                    player.queued.push(message.input);
                    return;
                }
                host.players.takeInput(player.name); // a repair costs the host a read: it counts like an input
                const repair = host.regions(message.regions, regionSize, message.stamp);
                if (!repair) {
                    // Too old to repair (the state there is no longer kept): the player joins again. A stamp
                    // after the oldest kept that was never announced is no honest player's: refused.
                    const oldest = host.keptStamps[0];
                    if (oldest && (message.stamp.cycle > oldest.cycle || (message.stamp.cycle === oldest.cycle && message.stamp.batch >= oldest.batch))) {
                        throw new RangeError(`no checksums were announced at cycle ${message.stamp.cycle}, batch ${message.stamp.batch}`);
                    }
                    send(socket, joinMessage(player));
                    return;
                }
                const { patch } = repair;
                send(socket, { type: "repair", stamp: repair.stamp, size: regionSize, regions: patch.regions, water: patch.water, materials: patch.materials ?? false, values: bytesToBase64(new Uint8Array(patch.values.buffer)) });
            } catch (error) {
                if (!(error instanceof RangeError)) throw error;
                refuse(socket, player, error);
            }
        }));
    }));
    /** One step: the inputs since the last stamped (each player's in the order it sent them), `batches` run, the checksums when asked for. */
    const stepOnce = guarded("step", (batches: number, withChecksums: boolean) => {
        const entries: InputEntry[] = [];
        for (const [socket, player] of players) {
            for (const input of player.queued.splice(0)) {
                try {
                    const entry = host.submit(input, player.name);
                    if (entry) entries.push(entry);
                } catch (error) {
                    if (!(error instanceof RangeError)) throw error;
                    refuse(socket, player, error);
                }
            }
        }
        const horizon = host.advance(batches);
        step++;
        let checksums: { size: number; lanes: string } | undefined;
        if (withChecksums) {
            const { checksums: set } = host.checksums(regionSize);
            checksums = { size: regionSize, lanes: bytesToBase64(new Uint8Array(set.lanes.buffer)) };
            const fingerprint = host.simulation.fingerprint();
            pushBounded(agreed, { stamp: horizon, fingerprint });
            options.onChecksumStep?.(horizon, fingerprint);
        }
        const message: ServerMessage = { type: "step", n: step, log: serializeInputLog(entries), horizon, ...(checksums ? { checksums } : {}) };
        for (const socket of players.keys()) send(socket, message);
    });
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
            server.on("error", (error) => pushBounded(errors, `server: ${error.message}`));
            const address = server.address();
            resolve({
                port: typeof address === "object" && address ? address.port : (options.port ?? 8765),
                host,
                agreed,
                refusals,
                errors,
                pause,
                resume: () => {
                    timer ??= setInterval(stepOnTimer, options.stepMs ?? 50);
                },
                checkNow: () => stepOnce(0, true),
                traffic: () => [...players.values()].map(({ socket }) => ({ sent: socket.bytesWritten, received: socket.bytesRead })),
                playerNames: () => [...players.values()].map(({ name }) => name),
                dropPlayer: (name) => {
                    const entry = [...players.entries()].find(([, player]) => player.name === name);
                    entry?.[0].terminate();
                    return entry !== undefined;
                },
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

/**
 * `npm run lockstep-server -- [--port=8765] [--size=129] [--water] [--step-ms=50] [--batches=4]
 * [--checksum-steps=60] [--token=SECRET] [--print-fingerprints]`
 */
async function main(): Promise<void> {
    const arg = (name: string) => process.argv.find((value) => value.startsWith(`--${name}=`))?.slice(name.length + 3);
    const number = (name: string, fallback: number) => {
        const value = Number(arg(name) ?? fallback);
        if (!Number.isFinite(value) || value < 0) throw new RangeError(`--${name} is ${arg(name)}: it must be a number, at least 0.`);
        return value;
    };
    const token = arg("token");
    const server = await startLockstepServer({
        port: number("port", 8765),
        size: number("size", 129),
        options: process.argv.includes("--water") ? { water: { enabled: true } } : {},
        stepMs: number("step-ms", 50),
        batchesPerStep: number("batches", 4),
        checksumSteps: Math.max(1, number("checksum-steps", 60)),
        ...(token ? { authorize: authorizeToken(token) } : {}),
        ...(process.argv.includes("--print-fingerprints") ? { onChecksumStep: (stamp: InputStamp, fingerprint: string) => console.log(`cycle ${stamp.cycle}, batch ${stamp.batch}: ${fingerprint}`) } : {}),
    });
    const query = `?size=${number("size", 129)}&join=ws://localhost:${server.port}${token ? `?token=${token}` : ""}`;
    console.log(`Lockstep server on ws://localhost:${server.port} (a ${number("size", 129)}² terrain${token ? ", players need the token" : ", players on this machine only"}). Open the sample with ${query} in two tabs.`);
}

if (process.argv[1] && /lockstepServer\.(ts|js|mjs)$/.test(process.argv[1])) {
    main().catch((error) => {
        console.error(error);
        process.exit(1);
    });
}
