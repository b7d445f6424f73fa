/**
 * Entry point of the CPU backend's Web Worker. Bundled into a string at build time
 * (scripts/build-worker.mjs) and started from a Blob URL, so users need no worker loader setup.
 */
import { CpuBackendCore, type CpuBackendRequest, type CpuBackendResponse } from "./cpuBackendCore.js";

const core = new CpuBackendCore();
const scope = self as unknown as { onmessage: ((event: MessageEvent<CpuBackendRequest>) => void) | null; postMessage(message: CpuBackendResponse, transfer?: Transferable[]): void };

scope.onmessage = (event) => {
    const response = core.handle(event.data);
    const transfer: Transferable[] = [];
    if (response.type === "frame" && response.rows) {
        transfer.push(response.rows.buffer);
    } else if (response.type === "state") {
        transfer.push(response.state.heights.buffer, response.state.suspended.buffer);
    }
    scope.postMessage(response, transfer);
};
