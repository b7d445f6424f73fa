/**
 * `terrain-erosion bake --queue redis://host:port`: the bake's coordinator on a BullMQ queue. The
 * bake's id derives from what determines its terrain (the start heights' fingerprint, the options,
 * the cell size and the tiling), so the same command run again after the coordinator stopped finds
 * the queue's state and its own checkpoint, and carries on (`queueTransport.ts`).
 */
import { createHash } from "node:crypto";
import type { ErosionMaps } from "../../core/erosionMaps.js";
import type { ErosionStateData } from "../../core/erosionState.js";
import type { ErosionOptions } from "../../core/options.js";
import type { BakeDevice } from "../bakeRun.js";
import { logicalCores } from "../../cpu/index.js";
import { BakeQueueError } from "./queueConnection.js";
import { readQueueCheckpoint } from "./queueCheckpoint.js";
import { QueueTransport } from "./queueTransport.js";
import { checkTilesPerSide, defaultTilesPerSide } from "./tileJobs.js";
import { TiledBakeDevice, tileStallSettings } from "./tiledDevice.js";

/** How a bake uses the queue. */
export interface QueueBakeSettings {
    /** The Redis URL (`redis://host:port`) the workers (`terrain-erosion worker`) take jobs from. */
    readonly url: string;
    /**
     * Tiles per side: each step is cut into up to this many squared tile jobs (1 to 64). Default: 4,
     * or more on fields over 4097 vertices a side, so a tile stays within about 1024² vertices and a
     * job well inside BullMQ's 30-second lock (a worker computes in the thread that renews it).
     */
    readonly tilesPerSide?: number;
    /** Threads the coordinator runs the river batches on (default every logical core). */
    readonly coordinatorThreads?: number;
    /** Seconds between the coordinator's checkpoints, written at a cycle's start (0: every cycle; default 60). */
    readonly checkpointSeconds?: number;
    /** A line for the user (no worker connected yet). */
    readonly onNotice?: (line: string) => void;
    /** Told of each stall of a step's jobs (no answer within the options' `stallTimeoutMs`). */
    readonly onStall?: (message: string) => void;
}

/** What the bake knows when it opens the queue. */
export interface QueueBakeContext {
    readonly startFingerprint: string;
    readonly options: Readonly<ErosionOptions>;
    readonly cellSize: number;
    readonly cycles: number;
    readonly checkpointPath: string;
}

/** The id of a bake: the same for every run of the same bake, different for any other. */
export function queueBakeId(context: QueueBakeContext, tilesPerSide: number): string {
    const what = JSON.stringify([context.startFingerprint, context.options, context.cellSize, tilesPerSide]);
    return createHash("sha256").update(what).digest("hex").slice(0, 16);
}

/** The coordinator's device, and the state it starts from (its checkpoint's when it has one past `start`). */
export async function queueBakeDevice(
    settings: QueueBakeSettings, context: QueueBakeContext, start: { state: ErosionStateData; maps: ErosionMaps | null }
): Promise<{ device: BakeDevice; state: ErosionStateData }> {
    const { width, depth } = start.state;
    const tilesPerSide = settings.tilesPerSide ?? defaultTilesPerSide(width, depth);
    try {
        checkTilesPerSide(tilesPerSide, "--tiles");
    } catch (error) {
        throw new BakeQueueError((error as Error).message);
    }
    const checkpointSeconds = settings.checkpointSeconds ?? 60;
    if (!(checkpointSeconds >= 0)) throw new BakeQueueError(`--checkpoint-every is ${checkpointSeconds}: it must be 0 seconds or more.`);
    const bakeId = queueBakeId(context, tilesPerSide);
    const saved = await readQueueCheckpoint(context.checkpointPath, bakeId);
    const from = saved && saved.state.cycle >= start.state.cycle && saved.state.cycle <= context.cycles ? saved : start;
    const transport = await QueueTransport.open({
        url: settings.url,
        bakeId,
        checkpointPath: context.checkpointPath,
        checkpointSeconds,
        options: context.options,
        cellSize: context.cellSize,
        startCycle: from.state.cycle,
        onNotice: settings.onNotice,
    });
    const device = new TiledBakeDevice(from.state, tilesPerSide, transport, {
        riverThreads: settings.coordinatorThreads ?? logicalCores(),
        ...tileStallSettings(context.options, settings.onStall),
    });
    if (from.maps) await device.writeMaps(from.maps);
    return { device, state: from.state };
}
