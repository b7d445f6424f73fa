/**
 * Whether a field (one ground, or a world of grounds) fits a WebGPU device: checked at attach,
 * before any GPU work, so a field too large for the adapter gets a clear error (or, with
 * `backend: "auto"`, the CPU backend). A world's simulation buffers cover the whole field, its
 * vertex buffers one ground each: an 8 x 8 world of 513 x 513 grounds (4097 x 4097) fits the
 * default 128 MiB binding, where one 4097 x 4097 ground's 201 MB of positions do not.
 */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { gpuBufferNeeds } from "../gpu/index.js";

/** What the size check needs from the field: its size and its grounds' sizes. */
export interface SizedField {
    readonly width: number;
    readonly depth: number;
    readonly windows: readonly { readonly binding: { readonly width: number; readonly depth: number; readonly ground: { readonly name: string } } }[];
}

/**
 * Why a field cannot run on this WebGPU device, or null: every buffer a kernel binds must fit the
 * adapter's storage-buffer binding limit.
 */
export function gpuSizeProblem(engine: WebGPUEngine, field: SizedField, patchSize: number): string | null {
    return sizeProblem(engine.currentLimits?.maxStorageBufferBindingSize, field, patchSize);
}

/** `gpuSizeProblem` for a given limit in bytes (none: no problem). */
export function sizeProblem(limit: number | undefined, field: SizedField, patchSize: number): string | null {
    if (!limit) {
        return null;
    }
    const { width, depth } = field;
    const largest = field.windows.reduce((a, b) => (b.binding.width * b.binding.depth > a.binding.width * a.binding.depth ? b : a));
    const name =
        field.windows.length === 1
            ? `ground "${largest.binding.ground.name}"`
            : `world (largest ground "${largest.binding.ground.name}", ${largest.binding.width} x ${largest.binding.depth})`;
    // The simulation's buffers cover the field; the vertex buffers one ground each.
    const needs = gpuBufferNeeds(width, depth, patchSize).map(
        (need) => [need.what, need.owner === "ground" ? largest.binding.width * largest.binding.depth * 12 : need.bytes] as const
    );
    for (const [what, bytes] of needs) {
        if (bytes > limit) {
            return (
                `The ${what} buffer of the ${width} x ${depth} ${name} needs ${bytes} bytes, ` +
                    `more than this adapter's maxStorageBufferBindingSize of ${limit} bytes. ` +
                `Raise it when creating the engine (new WebGPUEngine(canvas, { deviceDescriptor: { requiredLimits: { maxStorageBufferBindingSize: ${bytes} } ` +
                    `} }), up to the adapter's own limit), erode a smaller ground (or split it into a TerrainErosionWorld of several), or use backend: "cpu".`
            );
        }
    }
    return null;
}
