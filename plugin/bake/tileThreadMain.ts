/**
 * Entry point of a local tiled bake's Node worker threads (`localTiles.ts`): each runs the tile jobs
 * it is sent on a `TileWorkbench`, so its memory is a few tiles' grids. Bundled into a string at
 * build time (scripts/build-worker.mjs) and started with `eval`, so the published CLI needs no
 * worker file beside it.
 */
import { TileWorkbench } from "./queue/tileWork.js";

/** A job for the thread: its input's bytes and how errors name it. */
export interface TileThreadRequest {
    readonly input: Uint8Array;
    readonly what: string;
}

/** The thread's answer: the job's output, or why it failed. */
export type TileThreadReply = { readonly output: Uint8Array } | { readonly error: string };

interface ParentPort {
    postMessage(message: TileThreadReply, transfer?: ArrayBuffer[]): void;
    on(event: "message", handler: (request: TileThreadRequest) => void): void;
}

const process = (globalThis as { process?: { getBuiltinModule(name: string): unknown } }).process;
const { parentPort } = process!.getBuiltinModule("node:worker_threads") as { parentPort: ParentPort };
// One box size's grids at a time: the bake's memory is the point of running in tiles.
const bench = new TileWorkbench(1);
parentPort.on("message", (request) => {
    let reply: TileThreadReply;
    try {
        reply = { output: bench.run(request.input, request.what) };
    } catch (error) {
        parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
        return;
    }
    parentPort.postMessage(reply, [reply.output.buffer as ArrayBuffer]);
});
