/**
 * The sample as a lockstep player (`?join=ws://host:port`): it takes the server's snapshot and log
 * on joining, sends its inputs (the ground tools, the Inspector, springs) instead of applying them
 * (`forwardInputs`), gives every entry the server stamped, runs no further than the server's
 * horizon, compares the server's region checksums where it stands at theirs, and repairs the
 * regions where it parted. The networking lives here, not in the plugin.
 */
import type { Scene } from "@babylonjs/core/scene.js";
import { ErosionSnapshot, parseInputLog, serializeInputLog, type ErosionController, type InputStamp } from "../../plugin/index.js";
import { base64ToBytes, StepOrder, type ClientMessage, type ServerMessage } from "./protocol.js";

/** What the panel shows of the connection. */
export interface LockstepStatus {
    readonly connected: boolean;
    /** Entries given from the server. */
    readonly entries: number;
    /** Checksum comparisons made, and those that found parted regions (then repaired). */
    readonly checks: number;
    readonly parted: number;
    /** Joins: 1, or more when the server sent its state again (a parted region too old to repair). */
    readonly joins: number;
    readonly horizon: InputStamp | null;
}

/** Joins the server at `url`; resolves once the player stands on the host's state. */
export function joinLockstep(url: string, erosion: ErosionController, scene: Scene): Promise<{ status: () => LockstepStatus; close(): void }> {
    const socket = new WebSocket(url);
    let entries = 0;
    let checks = 0;
    let parted = 0;
    let joins = 0;
    let latest: InputStamp | null = null;
    /** A comparison waiting for the player to stand at its stamp; horizons wait behind it. */
    let pendingCheck: { stamp: InputStamp; size: number; lanes: Uint32Array } | null = null;
    let repairing = false;
    let queue = Promise.resolve();
    let order: StepOrder<Extract<ServerMessage, { type: "step" }>> | null = null;
    const send = (message: ClientMessage) => socket.readyState === WebSocket.OPEN && socket.send(JSON.stringify(message));
    const sameStamp = (a: InputStamp, b: InputStamp) => a.cycle === b.cycle && a.batch === b.batch;
    const moveHorizon = () => {
        if (!pendingCheck && !repairing && latest) erosion.horizon = latest;
    };
    scene.onAfterRenderObservable.add(() => {
        const check = pendingCheck;
        if (!check || !sameStamp(erosion.stamp, check.stamp)) return;
        pendingCheck = null;
        queue = queue.then(async () => {
            checks++;
            const regions = await erosion.checkRegions({ stamp: check.stamp, checksums: { size: check.size, regionsX: Math.ceil(erosion.getFieldGridTransform().width / check.size), regionsY: Math.ceil(erosion.getFieldGridTransform().depth / check.size), lanes: check.lanes } });
            if (regions.length > 0) {
                parted++;
                repairing = true; // held here until the server's regions come
                send({ type: "regions", stamp: check.stamp, regions });
            }
            moveHorizon();
        });
    });
    return new Promise((resolve, reject) => {
        const handle = async (message: ServerMessage) => {
            if (message.type === "join") {
                // The first join, or again when the server could not repair a parted region.
                pendingCheck = null;
                repairing = false;
                await erosion.replay(ErosionSnapshot.fromArrayBuffer(base64ToBytes(message.snapshot).slice().buffer), parseInputLog(message.log), message.horizon);
                latest = message.horizon;
                erosion.horizon = latest;
                erosion.forwardInputs = (entry) => send({ type: "input", log: serializeInputLog([{ ...entry, seq: 1 }]) });
                erosion.start();
                joins++;
                resolve({ status: () => ({ connected: socket.readyState === WebSocket.OPEN, entries, checks, parted, joins, horizon: latest }), close: () => socket.close() });
            } else if (message.type === "step") {
                for (const entry of parseInputLog(message.log)) {
                    await erosion.give(entry);
                    entries++;
                }
                latest = message.horizon;
                if (message.checksums && !pendingCheck && !repairing) {
                    pendingCheck = { stamp: message.horizon, size: message.checksums.size, lanes: new Uint32Array(base64ToBytes(message.checksums.lanes).buffer) };
                    erosion.horizon = message.horizon; // stand exactly there to compare
                }
                moveHorizon();
            } else if (message.type === "repair") {
                const values = new Int32Array(base64ToBytes(message.values).buffer);
                const { width, depth } = erosion.getFieldGridTransform();
                await erosion.repairRegions({ stamp: message.stamp, patch: { width, depth, size: message.size, regions: message.regions, water: message.water, values } });
                repairing = false;
                moveHorizon();
            }
        };
        socket.onerror = () => reject(new Error(`Could not join the lockstep server at ${url}.`));
        socket.onmessage = (event) => {
            const received = JSON.parse(String(event.data)) as ServerMessage;
            if (received.type === "join") order = new StepOrder(received.nextStep);
            // Steps in the host's order (a step that arrives early waits for those before it).
            const ready = received.type === "step" ? (order?.accept(received) ?? []) : [received];
            for (const message of ready) queue = queue.then(() => handle(message)).catch((error) => console.error("lockstep:", error));
        };
    });
}
