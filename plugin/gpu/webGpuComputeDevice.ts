/**
 * `ComputeDevice` over a bare `GPUDevice`: Dawn for Node (the `webgpu` package) in benchmarks and
 * tools, or any WebGPU device without Babylon. The component uses `BabylonComputeDevice`; both run
 * the same kernels in the same order (`GpuErosionSimulation`).
 */
import type { BufferUsage, ComputeBuffer, ComputeDevice, KernelBindings } from "./computeDevice.js";
import { BINDINGS } from "./kernelBindings.js";
import { KERNELS, type KernelName } from "./kernelTable.js";
import { kernelSource } from "./shaderLibrary.js";

interface WebGpuBuffer extends ComputeBuffer {
    gpuBuffer: GPUBuffer | null;
}

/** Runs the erosion kernels on a `GPUDevice`. */
export class WebGpuComputeDevice implements ComputeDevice {
    public readonly adapterDescription: string;
    private readonly _pipelines = new Map<KernelName, GPUComputePipeline>();
    private _encoder: GPUCommandEncoder | null = null;
    private _timestampWrites: ((pass: GPUComputePassDescriptor) => void) | null = null;

    /**
     * @param device the device to run on
     * @param adapterDescription how to describe the adapter in reports
     */
    constructor(
        public readonly gpu: GPUDevice,
        adapterDescription = "WebGPU device"
    ) {
        this.adapterDescription = adapterDescription;
    }

    public get maxStorageBufferBindingSize(): number {
        return this.gpu.limits.maxStorageBufferBindingSize;
    }

    public get maxWorkgroupsPerDimension(): number {
        return this.gpu.limits.maxComputeWorkgroupsPerDimension;
    }

    /** Lets a benchmark add timestamp writes to every compute pass (null to stop). */
    public setPassDecorator(decorate: ((pass: GPUComputePassDescriptor) => void) | null): void {
        this._timestampWrites = decorate;
    }

    public async prepareKernels(kernels: readonly KernelName[], onCompiled?: () => void, _later?: readonly KernelName[], onStep?: () => void): Promise<void> {
        for (const kernel of kernels) {
            if (this._pipelines.has(kernel)) {
                onCompiled?.();
                onStep?.();
                continue;
            }
            const module = this.gpu.createShaderModule({ label: `TerrainErosion.${kernel}`, code: kernelSource(kernel) });
            const info = await module.getCompilationInfo();
            const errors = info.messages.filter((message) => message.type === "error");
            if (errors.length > 0) {
                throw new Error(
                    `WGSL kernel ${kernel} failed to ` +
                        `compile:\n${errors.map((message) => `${message.lineNum}:${message.linePos} ${message.message}`).join("\n")}`
                );
            }
            this._pipelines.set(
                kernel,
                await this.gpu.createComputePipelineAsync({ label: `TerrainErosion.${kernel}`, layout: "auto", compute: { module, entryPoint: "main" } })
            );
            onCompiled?.();
            onStep?.();
        }
    }

    public createBuffer(label: string, byteLength: number, usage: BufferUsage = "storage"): ComputeBuffer {
        const binding = usage === "uniform" ? GPUBufferUsage.UNIFORM : GPUBufferUsage.STORAGE;
        const gpuBuffer = this.gpu.createBuffer({ label, size: byteLength, usage: binding | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
        const buffer: WebGpuBuffer = { label, byteLength, gpuBuffer };
        return buffer;
    }

    public writeBuffer(buffer: ComputeBuffer, data: ArrayBufferView, byteOffset = 0): void {
        this.gpu.queue.writeBuffer(live(buffer), byteOffset, data.buffer, data.byteOffset, data.byteLength);
    }

    public dispatch(kernel: KernelName, bindings: KernelBindings, x: number, y: number, z: number): void {
        if ((KERNELS[kernel] as { texture?: string }).texture) {
            throw new Error(`Kernel ${kernel} writes a Babylon texture; run it on a BabylonComputeDevice.`);
        }
        const pipeline = this._pipelines.get(kernel);
        if (!pipeline) {
            throw new Error(`Kernel ${kernel} was not prepared.`);
        }
        const entries: GPUBindGroupEntry[] = [];
        for (const name of KERNELS[kernel].bindings) {
            const buffer = bindings[name];
            if (!buffer) {
                throw new Error(`Kernel ${kernel} needs buffer "${name}".`);
            }
            entries.push({ binding: BINDINGS[name], resource: { buffer: live(buffer) } });
        }
        const bindGroup = this.gpu.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries });
        this._encoder ??= this.gpu.createCommandEncoder({ label: "TerrainErosion" });
        const descriptor: GPUComputePassDescriptor = { label: kernel };
        this._timestampWrites?.(descriptor);
        const pass = this._encoder.beginComputePass(descriptor);
        pass.setPipeline(pipeline);
        pass.setBindGroup(0, bindGroup);
        pass.dispatchWorkgroups(x, y, z);
        pass.end();
    }

    /** Records a copy on the current encoder (for benchmark timestamp resolution). */
    public get encoder(): GPUCommandEncoder {
        this._encoder ??= this.gpu.createCommandEncoder({ label: "TerrainErosion" });
        return this._encoder;
    }

    public submit(): void {
        if (this._encoder) {
            this.gpu.queue.submit([this._encoder.finish()]);
            this._encoder = null;
        }
    }

    public async readBuffer(buffer: ComputeBuffer, byteOffset: number, byteLength: number): Promise<ArrayBuffer> {
        const staging = this.gpu.createBuffer({
            label: `${buffer.label}.readback`,
            size: byteLength,
            usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
        });
        const encoder = this.encoder;
        encoder.copyBufferToBuffer(live(buffer), byteOffset, staging, 0, byteLength);
        this.submit();
        await staging.mapAsync(GPUMapMode.READ);
        const copy = staging.getMappedRange().slice(0);
        staging.unmap();
        staging.destroy();
        return copy;
    }

    public wrapExternalBuffer(label: string, nativeBuffer: unknown, byteLength: number): ComputeBuffer | null {
        if (!nativeBuffer || typeof (nativeBuffer as GPUBuffer).destroy !== "function") {
            return null;
        }
        const buffer: WebGpuBuffer & { external: true } = { label, byteLength, gpuBuffer: nativeBuffer as GPUBuffer, external: true };
        return buffer;
    }

    public destroyBuffer(buffer: ComputeBuffer): void {
        const webGpuBuffer = buffer as WebGpuBuffer & { external?: boolean };
        if (!webGpuBuffer.external) {
            webGpuBuffer.gpuBuffer?.destroy();
        }
        webGpuBuffer.gpuBuffer = null;
    }

    public dispose(): void {
        this._pipelines.clear();
        this._encoder = null;
    }
}

function live(buffer: ComputeBuffer): GPUBuffer {
    const gpuBuffer = (buffer as WebGpuBuffer).gpuBuffer;
    if (!gpuBuffer) {
        throw new Error(`GPU buffer ${buffer.label} was used after it was destroyed.`);
    }
    return gpuBuffer;
}
