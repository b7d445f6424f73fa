/**
 * Which backend a runner starts: WebGPU when asked for and it starts, else the CPU backend on its
 * worker pool (`backend: "auto"` falls back with a report; `"webgpu"` reports and fails).
 */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { ErosionStateData } from "../core/erosionState.js";
import type { ErosionOptions } from "../core/options.js";
import { CpuErosionBackend } from "../cpu/cpuErosionBackend.js";
import { canShareMemory, cpuWorkerCount } from "../cpu/pool/poolPorts.js";
import type { ErosionErrorEvent } from "./erosionEvents.js";
import { GpuErosionBackend } from "./gpuErosionBackend.js";
import type { GroundField } from "./groundField.js";
import type { StartupProgress } from "./startupProgress.js";

/** Starts the backend for `field` from `initial`; `gpu` says which started. */
export async function startBackend(
    useGpu: boolean,
    engine: WebGPUEngine,
    field: GroundField,
    initial: ErosionStateData,
    options: Readonly<ErosionOptions>,
    report: (kind: ErosionErrorEvent["kind"], message: string, error?: unknown) => void,
    startup?: StartupProgress
): Promise<{ backend: ErosionBackend; gpu: boolean }> {
    if (useGpu) {
        try {
            return { backend: await GpuErosionBackend.create(engine, field, initial, options.patchSize, startup), gpu: true };
        } catch (error) {
            if (options.backend === "webgpu") {
                report("stopped", "The WebGPU erosion backend could not start.", error);
                throw error;
            }
            report("fallback", `The WebGPU erosion backend could not start (${error instanceof Error ? error.message : String(error)}); using the CPU backend.`, error);
        }
    }
    startup?.enter("starting-workers");
    return { backend: await CpuErosionBackend.create(initial, true, { workers: cpuWorkerCount(options.cpuWorkers), shared: canShareMemory() }, field.cellSize), gpu: false };
}
