/**
 * `ComputeDevice` on Babylon's `WebGPUEngine`: every kernel is a Babylon `ComputeShader`, every
 * buffer one of the engine's storage buffers (a `DataBuffer`). This is the device the
 * `TerrainErosion` component uses, so the kernels run inside the engine's own frame (its command
 * encoder, its submit).
 */
import { ComputeShader } from "@babylonjs/core/Compute/computeShader.js";
import "@babylonjs/core/Engines/WebGPU/Extensions/engine.computeShader.js";
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import type { DataBuffer } from "@babylonjs/core/Buffers/dataBuffer.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import {
    KERNELS, kernelBindingsMapping, kernelSource, UNIFORM_BINDINGS, type BufferUsage, type ComputeBuffer, type ComputeDevice, type KernelBindings,
    type KernelName
} from "../gpu/index.js";

interface BabylonBuffer extends ComputeBuffer {
    storage: DataBuffer | null;
    /** A buffer someone else owns (a mesh's vertex buffer), bound as is and never disposed here. */
    external: DataBuffer | null;
}

/** `GPUBufferUsage`'s flags (the constants are not defined in Node). */
const GPU_USAGE = { copySrc: 4, copyDst: 8, uniform: 64, storage: 128 } as const;

/** The engine's buffer maker, which `StorageBuffer` reaches only through a zero upload. */
interface EngineBuffers {
    _bufferManager: { createBuffer(size: number, usage: number, label?: string): DataBuffer };
}

/** How long kernels may take to compile before `prepareKernels` gives up, in milliseconds. */
const COMPILE_TIMEOUT_MS = 60000;

/** A number for each `GPUDevice` seen, in the order they are first seen (see `deviceGeneration`). */
const deviceNumbers = new WeakMap<object, number>();
let devicesSeen = 0;

/**
 * The number of the engine's current `GPUDevice`: 0 for the first device any engine had, then one
 * more for each device after it (a restored engine's new device among them). Babylon caches
 * compiled compute effects by source and keeps the dead device's pipelines after restoring the
 * engine, so kernels compiled for a later device carry its number in a trailing comment. Per
 * device, not per component: a component created after a restore (generation 0 of its own) got the
 * dead device's pipelines, and its dispatches did nothing (measured: its heights differed from the
 * CPU reference's after one cycle).
 */
function deviceGeneration(engine: WebGPUEngine): number {
    const device = (engine as unknown as { _device?: object })._device;
    if (!device) {
        return 0;
    }
    let number = deviceNumbers.get(device);
    if (number === undefined) {
        number = devicesSeen++;
        deviceNumbers.set(device, number);
    }
    return number;
}

/** Runs the erosion kernels as Babylon compute shaders. */
export class BabylonComputeDevice implements ComputeDevice {
    private readonly _shaders = new Map<KernelName, ComputeShader>();
    private readonly _liveBuffers = new Set<BabylonBuffer>();

    /** @param engine the WebGPU engine (its current device picks the kernels' compiled source: `deviceGeneration`) */
    constructor(public readonly engine: WebGPUEngine) {
        if (!engine.getCaps().supportComputeShaders) {
            throw new Error("BabylonComputeDevice needs an engine with compute shader support (a WebGPUEngine).");
        }
    }

    public get adapterDescription(): string {
        const info = this.engine.getInfo();
        return `${info.vendor} ${info.renderer} ${info.version}`.trim();
    }

    public get maxStorageBufferBindingSize(): number {
        return this.engine.currentLimits.maxStorageBufferBindingSize;
    }

    public get maxWorkgroupsPerDimension(): number {
        return this.engine.currentLimits.maxComputeWorkgroupsPerDimension;
    }

    /** Storage buffers this device created and has not yet destroyed. */
    public get liveBufferCount(): number {
        return this._liveBuffers.size;
    }

