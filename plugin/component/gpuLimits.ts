/**
 * Whether a ground fits a WebGPU device: checked at attach, before any GPU work, so a ground too
 * large for the adapter gets a clear error (or, with `backend: "auto"`, the CPU backend).
 */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { THERMAL_SLOTS } from "../core/thermalDirections.js";
import { groundGridSize } from "./groundBinding.js";

/**
 * Why a ground cannot run on this WebGPU device, or null: its buffers must fit the adapter's
 * storage-buffer binding limit.
 */
export function gpuSizeProblem(engine: WebGPUEngine, ground: GroundMesh, patchSize: number): string | null {
    const limit = engine.currentLimits?.maxStorageBufferBindingSize;
    if (!limit) {
        return null;
    }
    const { width, depth } = groundGridSize(ground);
    const needs = [
        ["heights", width * depth * 4],
        ["sediment routing", width * depth * 8],
        ["vertex positions", width * depth * 12],
        ["thermal flux", (patchSize + 1) * (patchSize + 1) * THERMAL_SLOTS * 4],
    ] as const;
    for (const [what, bytes] of needs) {
        if (bytes > limit) {
            return (
                `The ${what} buffer of the ${width} x ${depth} ground "${ground.name}" needs ${bytes} bytes, more than this adapter's maxStorageBufferBindingSize of ${limit} bytes. ` +
                `Raise it when creating the engine (new WebGPUEngine(canvas, { deviceDescriptor: { requiredLimits: { maxStorageBufferBindingSize: ${bytes} } } }), up to the adapter's own limit), erode a smaller ground, or use backend: "cpu".`
            );
        }
    }
    return null;
}
