/**
 * The sample as a lockstep player (`?join=ws://host:port`): it takes the server's snapshot and log
 * on joining, sends its inputs (the ground tools, the Inspector, springs) instead of applying them
 * (`forwardInputs`), gives every entry the server stamped, runs no further than the server's
 * horizon, compares the server's region checksums where it stands at theirs, and repairs the
 * regions where it parted. The networking lives here, not in the plugin.
 *
 * A connection that drops (not one the server closed on purpose) joins again by itself, with a
 * growing delay, and the player takes the host's state anew: no page reload. A check whose repair
 * never comes goes on after 30 s with a warning.
 *
 * The server's messages are handled one at a time, in the host's order: a step with checksums is
 * done only once the player has stood at its stamp, compared there and, when it parted, repaired
 * there, so no later entry (an edit stamped at the same stamp, say) reaches the state before the
 * comparison does. The frames go on meanwhile, held at the horizon.
 */
import type { Scene } from "@babylonjs/core/scene.js";
import { ErosionSnapshot, type ErosionController, type InputStamp } from "../../plugin/index.js";
import { FINGERPRINT_TAG, parseInputLog, serializePlayerInput } from "../../plugin/lockstep.js";
import { base64ToBytes, StepOrder, type ClientMessage, type ServerMessage } from "./protocol.js";

/** How long a player waits for the server's answer to parted regions before going on without it. */
const REPLY_TIMEOUT_MS = 30_000;

/** A dropped connection joins again after this, doubling each time up to `RECONNECT_MOST_MS`. */
const RECONNECT_FIRST_MS = 250;
const RECONNECT_MOST_MS = 8_000;

/** What the panel shows of the connection. */
export interface LockstepStatus {
    readonly connected: boolean;
    /** Entries given from the server. */
    readonly entries: number;
    /** Checksum comparisons made, and those that found parted regions (then repaired). */
    readonly checks: number;
    readonly parted: number;
    /** The regions the last parted comparison found (empty: none yet). */
    readonly partedRegions: readonly number[];
    /** Joins: 1, or more when the server sent its state again (a parted region too old to repair). */
    readonly joins: number;
    readonly horizon: InputStamp | null;
    /** Where this player compared (the last 100): the stamp and its own fingerprint there, after any repair. */
    readonly agreed: readonly { readonly stamp: InputStamp; readonly fingerprint: string }[];
    /** This player's name on the server (what its entries carry as `player`). */
    readonly player: string | null;
    /** The server's refusals of this player's messages, and the last one's reason. */
    readonly refusals: number;
    readonly lastRefusal: string | null;
    /** Why the connection closed (the server's reason, or the close code), null while open. */
    readonly closed: string | null;
    /** Times the player joined again after its connection dropped (without a page reload). */
    readonly reconnects: number;
}

type Reply = Extract<ServerMessage, { type: "repair" | "join" }>;

/** The panel's line: who this player is, its checks, and the server's last refusal or why it closed. */
export function lockstepLine(status: LockstepStatus): string {
    const where = `${status.player ?? "joining"}, ${status.checks} checks${status.parted > 0 ? ` (${status.parted} repaired)` : ""}`;
    if (status.closed !== null) return `${where}; disconnected: ${status.closed}`;
    return status.lastRefusal !== null ? `${where}; the server refused ${status.refusals}: ${status.lastRefusal}` : where;
}

