/**
 * The two places a bake runs: every CPU core (the CPU backend and its worker pool, in this thread
 * and Node worker threads sharing memory) or a GPU through Dawn for Node (the optional `webgpu`
 * package), with the same kernels as the browser's backends. Either way a bake device is an adapter
 * over an `ErosionBackend`, the contract the component's backends keep too.
 */
import { CpuErosionBackend } from "../cpu/index.js";
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import type { ErosionStateData } from "../core/erosionState.js";
import { HeadlessGpuBackend, WebGpuComputeDevice } from "../gpu/index.js";
import type { BakeDevice } from "./bakeRun.js";
import type { WaitWatch } from "../core/waitWatch.js";

/** A backend that can hand its state over without copying it (the CPU backend's grids). */
interface ReleasingBackend extends ErosionBackend {
    release(cycle: number, batch: number): Promise<{ state: ErosionStateData; maps: ErosionMaps }>;
}

/**
 * A bake device over `backend`: frames without a vertex pass, the state handed over (or read back
 * where the backend cannot hand it over), `closeDevice` after the backend is disposed.
 */
export function backendBakeDevice(backend: ErosionBackend | ReleasingBackend, description: string, closeDevice: () => void = () => undefined): BakeDevice {
    return {
        description,
        runFrame: async (batches) => void (await backend.runFrame(batches, null)),
        release: async (cycle, batch) =>
            ("release" in backend ? backend.release(cycle, batch) : { state: await backend.readState(cycle, batch), maps: await backend.readMaps() }),
        writeMaps: (maps) => backend.writeMaps(maps),
        dispose: () => {
            backend.dispose();
            closeDevice();
        },
    };
}

/** The CPU backend on `workers` workers (this thread and helpers), starting from `state`; `watch` puts a deadline on its replies. */
export async function cpuBakeDevice(state: ErosionStateData, workers: number, watch: WaitWatch | null = null): Promise<BakeDevice> {
    const backend = await CpuErosionBackend.create(state, false, { workers, shared: true }, null, watch);
    const memory = backend.workers > 1 ? (backend.sharedMemory ? ", shared memory" : ", copying") : "";
    return backendBakeDevice(backend, `cpu, ${backend.workers} worker${backend.workers === 1 ? "" : "s"}${memory}`);
}

/** Dawn for Node as the `webgpu` package exports it. */
interface Dawn {
    create(flags: string[]): GPU;
    globals: Record<string, unknown>;
}

/** Why `--gpu` cannot run here, as an error the CLI prints. */
export class BakeGpuError extends Error {
    public override readonly name = "BakeGpuError";
}

function describeAdapter(info: GPUAdapterInfo | undefined): string {
    const parts = [info?.vendor, info?.architecture, info?.device, info?.description].filter(
        (part): part is string => typeof part === "string" && part.length > 0
    );
    return parts.filter((part, index) => parts.indexOf(part) === index).join(" / ") || "unnamed adapter";
}

// Dawn frees its instance (and every device made from it) when the GPU object is collected.
let heldGpu: GPU | null = null;

/** The GPU simulation on the first adapter Dawn finds, starting from `state`; `watch` puts a deadline on its readbacks, work and compiles. */
export async function gpuBakeDevice(state: ErosionStateData, patchSize: number, watch: WaitWatch | null = null): Promise<BakeDevice> {
    let dawn: Dawn;
    try {
        dawn = (await import("webgpu")) as unknown as Dawn;
    } catch (error) {
        throw new BakeGpuError(
            `--gpu needs the optional package "webgpu" (Dawn for Node), which could not be loaded ` +
                `(${error instanceof Error ? error.message : String(error)}). Install it with \`npm install webgpu\`, or bake on the CPU without --gpu.`
        );
    }
    Object.assign(globalThis, dawn.globals);
    heldGpu = dawn.create([]);
    const adapter = await heldGpu.requestAdapter({ powerPreference: "high-performance" });
    if (!adapter) {
        throw new BakeGpuError(
            "--gpu: Dawn found no GPU adapter (no Vulkan, Metal or D3D12 driver it can use). Bake on the CPU " +
                "without --gpu, or point VK_ICD_FILENAMES at a Vulkan driver (SwiftShader runs WGSL on the CPU)."
        );
    }
    const gpuDevice = await adapter.requestDevice({
        requiredLimits: { maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize, maxBufferSize: adapter.limits.maxBufferSize },
    });
    const description = `gpu, ${describeAdapter(adapter.info)} (Dawn for Node)`;
    const backend = await HeadlessGpuBackend.create(
        new WebGpuComputeDevice(gpuDevice, description), state, patchSize, () => gpuDevice.queue.onSubmittedWorkDone(), watch
    );
    return backendBakeDevice(backend, description, () => gpuDevice.destroy());
}
