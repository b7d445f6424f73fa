/**
 * Which backend a runner gets: the GPU where the options ask for it and the engine and field allow
 * it, else the CPU reference. Decided before any GPU work, so a bad request fails at attach.
 */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { ErosionOptionError, type ErosionOptions } from "../core/options.js";
import { gpuSizeProblem } from "./gpuLimits.js";
import { ErosionTargetError } from "./groundValidation.js";
import type { GroundField } from "./groundField.js";

/** The backend for `field`: `useGpu`, and where `"auto"` fell back to the CPU, why (else null). */
export interface BackendChoice {
    readonly useGpu: boolean;
    readonly fallback: string | null;
}

/**
 * The backend `options.backend` asks for on `field`: throws `ErosionOptionError` for `"webgpu"` on
 * an engine without compute shaders and `ErosionTargetError` for a field too large for the GPU
 * (`"auto"` falls back to the CPU backend instead, and says why).
 */
export function chooseBackend(field: GroundField, options: ErosionOptions): BackendChoice {
    const engine = field.scene.getEngine();
    const hasCompute = engine.getCaps().supportComputeShaders === true;
    const backend = options.backend;
    if (backend === "webgpu" && !hasCompute) {
        throw new ErosionOptionError(
            "backend",
            backend,
            `Erosion option "backend" is "webgpu" but this engine has no compute shaders ` +
                `(engine.getCaps().supportComputeShaders is false); use a WebGPUEngine, or backend "cpu" or "auto".`
        );
    }
    if (backend === "cpu" || !hasCompute) return { useGpu: false, fallback: null };
    const problem = gpuSizeProblem(engine as WebGPUEngine, field, options.patchSize);
    if (problem && backend === "webgpu") throw new ErosionTargetError(problem);
    return problem ? { useGpu: false, fallback: `${problem} Using the CPU backend.` } : { useGpu: true, fallback: null };
}
