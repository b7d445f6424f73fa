/**
 * A `ComputeDevice` that passes every call straight through to another: the base of the devices
 * that wrap one to watch it (`CountingComputeDevice` counts its dispatches, `WatchedComputeDevice`
 * puts a deadline on its waits), each overriding only what it watches.
 */
import type { BufferUsage, ComputeBuffer, ComputeDevice, KernelBindings } from "./computeDevice.js";
import type { KernelName } from "./kernelTable.js";

/** Forwards everything to `inner`. */
export class ForwardingComputeDevice implements ComputeDevice {
    constructor(public readonly inner: ComputeDevice) {}

    public get adapterDescription(): string {
        return this.inner.adapterDescription;
    }

    public get maxStorageBufferBindingSize(): number {
        return this.inner.maxStorageBufferBindingSize;
    }

    public get maxWorkgroupsPerDimension(): number {
        return this.inner.maxWorkgroupsPerDimension;
    }

    public prepareKernels(kernels: readonly KernelName[], onCompiled?: () => void, later?: readonly KernelName[], onStep?: () => void): Promise<void> {
        return this.inner.prepareKernels(kernels, onCompiled, later, onStep);
    }

    public createBuffer(label: string, byteLength: number, usage?: BufferUsage): ComputeBuffer {
        return this.inner.createBuffer(label, byteLength, usage);
    }

    public writeBuffer(buffer: ComputeBuffer, data: ArrayBufferView, byteOffset?: number): void {
        this.inner.writeBuffer(buffer, data, byteOffset);
    }

    public dispatch(kernel: KernelName, bindings: KernelBindings, x: number, y: number, z: number, texture?: unknown): void {
        this.inner.dispatch(kernel, bindings, x, y, z, texture);
    }

    public submit(): void {
        this.inner.submit();
    }

    public readBuffer(buffer: ComputeBuffer, byteOffset: number, byteLength: number): Promise<ArrayBuffer> {
        return this.inner.readBuffer(buffer, byteOffset, byteLength);
    }

    public wrapExternalBuffer(label: string, nativeBuffer: unknown, byteLength: number): ComputeBuffer | null {
        return this.inner.wrapExternalBuffer(label, nativeBuffer, byteLength);
    }

    public destroyBuffer(buffer: ComputeBuffer): void {
        this.inner.destroyBuffer(buffer);
    }

    public dispose(): void {
        this.inner.dispose();
    }
}
