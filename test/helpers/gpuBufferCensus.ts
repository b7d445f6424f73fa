/**
 * Counts a page's live GPU buffers by label (an independent check on leaks): wraps the device's
 * `createBuffer` and each buffer's `destroy`, on the engine's current device (a device restored
 * after a loss is wrapped when next counted).
 */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";

const liveLabels = new Map<GPUBuffer, string>();
const instrumented = new WeakSet<GPUDevice>();

/** Starts counting the buffers `engine`'s device creates (again on each new device). */
export function instrumentBuffers(engine: WebGPUEngine): void {
    const device = (engine as unknown as { _device: GPUDevice })._device;
    if (instrumented.has(device)) return;
    instrumented.add(device);
    const create = device.createBuffer.bind(device);
    device.createBuffer = (descriptor: GPUBufferDescriptor) => {
        const buffer = create(descriptor);
        liveLabels.set(buffer, descriptor.label ?? "");
        const destroy = buffer.destroy.bind(buffer);
        buffer.destroy = () => {
            liveLabels.delete(buffer);
            destroy();
        };
        return buffer;
    };
}

/** Live buffers on `engine`'s device whose label contains `prefix` (counting starts at the first call). */
export function liveBufferCount(engine: WebGPUEngine, prefix: string): number {
    instrumentBuffers(engine);
    let count = 0;
    for (const label of liveLabels.values()) if (label.includes(prefix)) count++;
    return count;
}
