/**
 * Entry point of the CPU backend's workers. Bundled into a string at build time
 * (scripts/build-worker.mjs) and started from a Blob URL, so users need no worker loader setup.
 * The same source runs the backend (its first message is the backend's "init") and the helpers of
 * its worker pool (first message the pool's "init", with a `shared` flag), in a Web Worker or in a
 * Node worker thread.
 */
import { CpuBackendCore, type CpuBackendRequest, type CpuBackendResponse } from "./cpuBackendCore.js";
import { PoolHelper } from "./pool/poolHelper.js";
import { browserSpawner } from "./pool/poolPorts.js";
import type { PoolRequest } from "./pool/poolTasks.js";
import { STATE_GRIDS, type ErosionStateData } from "../core/erosionState.js";
import { WATER_CARRIED_GRIDS } from "../core/waterModel.js";
import { MATERIAL_GRIDS } from "../core/materialGrids.js";

/** The worker's side of its channel, in a Web Worker or a Node worker thread. */
interface WorkerScope {
    postMessage(message: unknown, transfer?: Transferable[]): void;
    listen(handler: (data: unknown) => void): void;
}

function workerScope(): WorkerScope {
    const web = (globalThis as { self?: { postMessage(message: unknown, transfer?: Transferable[]): void; onmessage: ((event: MessageEvent) => void) | null } })
        .self;
    if (web) {
        return {
            postMessage: (message, transfer = []) => web.postMessage(message, transfer),
            listen: (handler) => (web.onmessage = (event) => handler(event.data)),
        };
    }
    const process = (globalThis as { process?: { getBuiltinModule(name: string): unknown } }).process;
    const { parentPort } = process!.getBuiltinModule("node:worker_threads") as {
        parentPort: { postMessage(message: unknown, transfer?: unknown[]): void; on(event: "message", handler: (data: unknown) => void): void }
    };
    return { postMessage: (message, transfer = []) => parentPort.postMessage(message, transfer), listen: (handler) => parentPort.on("message", handler) };
}

const scope = workerScope();
let role: ((data: unknown) => void) | null = null;

function backendRole(): (data: unknown) => void {
    // Helpers of this worker's pool are nested workers running the source the page sent.
    const core = new CpuBackendCore((source) => browserSpawner(source));
    return (data) => {
        void core.handle(data as CpuBackendRequest).then((response: CpuBackendResponse) => {
            const transfer: Transferable[] = [];
            if (response.type === "frame") {
                // Handed over, not copied: a whole field's rows, normals and texels are megabytes
                // that the main thread would otherwise copy as the message arrives.
                for (const array of [
                    response.rows,
                    response.normals,
                    response.texels?.maps,
                    response.texels?.area,
                    response.texels?.water,
                    response.texels?.materials,
                ]) {
                    if (array) transfer.push(array.buffer);
                }
            } else if (response.type === "state") {
                // A copy made for the reply: every grid is handed over (a checkpoint a cycle; copied,
                // its 513² grids cost the main thread 7 ms as the message arrived).
                transfer.push(...stateBuffers(response.state));
            }
            scope.postMessage(response, transfer);
        });
    };
}

/** The buffers of `state`'s grids (the state's, the water's, the materials'), each once, shared memory left out (it cannot be handed over). */
function stateBuffers(state: ErosionStateData): ArrayBuffer[] {
    const grids: Int32Array[] = STATE_GRIDS.map((name) => state[name]);
    if (state.water) grids.push(...WATER_CARRIED_GRIDS.map((name) => state.water![name]));
    if (state.materials) grids.push(...MATERIAL_GRIDS.map((name) => state.materials![name]));
    const buffers = new Set<ArrayBuffer>();
    for (const grid of grids) if (grid.buffer instanceof ArrayBuffer) buffers.add(grid.buffer);
    return [...buffers];
}

function helperRole(): (data: unknown) => void {
    const helper = new PoolHelper();
    return (data) => {
        const reply = helper.handle(data as PoolRequest);
        if (!reply) return;
        const transfer: Transferable[] = [];
        if (reply.type === "done" && reply.changes) {
            for (const changes of Object.values(reply.changes)) transfer.push(changes.index.buffer, changes.value.buffer);
        }
        scope.postMessage(reply, transfer);
    };
}

scope.listen((data) => {
    role ??= (data as { type: string; shared?: boolean }).type === "init" && "shared" in (data as object) ? helperRole() : backendRole();
    role(data);
});