    /**
     * Compiles `kernels`: every one's WGSL (Babylon's `isReady`, `PIPELINES_AT_ONCE` at a time: all
     * side by side made frames of 390-610 ms at 513² on SwiftShader), then their pipelines
     * with the device's `createComputePipelineAsync`, `PIPELINES_AT_ONCE` at a time, those of
     * `later` in the background after it resolves (`onCompiled` counts those at once). Babylon
     * would create a pipeline at the kernel's first dispatch, synchronously
     * (`createComputePipeline`), where the adapter compiles it for the queue the rendering waits
     * on: the first frame of erosion stalled for seconds on SwiftShader. A few at a time, because
     * Chromium compiles the pipelines it is asked for together in one stretch that the rendering
     * waits for (measured on SwiftShader at 513², 20 pipelines: all side by side, a frame of 3.6-5.7
     * s; one at a time, frames of 20-40 ms over 6.5-7.6 s; two at a time, frames of 20-40 ms but
     * one of 150 ms, over 3.8-4.1 s).
     */
    public async prepareKernels(
        kernels: readonly KernelName[], onCompiled?: () => void, later: readonly KernelName[] = [], onStep?: () => void
    ): Promise<void> {
        const shaders = kernels.map((kernel) => [kernel, this._shader(kernel)] as const);
        await inTurns(shaders, PIPELINES_AT_ONCE, ([kernel, shader]) => whenReady(kernel, shader).then(() => onStep?.()));
        const deferred = new Set(later);
        const now = shaders.filter(([kernel]) => !deferred.has(kernel)).map(([, shader]) => shader);
        onCompiled && deferred.forEach(() => onCompiled());
        await inTurns(now, PIPELINES_AT_ONCE, (shader) =>
            createPipeline(this.engine, shader).then(() => {
                onCompiled?.();
                onStep?.();
            })
        );
        if (deferred.size === 0) return;
        // A failure here only means the kernel compiles at its first dispatch instead.
        const rest = shaders.filter(([kernel]) => deferred.has(kernel)).map(([, shader]) => shader);
        void inTurns(rest, PIPELINES_AT_ONCE, (shader) => createPipeline(this.engine, shader)).catch(() => undefined);
    }

    /** `kernel`'s compute shader, made for the engine's current device (`deviceGeneration`) the first time. */
    private _shader(kernel: KernelName): ComputeShader {
        const known = this._shaders.get(kernel);
        if (known) return known;
        const generation = deviceGeneration(this.engine);
        const source = generation === 0 ? kernelSource(kernel) : `${kernelSource(kernel)}\n// device generation ${generation}\n`;
        const shader = new ComputeShader(
            `TerrainErosion.${kernel}`, this.engine, { computeSource: source }, { bindingsMapping: kernelBindingsMapping(kernel) }
        );
        this._shaders.set(kernel, shader);
        return shader;
    }

    /**
     * A storage buffer (and a uniform one too for `usage` "uniform"), made by the engine's buffer
     * manager rather than as a Babylon `StorageBuffer`, which uploads a zero array of its size
     * through the queue: WebGPU buffers start zeroed, and those uploads were 116 ms of the
     * synchronous attach at 513² on SwiftShader (a 300 ms frame).
     */
    public createBuffer(label: string, byteLength: number, usage: BufferUsage = "storage"): ComputeBuffer {
        const flags = GPU_USAGE.storage | GPU_USAGE.copySrc | GPU_USAGE.copyDst | (usage === "uniform" ? GPU_USAGE.uniform : 0);
        // Babylon's own StorageBuffer rounds the size up to 4 bytes the same way.
        const storage = (this.engine as unknown as EngineBuffers)._bufferManager.createBuffer((byteLength + 3) & ~3, flags, label);
        const buffer: BabylonBuffer = { label, byteLength, storage, external: null };
        this._liveBuffers.add(buffer);
        return buffer;
    }

    public wrapExternalBuffer(label: string, nativeBuffer: unknown, byteLength: number): ComputeBuffer | null {
        const dataBuffer = nativeBuffer as DataBuffer | null;
        if (!dataBuffer || !dataBuffer.underlyingResource) {
            return null;
        }
        const buffer: BabylonBuffer = { label, byteLength, storage: null, external: dataBuffer };
        return buffer;
    }

    public writeBuffer(buffer: ComputeBuffer, data: ArrayBufferView, byteOffset = 0): void {
        this.engine.updateStorageBuffer(live(buffer), data, byteOffset, data.byteLength);
    }

