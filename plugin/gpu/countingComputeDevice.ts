/**
 * A `ComputeDevice` that counts the dispatches it forwards, by kernel: how the tests and the
 * benchmarks show that a cycle's dispatches do not grow with the field (the independent classes
 * share theirs). Everything else passes straight through to the wrapped device.
 */
import type { BufferUsage, ComputeBuffer, ComputeDevice, KernelBindings } from "./computeDevice.js";
import type { KernelName } from "./shaderLibrary.js";

/** Wraps `inner`, counting its dispatches. */
export class CountingComputeDevice implements ComputeDevice {
    /** Dispatches recorded since the last `resetCounts`, by kernel. */
    public readonly dispatchesByKernel = new Map<KernelName, number>();
    /** Dispatches recorded since the last `resetCounts`. */
    public dispatches = 0;
    /** Workgroups those dispatches launched (x * y * z summed). */
    public workgroups = 0;

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

    /** Starts the counts again from zero. */
    public resetCounts(): void {
        this.dispatchesByKernel.clear();
        this.dispatches = 0;
        this.workgroups = 0;
    }

    public prepareKernels(kernels: readonly KernelName[], onCompiled?: () => void, later?: readonly KernelName[]): Promise<void> {
        return this.inner.prepareKernels(kernels, onCompiled, later);
    }

    public createBuffer(label: string, byteLength: number, usage?: BufferUsage): ComputeBuffer {
        return this.inner.createBuffer(label, byteLength, usage);
    }

    public writeBuffer(buffer: ComputeBuffer, data: ArrayBufferView, byteOffset?: number): void {
        this.inner.writeBuffer(buffer, data, byteOffset);
    }

    public dispatch(kernel: KernelName, bindings: KernelBindings, x: number, y: number, z: number, texture?: unknown): void {
        this.dispatches++;
        this.workgroups += x * y * z;
        this.dispatchesByKernel.set(kernel, (this.dispatchesByKernel.get(kernel) ?? 0) + 1);
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
