/**
 * The coordinator's own checkpoint in a queued bake: its whole state at the start of a cycle, on the
 * coordinator's disk, written now and then so that a restarted coordinator replays only the steps
 * after it (whose outputs the queue still holds) and Redis keeps only those steps' outputs.
 *
 * One file, written beside its place and renamed into it: the snapshot, the maps, then a small JSON
 * (the bake, the cycle and the two parts' lengths) and the JSON's length as 4 bytes. A coordinator
 * killed while writing leaves the previous checkpoint whole. (Three files renamed one by one could
 * leave a new snapshot beside the previous cycle's JSON: not used, so the restart began at the
 * bake's start, whose steps' outputs the previous checkpoint had already deleted from Redis.)
 */
import { readFile, rename, rm } from "node:fs/promises";
import type { ErosionMaps } from "../../core/erosionMaps.js";
import type { ErosionStateData } from "../../core/erosionState.js";
import type { ErosionOptions } from "../../core/options.js";
import { ErosionSnapshot } from "../../core/snapshot.js";
import { bufferOf, mapsChunks, mapsFromBytes } from "../mapsFile.js";
import { writeChunks } from "../bakeOutput.js";

interface QueueCheckpointMeta {
    readonly bakeId: string;
    readonly cycle: number;
    readonly snapshotBytes: number;
    readonly mapsBytes: number;
}

/** Bytes of the trailer that gives the JSON's length. */
const TRAILER_BYTES = 4;

/** Writes the coordinator's checkpoint of bake `bakeId` at `path`. */
export async function writeQueueCheckpoint(
    path: string, bakeId: string, state: ErosionStateData, maps: ErosionMaps, options: Readonly<ErosionOptions>, cellSize: number
): Promise<void> {
    const lengths: number[] = [];
    function* counted(chunks: Iterable<Uint8Array>): Iterable<Uint8Array> {
        let bytes = 0;
        for (const chunk of chunks) {
            bytes += chunk.byteLength;
            yield chunk;
        }
        lengths.push(bytes);
    }
    function* file(): Iterable<Uint8Array> {
        yield* counted(ErosionSnapshot.adopt(state, options, cellSize).chunks());
        yield* counted(mapsChunks(maps));
        const json = new TextEncoder().encode(
            JSON.stringify({ bakeId, cycle: state.cycle, snapshotBytes: lengths[0], mapsBytes: lengths[1] } satisfies QueueCheckpointMeta)
        );
        const trailer = new Uint8Array(TRAILER_BYTES);
        new DataView(trailer.buffer).setUint32(0, json.byteLength, true);
        yield json;
        yield trailer;
    }
    await writeChunks(`${path}.partial`, file());
    await rename(`${path}.partial`, path);
}

/** The checkpoint at `path` if it is bake `bakeId`'s and whole, else null. */
export async function readQueueCheckpoint(path: string, bakeId: string): Promise<{ state: ErosionStateData; maps: ErosionMaps } | null> {
    try {
        const bytes = await readFile(path);
        const jsonBytes = bytes.readUInt32LE(bytes.byteLength - TRAILER_BYTES);
        const jsonStart = bytes.byteLength - TRAILER_BYTES - jsonBytes;
        const meta = JSON.parse(bytes.subarray(jsonStart, jsonStart + jsonBytes).toString("utf8")) as QueueCheckpointMeta;
        if (meta.bakeId !== bakeId || meta.snapshotBytes + meta.mapsBytes !== jsonStart) return null;
        const { state } = ErosionSnapshot.fromArrayBuffer(bufferOf(bytes.subarray(0, meta.snapshotBytes)));
        const maps = mapsFromBytes(bytes.subarray(meta.snapshotBytes, jsonStart), state.width * state.depth);
        return maps && state.cycle === meta.cycle && state.batch === 0 ? { state, maps } : null;
    } catch {
        return null; // none, or not a checkpoint: start from the bake's own start
    }
}

/** Removes the checkpoint at `path` (the bake completed). */
export async function removeQueueCheckpoint(path: string): Promise<void> {
    for (const suffix of ["", ".partial"]) await rm(`${path}${suffix}`, { force: true });
}