    public dispatch(kernel: KernelName, bindings: KernelBindings, x: number, y: number, z: number, texture?: unknown): void {
        const shader = this._shaders.get(kernel);
        if (!shader) {
            throw new Error(`Kernel ${kernel} was not prepared.`);
        }
        const textureName = (KERNELS[kernel] as { texture?: string }).texture;
        if (textureName) {
            if (!texture) {
                throw new Error(`Kernel ${kernel} needs a storage texture.`);
            }
            shader.setStorageTexture(textureName, texture as BaseTexture);
        }
        for (const name of KERNELS[kernel].bindings) {
            const buffer = bindings[name];
            if (!buffer) {
                throw new Error(`Kernel ${kernel} needs buffer "${name}".`);
            }
            if (UNIFORM_BINDINGS.has(name)) {
                shader.setUniformBuffer(name, live(buffer));
            } else {
                shader.setStorageBuffer(name, bindable(buffer));
            }
        }
        // A skipped dispatch would silently break determinism, so a shader that is not ready is an error.
        if (!shader.dispatch(x, y, z)) {
            throw new Error(`Kernel ${kernel} could not be dispatched (not ready).`);
        }
    }

    public submit(): void {
        this.engine.flushFramebuffer();
    }

    public async readBuffer(buffer: ComputeBuffer, byteOffset: number, byteLength: number): Promise<ArrayBuffer> {
        const view = await this.engine.readFromStorageBuffer(live(buffer), byteOffset, byteLength, undefined, true);
        return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength) as ArrayBuffer;
    }

    public destroyBuffer(buffer: ComputeBuffer): void {
        const babylonBuffer = buffer as BabylonBuffer;
        if (babylonBuffer.storage) this.engine._releaseBuffer(babylonBuffer.storage);
        babylonBuffer.storage = null;
        babylonBuffer.external = null;
        this._liveBuffers.delete(babylonBuffer);
    }

    public dispose(): void {
        this._shaders.clear();
    }
}

function bindable(buffer: ComputeBuffer): DataBuffer {
    const external = (buffer as BabylonBuffer).external;
    return external ?? live(buffer);
}

function live(buffer: ComputeBuffer): DataBuffer {
    const storage = (buffer as BabylonBuffer).storage;
    if (!storage) {
        throw new Error(`GPU buffer ${buffer.label} was used after it was destroyed.`);
    }
    return storage;
}

/** Pipelines created at a time (`prepareKernels`): two kept SwiftShader's frames short on two cores and halved the one-at-a-time wait. */
const PIPELINES_AT_ONCE = 2;

/** Runs `work` on each item, at most `atOnce` at a time, in order of starting. */
async function inTurns<T>(items: readonly T[], atOnce: number, work: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const lane = async (): Promise<void> => {
        while (next < items.length) await work(items[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
}

/** Resolves once `shader`'s WGSL compiled (Babylon's `isReady`, polled), rejects on a compile error or after `COMPILE_TIMEOUT_MS`. */
function whenReady(kernel: KernelName, shader: ComputeShader): Promise<void> {
    return new Promise<void>((resolve, reject) => {
        const started = performance.now();
        shader.onError = (_effect, errors) => reject(new Error(`WGSL kernel ${kernel} failed to compile: ${errors}`));
        const poll = (): void => {
            if (shader.isReady()) {
                resolve();
            } else if (performance.now() - started > COMPILE_TIMEOUT_MS) {
                reject(new Error(`WGSL kernel ${kernel} did not compile within ${COMPILE_TIMEOUT_MS} ms.`));
            } else {
                setTimeout(poll, 5);
            }
        };
        poll();
    });
}

/** What a compiled compute effect holds on WebGPU (Babylon's `WebGPUComputePipelineContext`, internal). */
interface ComputePipelineInternals {
    stage: GPUProgrammableStage | null;
    computePipeline: GPUComputePipeline | undefined;
}

/**
 * Creates `shader`'s pipeline asynchronously into its effect's pipeline context, the one Babylon's
 * first dispatch would otherwise create synchronously (with the same descriptor: the "auto" layout
 * and the effect's stage). Babylon shares an effect between shaders of one source, so a pipeline
 * already there is kept.
 */
async function createPipeline(engine: WebGPUEngine, shader: ComputeShader): Promise<void> {
    const device = (engine as unknown as { _device?: GPUDevice })._device;
    const effect = (shader as unknown as { _effect?: { getPipelineContext(): unknown; _useExplicitComputePipelineLayout?: boolean } })._effect;
    const context = effect?.getPipelineContext() as ComputePipelineInternals | null | undefined;
    if (!device || !context || context.computePipeline || !context.stage || effect?._useExplicitComputePipelineLayout) return;
    const pipeline = await device.createComputePipelineAsync({ label: shader.name, layout: "auto", compute: context.stage });
    context.computePipeline ??= pipeline;
}
