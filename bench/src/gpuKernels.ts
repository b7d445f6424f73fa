/**
 * WebGPU kernel figures on any `GPUDevice`: Dawn for Node (bench/src/dawnMain.ts) and headless
 * Chromium (bench/pages/benchGpu.ts) run this same code.
 *
 * - Droplets: `erode_droplets` alone, `gpuDroplets(size)` droplets a dispatch over the whole field,
 *   several dispatches a run (each its own cycle number, so its own droplets). Steps are what the
 *   kernel counted (`COUNTER_DROPLET_STEPS`), read back after each run.
 * - Masked droplets (`droplet-masked`, brush radius 3): the same with the hydraulic mask
 *   `benchMask(size)` bound and `hydraulicMasked` set.
 * - Thermal: `thermal_flux` + `thermal_apply` over the whole field, several steps a run.
 * - Thermal's channel rule gets zero drainage areas (it never applies), as on the CPU.
 * - Rivers: whole river batches through `GpuErosionSimulation` on the same device, from a new
 *   state every run (see gpuRivers.ts, which also says how they are timed).
 * - Maps texture: `write_maps` over the whole field into an RGBA32F storage texture (bound directly
 *   on the `GPUDevice`: `WebGpuComputeDevice` leaves storage textures to Babylon), the drainage
 *   directions read from the field's priority-flood fill levels, several passes a run.
 * - Maps readback: the three maps (water, wear, deposition) read back as `readMaps` does (three
 *   buffers copied and mapped at once); wall time, several readbacks a run.
 * Timing (all but rivers): GPU timestamp queries around every compute pass where the device has `timestamp-query`
 * (the sum of the passes' durations), else the wall time from submit to `onSubmittedWorkDone`.
 * The number of dispatches a run is calibrated in the warm-up so a run takes about `targetMs`.
 */
import { type BatchParams, BATCH_PARAM_FIELDS, packBatchParams, PARAMS_UNIFORM_BYTES, COUNTER_COUNT, COUNTER_DROPLET_STEPS, type ComputeBuffer, type KernelBindings, planDropletDispatch, BINDINGS, GRID_WORKGROUP_SIZE, kernelSource, KERNELS, type KernelName, WebGpuComputeDevice, THERMAL_SLOTS } from "../../plugin/advanced.js";
import { runGpuRiverFigure } from "./gpuRivers.js";
import { runGpuWaterFigure } from "./gpuWater.js";
import { runGpuEditFigures } from "./editFigures.js";
import { CHECKSUM_SIZES, runGpuChecksumFigures } from "./checksumFigures.js";
import { calibrate as calibrateUpTo, repeat, runCounts, summarize, type BenchRecord } from "./records.js";
import { benchHeights, benchMask, dropletBatch, gpuDroplets, MASKED_RADIUS, RADII, riverStartState, SIZES, thermalBatch } from "./workloads.js";

/** Most passes one run records (one params slot and two timestamps each). */
const MAX_PASSES = 128;

/** Fewest droplets a dispatch (see the probe in `runGpuKernelBench`). */
const MIN_DROPLETS = 4096;

/** What to run. */
export interface GpuKernelBenchOptions {
    /** Record's `backend`: `webgpu-dawn` or `webgpu-chromium`. */
    backend: string;
    quick: boolean;
    /** Field sizes (default `SIZES`). */
    sizes?: readonly number[];
    /** Progress lines. */
    log?: (line: string) => void;
}

/** A readable description of an adapter (vendor, architecture, device, description). */
export function describeAdapter(info: GPUAdapterInfo | undefined): string {
    if (!info) {
        return "unknown adapter";
    }
    const parts = [info.vendor, info.architecture, info.device, info.description].filter((part) => typeof part === "string" && part.length > 0);
    const unique = parts.filter((part, index) => parts.indexOf(part) === index);
    return unique.length > 0 ? unique.join(" / ") : "unnamed adapter";
}

/** Features and limits to ask a device for: timestamp queries if offered, the adapter's largest buffers. */
export function benchDeviceDescriptor(adapter: GPUAdapter): GPUDeviceDescriptor {
    return {
        requiredFeatures: adapter.features.has("timestamp-query") ? ["timestamp-query"] : [],
        requiredLimits: {
            maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
            maxBufferSize: adapter.limits.maxBufferSize,
        },
    };
}

