/**
 * Which backend a runner starts: WebGPU when asked for and it starts, else the CPU backend on its
 * worker pool (`backend: "auto"` falls back with a report; `"webgpu"` reports and fails). The same
 * maker rebuilds the runner's backend after a stall (`rebuildBackend`).
 */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { ErosionStateData } from "../core/erosionState.js";
import type { ErosionOptions } from "../core/options.js";
import type { WaitWatch } from "../core/waitWatch.js";
import { canShareMemory, CpuErosionBackend, cpuWorkerCount } from "../cpu/index.js";
import type { ErosionErrorEvent } from "./erosionEvents.js";
import { createGpuErosionBackend } from "./gpuErosionBackend.js";
import { present, presenterOf } from "./backendPresenter.js";
import { cpuPresenter } from "./cpuPresenter.js";
import { DETACHED_GPU_PRESENTER, gpuPresenter } from "./gpuPresenter.js";
import type { GroundField } from "./groundField.js";
import type { StartupProgress } from "./startupProgress.js";

/** Makes a runner's backend on `state`, its waits watched by `watch`. */
export type BackendMaker = (state: ErosionStateData, watch: WaitWatch) => Promise<ErosionBackend>;

/** What makes every runner's backends instead, whatever the engine (`makeBackendsWith`), or null. */
let makerInstead: BackendMaker | null = null;

/**
 * For the repository's own tests (`internal.ts`): every runner started from now on makes its
 * backend, at its start and after a stall, with `make` (a GPU simulation on Dawn for Node under a
 * NullEngine, a backend whose device holds a readback back), whatever its engine; null undoes it.
 */
export function makeBackendsWith(make: BackendMaker | null): void {
    makerInstead = make;
}

/** Where a runner's backends run and what they are made for. */
export interface BackendTarget {
    readonly engine: WebGPUEngine;
    readonly field: GroundField;
    readonly options: Readonly<ErosionOptions>;
    /** Where the backend's waits are recorded and get their deadline. */
    readonly watch: WaitWatch;
}

/** Starts the backend for `target.field` from `initial`; `gpu` says which started. */
export async function startBackend(
    useGpu: boolean,
    target: BackendTarget,
    initial: ErosionStateData,
    report: (kind: ErosionErrorEvent["kind"], message: string, error?: unknown) => void,
    startup?: StartupProgress
): Promise<{ backend: ErosionBackend; gpu: boolean }> {
    if (makerInstead) {
        const backend = presentMade(await makerInstead(initial, target.watch));
        return { backend, gpu: presenterOf(backend).describe() === null };
    }
    const { engine, field, options, watch } = target;
    if (useGpu) {
        try {
            return { backend: await gpuBackend(engine, field, initial, options.patchSize, watch, startup), gpu: true };
        } catch (error) {
            if (options.backend === "webgpu") {
                report("stopped", "The WebGPU erosion backend could not start.", error);
                throw error;
            }
            report(
                "fallback", `The WebGPU erosion backend could not start (${error instanceof Error ? error.message : String(error)}); using the CPU backend.`,
                error
            );
        }
    }
    startup?.enter("starting-workers");
    return { backend: await cpuBackend(target, initial), gpu: false };
}

/** A new backend of the kind that runs (`gpu`) on `state`: what a runner resumes on after a stall. */
export function rebuildBackend(gpu: boolean, target: BackendTarget, state: ErosionStateData): Promise<ErosionBackend> {
    if (makerInstead) return makerInstead(state, target.watch).then(presentMade);
    return gpu ? gpuBackend(target.engine, target.field, state, target.options.patchSize, target.watch) : cpuBackend(target, state);
}

/**
 * The scene's GPU backend on `engine`'s device (`createGpuErosionBackend`), presented by its scene part
 * (`gpuPresenter`): a start's, a rebuild's after a stall, or a device recovery's.
 */
export async function gpuBackend(
    engine: WebGPUEngine, field: GroundField, state: ErosionStateData, patchSize: number, watch: WaitWatch, startup?: StartupProgress
): Promise<ErosionBackend> {
    const { backend, scene } = await createGpuErosionBackend(engine, field, state, patchSize, startup, watch);
    return present(backend, gpuPresenter(scene));
}

async function cpuBackend({ field, options, watch }: BackendTarget, state: ErosionStateData): Promise<ErosionBackend> {
    const pool = { workers: cpuWorkerCount(options.cpuWorkers), shared: canShareMemory() };
    const backend = await CpuErosionBackend.create(state, true, pool, field.cellSize, watch);
    return present(backend, cpuPresenter(backend));
}

/**
 * A backend a test's maker made, presented by what it says of itself: a CPU backend describes its
 * pool; a GPU one (the headless simulation on Dawn for Node) does not, and the scene cannot reach
 * into its device (`DETACHED_GPU_PRESENTER`).
 */
function presentMade(backend: ErosionBackend): ErosionBackend {
    return present(backend, backend.describe() ? cpuPresenter(backend) : DETACHED_GPU_PRESENTER);
}
