/**
 * The few GPU operations the erosion backend needs, behind one interface so the dispatch order is
 * written once (`GpuErosionSimulation`) and runs on Babylon's WebGPU engine (`BabylonComputeDevice`,
 * what the component uses) or on a bare `GPUDevice` (`WebGpuComputeDevice`: Dawn for Node in the
 * benchmarks).
 *
 * Ordering contract: writes take effect at once (like `GPUQueue.writeBuffer`), dispatches are
 * recorded and run at the next `submit()`. A write to a buffer that a recorded dispatch reads must
 * therefore be preceded by `submit()`; `GpuErosionSimulation` keeps to that.
 */
import type { BindingName } from "./kernelBindings.js";
import type { KernelName } from "./kernelTable.js";

/** A storage buffer owned by a `ComputeDevice`. */
export interface ComputeBuffer {
    /** Label shown in GPU captures and errors. */
    readonly label: string;
    /** Size in bytes (a multiple of 4). */
    readonly byteLength: number;
}

/** How the kernels bind a buffer. */
export type BufferUsage = "storage" | "uniform";

/** Buffers bound to a dispatch, by binding name. */
export type KernelBindings = Partial<Record<BindingName, ComputeBuffer>>;

/** A device that can run the erosion kernels. */
export interface ComputeDevice {
    /** Human-readable adapter description (for benchmarks and errors). */
    readonly adapterDescription: string;
    /** Largest storage buffer binding, in bytes. */
    readonly maxStorageBufferBindingSize: number;
    /** Largest number of workgroups per dispatch dimension. */
    readonly maxWorkgroupsPerDimension: number;
    /**
     * Compiles every kernel; resolves when all can be dispatched. The pipelines of `later` (some of
     * `kernels`, not needed by the first frames) may be completed after it resolves, in the
     * background; a dispatch of one before then still runs (compiling it at once). `onStep` hears
     * of every step done (a kernel's WGSL, a pipeline), where `onCompiled` counts whole kernels.
     */
    prepareKernels(kernels: readonly KernelName[], onCompiled?: () => void, later?: readonly KernelName[], onStep?: () => void): Promise<void>;
    /**
     * Creates a zero-filled buffer: a storage buffer, or (`usage: "uniform"`) one the kernels bind as
     * a uniform buffer (`UNIFORM_BINDINGS`: the params).
     */
    createBuffer(label: string, byteLength: number, usage?: BufferUsage): ComputeBuffer;
    /** Writes data at a byte offset, at once. */
    writeBuffer(buffer: ComputeBuffer, data: ArrayBufferView, byteOffset?: number): void;
    /**
     * Records a dispatch of `x * y * z` workgroups (`z`: one layer per batch of a class run together).
     * A kernel with a storage texture (`write_maps`) gets it as `texture` (a Babylon texture; devices
     * without Babylon cannot run those kernels).
     */
    dispatch(kernel: KernelName, bindings: KernelBindings, x: number, y: number, z: number, texture?: unknown): void;
    /** Runs everything recorded so far. */
    submit(): void;
    /** Submits, then reads bytes back. */
    readBuffer(buffer: ComputeBuffer, byteOffset: number, byteLength: number): Promise<ArrayBuffer>;
    /**
     * Wraps a buffer someone else owns (a mesh's vertex buffer) so kernels can bind it; destroying
     * the wrapper leaves the buffer alone. Devices that cannot reach such buffers return null.
     */
    wrapExternalBuffer(label: string, nativeBuffer: unknown, byteLength: number): ComputeBuffer | null;
    /** Frees a buffer (safe to call twice; wrapped external buffers are only forgotten). */
    destroyBuffer(buffer: ComputeBuffer): void;
    /** Frees the kernels (buffers are freed by their owners). Safe to call twice. */
    dispose(): void;
}