class PassTimer {
    private readonly _querySet: GPUQuerySet;
    private readonly _resolve: GPUBuffer;
    private readonly _read: GPUBuffer;
    private _passes = 0;

    constructor(device: GPUDevice) {
        this._querySet = device.createQuerySet({ type: "timestamp", count: 2 * MAX_PASSES });
        this._resolve = device.createBuffer({ size: 16 * MAX_PASSES, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
        this._read = device.createBuffer({ size: 16 * MAX_PASSES, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    }

    /** Adds timestamp writes to a pass descriptor. */
    public decorate = (descriptor: GPUComputePassDescriptor): void => {
        if (this._passes >= MAX_PASSES) {
            throw new Error("Internal error: too many timed passes in one run.");
        }
        descriptor.timestampWrites = { querySet: this._querySet, beginningOfPassWriteIndex: 2 * this._passes, endOfPassWriteIndex: 2 * this._passes + 1 };
        this._passes++;
    };

    /** Records the resolve on `encoder`; call before submitting. */
    public resolve(encoder: GPUCommandEncoder): void {
        encoder.resolveQuerySet(this._querySet, 0, 2 * this._passes, this._resolve, 0);
        encoder.copyBufferToBuffer(this._resolve, 0, this._read, 0, 16 * this._passes);
    }

    /** After the submit: the summed duration of the timed passes, in seconds. */
    public async seconds(): Promise<number> {
        const passes = this._passes;
        this._passes = 0;
        await this._read.mapAsync(GPUMapMode.READ, 0, 16 * passes);
        const stamps = new BigUint64Array(this._read.getMappedRange(0, 16 * passes).slice(0));
        this._read.unmap();
        let total = 0n;
        for (let pass = 0; pass < passes; pass++) {
            total += stamps[2 * pass + 1] - stamps[2 * pass];
        }
        return Number(total) / 1e9;
    }

    public destroy(): void {
        this._querySet.destroy();
        this._resolve.destroy();
        this._read.destroy();
    }
}

/** The write_maps pipeline on a bare `GPUDevice`, with its storage texture bound directly. */
async function createMapsPipeline(device: GPUDevice): Promise<GPUComputePipeline> {
    const module = device.createShaderModule({ label: "bench.write_maps", code: kernelSource("write_maps") });
    const info = await module.getCompilationInfo();
    const errors = info.messages.filter((message) => message.type === "error");
    if (errors.length > 0) {
        throw new Error(`WGSL kernel write_maps failed to compile:\n${errors.map((message) => `${message.lineNum}:${message.linePos} ${message.message}`).join("\n")}`);
    }
    return device.createComputePipelineAsync({ label: "bench.write_maps", layout: "auto", compute: { module, entryPoint: "main" } });
}

/** Runs the droplet, masked droplet, thermal, rivers and maps figures on `device`. */
export async function runGpuKernelBench(device: GPUDevice, adapterDescription: string, options: GpuKernelBenchOptions): Promise<BenchRecord[]> {
    const log = options.log ?? (() => undefined);
    const counts = runCounts(options.quick);
    const targetMs = options.quick ? 150 : 400;
    const compute = new WebGpuComputeDevice(device, adapterDescription);
    await compute.prepareKernels(["erode_droplets", "thermal_flux", "thermal_apply"]);
    const mapsPipeline = await createMapsPipeline(device);
    const timer = device.features.has("timestamp-query") ? new PassTimer(device) : null;
    const params: ComputeBuffer[] = [];
    for (let slot = 0; slot < MAX_PASSES; slot++) {
        params.push(compute.createBuffer(`bench.params${slot}`, PARAMS_UNIFORM_BYTES, "uniform"));
    }
    const packed = new Int32Array(BATCH_PARAM_FIELDS.length);
    const writeParams = (slot: number, batch: BatchParams): ComputeBuffer => {
        packBatchParams(batch, packed);
        compute.writeBuffer(params[slot], packed);
        return params[slot];
    };
    const records: BenchRecord[] = [];
    const report = (record: BenchRecord) => {
        records.push(record);
        log(`  ${record.backend} ${record.kernel} ${record.size}² r${record.brushRadius ?? "-"}: median ${(record.median / 1e6).toPrecision(4)} M ${record.unit} (${record.detail})`);
    };

    /** Submits what is recorded and times it; returns seconds and the timing method. */
    const timeSubmit = async (): Promise<{ seconds: number; method: string }> => {
        timer?.resolve(compute.encoder);
        const started = performance.now();
        compute.submit();
        await device.queue.onSubmittedWorkDone();
        const wall = (performance.now() - started) / 1000;
        if (timer) {
            const gpu = await timer.seconds();
            // Trust the timestamps only when they are plausible next to the wall time.
            if (gpu > 0 && gpu <= wall * 1.5) {
                return { seconds: gpu, method: "GPU timestamp queries" };
            }
        }
        return { seconds: wall, method: "submit to onSubmittedWorkDone" };
    };

    try {
        for (const size of options.sizes ?? SIZES) {
            const bytes = size * size * 4;
            const heights = compute.createBuffer("bench.heights", bytes);
            const delta = compute.createBuffer("bench.delta", bytes);
            const counters = compute.createBuffer("bench.counters", COUNTER_COUNT * 8);
            const brush = compute.createBuffer("bench.brush", 4096);
            // Every other buffer a kernel binds (a mask it does not read without its flag, the
            // erosion maps it counts into, the drainage area and suspended load of thermal's
            // channel rule: zero drainage, so the rule never applies): one zero-filled field-sized
            // buffer per name, so the kernels run as the GPU backend dispatches them.
            const extras = new Map<string, ComputeBuffer>();
            const bind = (kernel: KernelName, given: KernelBindings): KernelBindings => {
                const bindings: KernelBindings = { ...given };
                for (const name of KERNELS[kernel].bindings) {
                    if (!bindings[name]) {
                        let buffer = extras.get(name);
                        if (!buffer) {
                            buffer = compute.createBuffer(`bench.${name}`, bytes);
                            extras.set(name, buffer);
                        }
                        bindings[name] = buffer;
                    }
                }
                return bindings;
            };
            const zeros = new Int32Array(size * size);
            compute.writeBuffer(heights, benchHeights(size));

            const mask = compute.createBuffer("bench.hydraulicMask", bytes);
            compute.writeBuffer(mask, benchMask(size));
            const dropletFigures = [...RADII.map((brushRadius) => ({ brushRadius, masked: false })), { brushRadius: MASKED_RADIUS, masked: true }];
            for (const { brushRadius, masked } of dropletFigures) {
                const first = dropletBatch(size, brushRadius, 1, 0);
                if (first.brush.length > 0) {
                    compute.writeBuffer(brush, first.brush);
                }
                let nextCycle = 0;
                /** Runs `dispatches` dispatches of `droplets` droplets, each its own cycle; returns steps and time. */
                const runDroplets = async (droplets: number, dispatches: number) => {
                    const dispatch = planDropletDispatch(droplets, compute.maxWorkgroupsPerDimension);
                    compute.writeBuffer(delta, zeros);
                    compute.writeBuffer(counters, new Uint32Array(COUNTER_COUNT * 2));
                    await device.queue.onSubmittedWorkDone();
                    compute.setPassDecorator(timer ? timer.decorate : null);
                    for (let k = 0; k < dispatches; k++) {
                        const { params: batch } = dropletBatch(size, brushRadius, droplets, nextCycle++, masked);
                        batch.dispatchRowThreads = dispatch.rowThreads;
                        compute.dispatch("erode_droplets", bind("erode_droplets", masked ? { params: writeParams(k, batch), heights, delta, brush, counters, mask } : { params: writeParams(k, batch), heights, delta, brush, counters }), dispatch.x, dispatch.y, 1);
                    }
                    compute.setPassDecorator(null);
                    const timed = await timeSubmit();
                    const words = new Uint32Array(await compute.readBuffer(counters, COUNTER_DROPLET_STEPS * 8, 8));
                    return { steps: words[0] + words[1] * 2 ** 32, ...timed };
                };
                // A probe dispatch (also a warm-up) sizes the work: gpuDroplets(size) droplets a
                // dispatch, halved while one dispatch would take longer than `targetMs` (a software
                // adapter such as SwiftShader), but not below MIN_DROPLETS.
                const probeDroplets = Math.min(MIN_DROPLETS, gpuDroplets(size));
                const probe = await runDroplets(probeDroplets, 1);
                const stepsInTarget = (probe.steps / probe.seconds) * (targetMs / 1000);
                let droplets = gpuDroplets(size);
                while (droplets > MIN_DROPLETS && (droplets * probe.steps) / probeDroplets > stepsInTarget) {
                    droplets >>= 1;
                }
                let dispatches = 1;
                let method = "";
                const values = await repeat(counts, async (run) => {
                    const result = await runDroplets(droplets, dispatches);
                    method = result.method;
                    if (run === 0) {
                        dispatches = calibrate(result.seconds, dispatches, targetMs);
                    }
                    return result.steps / result.seconds;
                });
                const maskDetail = masked ? "; hydraulic mask benchMask (32-cell checkerboard, half held out, the rest a 1/32..1 ramp)" : "";
                report({ backend: options.backend, kernel: masked ? "droplet-masked" : "droplet", size, brushRadius, threads: null, unit: "steps/s", ...summarize(values), runs: counts.runs, detail: `${droplets} droplets a dispatch, ${dispatches} dispatch${dispatches > 1 ? "es" : ""} a run${maskDetail}; erode_droplets only; ${method}` });
            }

            const { params: batch, iterations } = thermalBatch(size);
            const flux = compute.createBuffer("bench.flux", bytes * THERMAL_SLOTS);
            const region = [Math.ceil((batch.regionX1 - batch.regionX0) / GRID_WORKGROUP_SIZE), Math.ceil((batch.regionY1 - batch.regionY0) / GRID_WORKGROUP_SIZE)];
            const patch = [Math.ceil((batch.patchX1 - batch.patchX0) / GRID_WORKGROUP_SIZE), Math.ceil((batch.patchY1 - batch.patchY0) / GRID_WORKGROUP_SIZE)];
            const cellsPerStep = (batch.patchX1 - batch.patchX0) * (batch.patchY1 - batch.patchY0);
            let steps = iterations;
            let method = "";
            const values = await repeat(counts, async (run) => {
                const slot = writeParams(0, batch);
                compute.setPassDecorator(timer ? timer.decorate : null);
                for (let step = 0; step < steps; step++) {
                    compute.dispatch("thermal_flux", bind("thermal_flux", { params: slot, heights, flux }), patch[0], patch[1], 1);
                    compute.dispatch("thermal_apply", bind("thermal_apply", { params: slot, heights, flux, counters }), region[0], region[1], 1);
                }
                compute.setPassDecorator(null);
                const timed = await timeSubmit();
                method = timed.method;
                const cells = cellsPerStep * steps;
                if (run === 0) {
                    steps = Math.min(MAX_PASSES / 2, calibrate(timed.seconds, steps, targetMs));
                }
                return cells / timed.seconds;
            });
            report({ backend: options.backend, kernel: "thermal", size, brushRadius: null, threads: null, unit: "cells/s", ...summarize(values), runs: counts.runs, detail: `${steps} step${steps > 1 ? "s" : ""} (flux + apply) a run over the whole field; ${method}` });

            // Rivers: whole batches through GpuErosionSimulation (gpuRivers.ts).
            report(await runGpuRiverFigure(compute, device, size, { backend: options.backend, counts, targetMs }));
            // Shallow water: whole steps through GpuErosionSimulation (gpuWater.ts).
            report(await runGpuWaterFigure(compute, device, size, { backend: options.backend, counts, targetMs }));
            // Ground edits: one edit's batch each (editFigures.ts).
            if (size === 512) for (const record of await runGpuEditFigures(compute, device, size, { backend: options.backend, counts })) report(record);
            // Region checksums: a full set at 512² and at a world's 4096² (checksumFigures.ts).
            if (size === 512) for (const checksumSize of CHECKSUM_SIZES) report(await runGpuChecksumFigures(compute, device, checksumSize, { backend: options.backend, counts }));

            // The maps texture: write_maps over the whole field into an RGBA32F storage texture. The
            // pass is bound here on the GPUDevice (its buffers too: wrapped for the readback below).
            const rawBuffer = (label: string, byteLength: number, data: ArrayBufferView, binding: number = GPUBufferUsage.STORAGE) => {
                const buffer = device.createBuffer({ label, size: byteLength, usage: binding | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
                device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
                return buffer;
            };
            packBatchParams(batch, packed);
            const mapsRaw: Record<(typeof KERNELS.write_maps.bindings)[number], GPUBuffer> = {
                params: rawBuffer("bench.maps.params", PARAMS_UNIFORM_BYTES, packed, GPUBufferUsage.UNIFORM),
                heights: rawBuffer("bench.maps.heights", bytes, benchHeights(size)),
                fillLevels: rawBuffer("bench.maps.fillLevels", bytes, riverStartState(size).fillLevels),
                mapWater: rawBuffer("bench.maps.water", bytes, zeros),
                mapWear: rawBuffer("bench.maps.wear", bytes, zeros),
                mapDeposition: rawBuffer("bench.maps.deposition", bytes, zeros),
            };
            const mapsTexture = device.createTexture({ label: "bench.mapsTexture", size: [size, size], format: "rgba32float", usage: GPUTextureUsage.STORAGE_BINDING });
            const mapsBindGroup = device.createBindGroup({
                label: "bench.write_maps",
                layout: mapsPipeline.getBindGroupLayout(0),
                entries: [...KERNELS.write_maps.bindings.map((name) => ({ binding: BINDINGS[name], resource: { buffer: mapsRaw[name] } })), { binding: BINDINGS.mapsTexture, resource: mapsTexture.createView() }],
            });
            const groups = Math.ceil(size / GRID_WORKGROUP_SIZE);
            let mapsPasses = 1;
            const mapsValues = await repeat(counts, async (run) => {
                const encoder = compute.encoder;
                for (let pass = 0; pass < mapsPasses; pass++) {
                    const descriptor: GPUComputePassDescriptor = { label: "write_maps" };
                    timer?.decorate(descriptor);
                    const computePass = encoder.beginComputePass(descriptor);
                    computePass.setPipeline(mapsPipeline);
                    computePass.setBindGroup(0, mapsBindGroup);
                    computePass.dispatchWorkgroups(groups, groups);
                    computePass.end();
                }
                const timed = await timeSubmit();
                method = timed.method;
                const cells = size * size * mapsPasses;
                if (run === 0) {
                    mapsPasses = Math.min(MAX_PASSES - 1, calibrate(timed.seconds, mapsPasses, targetMs));
                }
                return cells / timed.seconds;
            });
            report({ backend: options.backend, kernel: "maps-texture", size, brushRadius: null, threads: null, unit: "cells/s", ...summarize(mapsValues), runs: counts.runs, detail: `${mapsPasses} write_maps pass${mapsPasses > 1 ? "es" : ""} a run over the whole field into an RGBA32F storage texture (drainage directions from the field's fill levels); ${method}` });
            mapsTexture.destroy();

            // The maps read back: three field-sized buffers copied and mapped at once, as readMaps does.
            const mapBuffers = (["mapWater", "mapWear", "mapDeposition"] as const).map((name) => compute.wrapExternalBuffer(`bench.maps.${name}`, mapsRaw[name], bytes)!);
            let readbacks = 1;
            const readValues = await repeat(counts, async (run) => {
                await device.queue.onSubmittedWorkDone();
                const started = performance.now();
                for (let read = 0; read < readbacks; read++) {
                    await Promise.all(mapBuffers.map((buffer) => compute.readBuffer(buffer, 0, bytes)));
                }
                const seconds = (performance.now() - started) / 1000;
                const cells = size * size * readbacks;
                if (run === 0) {
                    readbacks = calibrate(seconds, readbacks, targetMs);
                }
                return cells / seconds;
            });
            report({ backend: options.backend, kernel: "maps-readback", size, brushRadius: null, threads: null, unit: "cells/s", ...summarize(readValues), runs: counts.runs, detail: `${readbacks} readback${readbacks > 1 ? "s" : ""} a run of the three maps (water, wear, deposition: 3 x 4 bytes a cell), each copied to a staging buffer and mapped, the three at once as readMaps does; wall time from the first copy to the last mapped range` });

            for (const buffer of [heights, delta, counters, brush, flux, mask, ...extras.values()]) {
                compute.destroyBuffer(buffer);
            }
            for (const buffer of Object.values(mapsRaw)) {
                buffer.destroy();
            }
        }
    } finally {
        for (const buffer of params) {
            compute.destroyBuffer(buffer);
        }
        timer?.destroy();
        compute.dispose();
    }
    return records;
}

/** Work units a run should do to take about `targetMs` (at most `MAX_PASSES`), from a run of `units` that took `seconds`. */
function calibrate(seconds: number, units: number, targetMs: number): number {
    return calibrateUpTo(seconds, units, targetMs, MAX_PASSES);
}
