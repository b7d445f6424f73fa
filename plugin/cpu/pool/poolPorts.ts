/**
 * Starting the pool's helpers: Web Workers from a Blob URL of the CPU worker's source in a browser
 * (also from inside the backend's own worker), Node's worker threads running the same source under
 * Node. Either way a helper is a `PoolPort`.
 */

/** A started helper. */
export interface PoolPort {
    post(message: unknown, transfer?: Transferable[]): void;
    /** Calls `handler` with each message the helper sends. */
    onMessage(handler: (data: unknown) => void): void;
    /** Calls `handler` if the helper fails or exits. */
    onFailure(handler: (message: string) => void): void;
    terminate(): void;
}

/** Starts one helper, or answers null where the platform cannot. */
export type SpawnHelper = () => PoolPort | null;

interface NodeWorker {
    postMessage(message: unknown, transfer?: unknown[]): void;
    on(event: "message", handler: (data: unknown) => void): void;
    on(event: "error", handler: (error: Error) => void): void;
    on(event: "exit", handler: (code: number) => void): void;
    terminate(): Promise<number>;
    unref(): void;
}

interface NodeBuiltins {
    getBuiltinModule?(name: string): unknown;
}

/** Node's `process`, if this is Node. */
function nodeProcess(): NodeBuiltins | null {
    const candidate = (globalThis as { process?: NodeBuiltins & { versions?: { node?: string } } }).process;
    return candidate?.versions?.node && typeof candidate.getBuiltinModule === "function" ? candidate : null;
}

/** Web Workers from a Blob URL of `source`, or null where the platform has none. */
export function browserSpawner(source: string): SpawnHelper | null {
    if (typeof Worker === "undefined" || typeof Blob === "undefined" || typeof URL === "undefined" || typeof URL.createObjectURL !== "function") {
        return null;
    }
    return () => {
        const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
        let worker: Worker;
        try {
            worker = new Worker(url);
        } catch {
            return null; // a content security policy without blob: workers, for example
        } finally {
            URL.revokeObjectURL(url);
        }
        return {
            post: (message, transfer = []) => worker.postMessage(message, transfer),
            onMessage: (handler) => {
                worker.onmessage = (event: MessageEvent) => handler(event.data);
            },
            onFailure: (handler) => {
                worker.onerror = (event) => {
                    event.preventDefault();
                    handler(event.message || "a CPU erosion pool worker failed");
                };
            },
            terminate: () => worker.terminate(),
        };
    };
}

/** Node worker threads running `source`, or null outside Node. */
export function nodeSpawner(source: string): SpawnHelper | null {
    const process = nodeProcess();
    const threads = process?.getBuiltinModule?.("node:worker_threads") as
        { Worker: new (source: string, options: { eval: boolean }) => NodeWorker } | undefined;
    if (!threads) return null;
    return () => {
        const worker = new threads.Worker(source, { eval: true });
        // A pool left undisposed must not keep the process alive.
        worker.unref();
        return {
            post: (message, transfer = []) => worker.postMessage(message, transfer),
            onMessage: (handler) => worker.on("message", handler),
            onFailure: (handler) => {
                worker.on("error", (error) => handler(error.message));
                worker.on("exit", (code) => handler(`a CPU erosion pool worker exited (code ${code})`));
            },
            terminate: () => void worker.terminate(),
        };
    };
}

/** The number of logical cores, or 1 where the platform does not say. */
export function logicalCores(): number {
    const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
    if (nav?.hardwareConcurrency) return nav.hardwareConcurrency;
    const os = nodeProcess()?.getBuiltinModule?.("node:os") as { availableParallelism?: () => number; cpus(): unknown[] } | undefined;
    return os ? (os.availableParallelism?.() ?? os.cpus().length) : 1;
}

/** The CPU backend's workers for the `cpuWorkers` option: the count asked for, or for 0 max(1, logical cores - 1). */
export function cpuWorkerCount(option: number): number {
    return option > 0 ? option : Math.max(1, logicalCores() - 1);
}

/** Whether members can share memory here: `SharedArrayBuffer` exists and, in a page, the page is cross-origin isolated. */
export function canShareMemory(): boolean {
    const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
    return typeof SharedArrayBuffer !== "undefined" && isolated !== false;
}