/** Joins the server at `url`; resolves once the player stands on the host's state. */
export function joinLockstep(url: string, erosion: ErosionController, scene: Scene): Promise<{ status: () => LockstepStatus; close(): void }> {
    let socket = new WebSocket(url);
    /** True once the game closed the connection itself: a drop joins again, a close by the game does not. */
    let closedByGame = false;
    let reconnects = 0;
    let entries = 0;
    let checks = 0;
    let parted = 0;
    let partedRegions: readonly number[] = [];
    let joins = 0;
    const agreed: { stamp: InputStamp; fingerprint: string }[] = [];
    let latest: InputStamp | null = null;
    /** Steps before this one were covered by the last join. */
    let firstStep = 1;
    let order: StepOrder<Extract<ServerMessage, { type: "step" }>> | null = null;
    let queue = Promise.resolve();
    /** The answer to parted regions, while one is awaited. */
    let awaitingReply: ((reply: Reply | null) => void) | null = null;
    const send = (message: ClientMessage) => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message));
    let player: string | null = null;
    let refusals = 0;
    let lastRefusal: string | null = null;
    let closed: string | null = null;
    const status = (): LockstepStatus => ({ connected: socket.readyState === WebSocket.OPEN, entries, checks, parted, partedRegions, joins, horizon: latest, agreed, player, refusals, lastRefusal, closed, reconnects });

    /** Resolves once the frames stand at `stamp` (the horizon holds them there). */
    const arriveAt = (stamp: InputStamp) =>
        new Promise<void>((resolve) => {
            const here = () => erosion.lockstep.stamp.cycle === stamp.cycle && erosion.lockstep.stamp.batch === stamp.batch;
            if (here()) return resolve();
            const observer = scene.onAfterRenderObservable.add(() => {
                if (!here()) return;
                scene.onAfterRenderObservable.remove(observer);
                resolve();
            });
        });

    const reply = () =>
        new Promise<Reply | null>((resolve) => {
            const timer = setTimeout(() => {
                awaitingReply = null;
                resolve(null);
            }, REPLY_TIMEOUT_MS);
            awaitingReply = (message) => {
                clearTimeout(timer);
                awaitingReply = null;
                resolve(message);
            };
        });

    const join = async (message: Extract<ServerMessage, { type: "join" }>) => {
        if (message.contract !== FINGERPRINT_TAG) {
            closedByGame = true;
            socket.close();
            throw new Error(`The lockstep server at ${url} runs the simulation contract ${String(message.contract)}, this page ${FINGERPRINT_TAG}: every player must run the same version of babylon-terrain-erosion (their terrains would part).`);
        }
        const { width, depth } = erosion.maps.getFieldGridTransform();
        const history = message.history ? { start: base64ToBytes(message.history.start), entries: parseInputLog(message.history.log, { width, depth }) } : undefined;
        await erosion.history.replay(ErosionSnapshot.fromArrayBuffer(base64ToBytes(message.snapshot).slice().buffer), parseInputLog(message.log, { width, depth }), message.horizon, history);
        latest = message.horizon;
        firstStep = message.nextStep;
        erosion.lockstep.horizon = latest;
        player = message.player;
        erosion.lockstep.forwardInputs = (input) => send({ type: "input", input: serializePlayerInput(input) });
        erosion.start();
        joins++;
    };

    /** Stands at the host's checksum stamp, compares, and repairs what parted (or joins again). */
    const check = async (stamp: InputStamp, size: number, lanes: Uint32Array) => {
        erosion.lockstep.horizon = stamp;
        await arriveAt(stamp);
        await erosion.lockstep.runUntil(stamp); // the edits stamped there applied, as the host's were
        checks++;
        const { width, depth } = erosion.maps.getFieldGridTransform();
        const regions = await erosion.lockstep.checkRegions({ stamp, checksums: { size, regionsX: Math.ceil(width / size), regionsY: Math.ceil(depth / size), lanes } });
        if (regions.length > 0) {
            parted++;
            partedRegions = regions;
            const answer = reply();
            send({ type: "regions", stamp, regions });
            const message = await answer;
            if (message?.type === "repair") {
                const values = new Int32Array(base64ToBytes(message.values).buffer);
                await erosion.lockstep.repairRegions({ stamp: message.stamp, patch: { width, depth, size: message.size, regions: message.regions, water: message.water, materials: message.materials === true, values } });
            } else if (message?.type === "join") {
                await join(message); // too old to repair: the whole game again
                return;
            } else {
                console.warn(`lockstep: the server did not answer for the parted regions at cycle ${stamp.cycle}, batch ${stamp.batch} within ${REPLY_TIMEOUT_MS / 1000} s; going on without a repair.`);
            }
        }
        agreed.push({ stamp, fingerprint: await erosion.fingerprint() });
        if (agreed.length > 100) agreed.shift();
    };

    const handle = async (message: ServerMessage) => {
        if (message.type === "join") {
            await join(message);
        } else if (message.type === "step" && message.n >= firstStep) {
            const given = parseInputLog(message.log);
            await erosion.lockstep.giveAll(given); // a stroke's undos in one rewind
            entries += given.length;
            latest = message.horizon;
            if (message.checksums) await check(message.horizon, message.checksums.size, new Uint32Array(base64ToBytes(message.checksums.lanes).buffer));
            if (message.n >= firstStep) erosion.lockstep.horizon = latest; // (a join during the check covered this step)
        }
    };

    return new Promise((resolve, reject) => {
        const close = () => {
            closedByGame = true;
            socket.close(1000, "the player left");
        };
        const attach = (current: WebSocket) => {
            current.onerror = () => {
                if (joins === 0) reject(new Error(`Could not join the lockstep server at ${url}.`));
            };
            current.onopen = () => (closed = null);
            current.onclose = (event) => {
                closed = event.reason || `closed (code ${event.code})`;
                if (joins === 0) return reject(new Error(`The lockstep server at ${url} closed the connection before the join: ${closed}.`));
                awaitingReply?.(null); // a check waiting for a repair goes on without it
                // Dropped (not closed by the game, nor thrown out by the server: 1008): join again, without a reload.
                if (closedByGame || event.code === 1000 || event.code === 1008) {
                    console.warn(`lockstep: the server closed the connection: ${closed}`);
                    return;
                }
                const delay = Math.min(RECONNECT_MOST_MS, RECONNECT_FIRST_MS * 2 ** Math.min(reconnects, 6));
                console.warn(`lockstep: the connection dropped (${closed}); joining again in ${delay} ms`);
                setTimeout(() => {
                    if (closedByGame) return;
                    reconnects++;
                    socket = new WebSocket(url);
                    attach(socket);
                }, delay);
            };
            current.onmessage = (event) => {
                const received = JSON.parse(String(event.data)) as ServerMessage;
                if (received.type === "refused") {
                    // The server did not take a message of ours: the player is told why (the panel shows it).
                    refusals++;
                    lastRefusal = received.reason;
                    console.warn(`lockstep: the server refused this player's ${received.disconnect ? "last message and disconnects it" : "message"}: ${received.reason}`);
                    return;
                }
                if (awaitingReply && (received.type === "repair" || received.type === "join")) {
                    if (received.type === "join") order = new StepOrder(received.nextStep);
                    awaitingReply(received); // the check waiting for it goes on
                    return;
                }
                if (received.type === "join") order = new StepOrder(received.nextStep);
                // Steps in the host's order (a step that arrives early waits for those before it).
                const ready = received.type === "step" ? (order?.accept(received) ?? []) : [received];
                for (const message of ready) {
                    queue = queue
                        .then(() => handle(message))
                        .catch((error) => {
                            console.error("lockstep:", error);
                            if (joins === 0) reject(error);
                        });
                }
                if (received.type === "join" && joins === 0) queue = queue.then(() => resolve({ status, close }));
            };
        };
        attach(socket);
    });
}
