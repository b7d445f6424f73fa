/**
 * The CPU backend's channel to its Web Worker. Requests are posted in a task of their own after
 * the one that made them, in order: a request made in a rendered frame (the next batches) then
 * reaches the worker after the frame is done. Posting to an idle worker wakes it, and on a machine
 * with few cores the woken worker takes the posting thread's core for its time slice: measured on
 * two cores (SwiftShader's WebGL2, 513², a 4 ms budget), posting a droplet batch inside the frame
 * took 2-7.6 ms where planning it took 0.05 ms, and the frames' longest main-thread time fell from
 * 6.4-8.6 ms to 3.6-5.8 ms (five runs of six; one had a 12.9 ms frame) once the post left the frame.
 */
import type { CpuBackendRequest, CpuBackendResponse } from "./cpuBackendCore.js";

/** Sends requests to a `CpuBackendCore`, here or in a worker. */
export interface CpuChannel {
    /**
     * Sends `message`; resolves with the core's answer. `posted` gets the main-thread milliseconds
     * the post took (a worker channel's; 0 in the calling thread).
     */
    request(message: CpuBackendRequest, transfer?: Transferable[], posted?: (ms: number) => void): Promise<CpuBackendResponse>;
    close(): void;
}

/** A request waiting for the task that posts it. */
interface Outgoing {
    readonly message: CpuBackendRequest;
    readonly transfer: Transferable[];
    readonly posted?: (ms: number) => void;
}

/**
 * Runs `task` in a task of its own, soon: a message to itself (unlike `setTimeout`, not clamped,
 * nor throttled to a second in a hidden tab, where the worker still answers reads and bakes).
 */
function afterThisTask(): (task: () => void) => void {
    if (typeof MessageChannel === "undefined") return (task) => setTimeout(task, 0);
    const channel = new MessageChannel();
    const queued: (() => void)[] = [];
    channel.port1.onmessage = () => queued.shift()?.();
    return (task) => {
        queued.push(task);
        channel.port2.postMessage(null);
    };
}

/** A channel to a Web Worker running `source`, or null where the platform has none or refuses a blob worker. */
export function workerChannel(source: string): CpuChannel | null {
    if (typeof Worker === "undefined" || typeof Blob === "undefined" || typeof URL === "undefined" || typeof URL.createObjectURL !== "function") {
        return null;
    }
    let worker: Worker;
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    try {
        worker = new Worker(url);
    } catch {
        URL.revokeObjectURL(url);
        return null; // a content security policy without blob: workers, for example
    }
    URL.revokeObjectURL(url);
    const pending: ((response: CpuBackendResponse) => void)[] = [];
    const outbox: Outgoing[] = [];
    const schedule = afterThisTask();
    let closed = false;
    const postAll = () => {
        for (const { message, transfer, posted } of outbox.splice(0)) {
            if (closed) return;
            const started = performance.now();
            worker.postMessage(message, transfer);
            posted?.(performance.now() - started);
        }
    };
    worker.onmessage = (event: MessageEvent<CpuBackendResponse>) => pending.shift()?.(event.data);
    worker.onerror = (event) => {
        event.preventDefault();
        const message = event.message || "the CPU erosion worker failed";
        for (const resolve of pending.splice(0)) resolve({ type: "error", message });
    };
    return {
        request(message, transfer = [], posted) {
            if (closed) return Promise.resolve({ type: "error", message: "the CPU erosion backend was disposed" });
            return new Promise((resolve) => {
                pending.push(resolve);
                if (outbox.length === 0) schedule(postAll);
                outbox.push({ message, transfer, posted });
            });
        },
        close() {
            closed = true;
            outbox.length = 0;
            worker.terminate();
            for (const resolve of pending.splice(0)) resolve({ type: "error", message: "the CPU erosion backend was disposed" });
        },
    };
}
