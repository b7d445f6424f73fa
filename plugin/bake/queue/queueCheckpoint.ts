/**
 * The coordinator's own checkpoint in a queued bake: its whole state at the start of a cycle, on the
 * coordinator's disk, written now and then so that a restarted coordinator replays only the steps
 * after it (whose outputs the queue still holds) and Redis keeps only those steps' outputs.
 * Three files (snapshot, maps, and a small JSON naming the bake and cycle) are each written beside
 * their place and renamed into it, the JSON last: a coordinator killed while writing leaves the
 * previous checkpoint, or a JSON whose cycle does not match the snapshot, which is not used.
 */
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import type { ErosionMaps } from "../../core/erosionMaps.js";
import type { ErosionStateData } from "../../core/erosionState.js";
import type { ErosionOptions } from "../../core/options.js";
import { ErosionSnapshot } from "../../core/snapshot.js";
import { bufferOf, mapsChunks, mapsFromBytes } from "../mapsFile.js";
import { writeChunks } from "../bakeOutput.js";

interface QueueCheckpointMeta {
    readonly bakeId: string;
    readonly cycle: number;
}

async function writeAtomically(path: string, bytes: Uint8Array | string | Iterable<Uint8Array>): Promise<void> {
    if (typeof bytes === "string" || bytes instanceof Uint8Array) await writeFile(`${path}.partial`, bytes);
    else await writeChunks(`${path}.partial`, bytes);
    await rename(`${path}.partial`, path);
}

/** Writes the coordinator's checkpoint of bake `bakeId` at `path` (+ `.maps`, + `.json`). */
export async function writeQueueCheckpoint(path: string, bakeId: string, state: ErosionStateData, maps: ErosionMaps, options: Readonly<ErosionOptions>, cellSize: number): Promise<void> {
    await writeAtomically(path, ErosionSnapshot.adopt(state, options, cellSize).chunks());
    await writeAtomically(`${path}.maps`, mapsChunks(maps));
    await writeAtomically(`${path}.json`, JSON.stringify({ bakeId, cycle: state.cycle } satisfies QueueCheckpointMeta) + "\n");
}

/** The checkpoint at `path` if it is bake `bakeId`'s and whole, else null. */
export async function readQueueCheckpoint(path: string, bakeId: string): Promise<{ state: ErosionStateData; maps: ErosionMaps } | null> {
    try {
        const meta = JSON.parse(await readFile(`${path}.json`, "utf8")) as QueueCheckpointMeta;
        if (meta.bakeId !== bakeId) return null;
        const { state } = ErosionSnapshot.fromArrayBuffer(bufferOf(await readFile(path)));
        const maps = mapsFromBytes(await readFile(`${path}.maps`), state.width * state.depth);
        return maps && state.cycle === meta.cycle && state.batch === 0 ? { state, maps } : null;
    } catch {
        return null; // none, or one cut short: start from the bake's own start
    }
}

/** Removes the checkpoint at `path` (the bake completed). */
export async function removeQueueCheckpoint(path: string): Promise<void> {
    for (const suffix of ["", ".maps", ".json"]) await rm(`${path}${suffix}`, { force: true });
}
