/**
 * WebGPU kernel figures on any `GPUDevice`: Dawn for Node (bench/src/dawnMain.ts) and headless
 * Chromium (test/browser/pages/benchGpu.ts) run this same code.
 *
 * - Droplets: `erode_droplets` alone, `gpuDroplets(size)` droplets a dispatch over the whole field,
 *   several dispatches a run (each its own cycle number, so its own droplets). Steps are what the
 *   kernel counted (`COUNTER_DROPLET_STEPS`), read back after each run.
 * - Thermal: `thermal_flux` + `thermal_apply` over the whole field, several steps a run.
 * Timing: GPU timestamp queries around every compute pass where the device has `timestamp-query`
 * (the sum of the passes' durations), else the wall time from submit to `onSubmittedWorkDone`.
 * The number of dispatches a run is calibrated in the warm-up so a run takes about `targetMs`.
 */
import type { BatchParams } from "../../plugin/core/batchParams.js";
import { BATCH_PARAM_FIELDS, BATCH_PARAMS_STRIDE_BYTES, packBatchParams } from "../../plugin/core/batchParams.js";
import { COUNTER_COUNT, COUNTER_DROPLET_STEPS } from "../../plugin/core/counters.js";
import type { ComputeBuffer, KernelBindings } from "../../plugin/gpu/computeDevice.js";
import { planDropletDispatch } from "../../plugin/gpu/gpuSimulation.js";
import { GRID_WORKGROUP_SIZE, KERNELS, type KernelName } from "../../plugin/gpu/shaderLibrary.js";
import { WebGpuComputeDevice } from "../../plugin/gpu/webGpuComputeDevice.js";
import { THERMAL_SLOTS } from "../../plugin/core/thermalDirections.js";
import { repeat, runCounts, summarize, type BenchRecord } from "./records.js";
import { benchHeights, dropletBatch, gpuDroplets, RADII, SIZES, thermalBatch } from "./workloads.js";

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

/** Runs the droplet and thermal figures on `device`. */
export async function runGpuKernelBench(device: GPUDevice, adapterDescription: string, options: GpuKernelBenchOptions): Promise<BenchRecord[]> {
    const log = options.log ?? (() => undefined);
    const counts = runCounts(options.quick);
    const targetMs = options.quick ? 150 : 400;
    const compute = new WebGpuComputeDevice(device, adapterDescription);
    await compute.prepareKernels(["erode_droplets", "thermal_flux", "thermal_apply"]);
    const timer = device.features.has("timestamp-query") ? new PassTimer(device) : null;
    const params: ComputeBuffer[] = [];
    for (let slot = 0; slot < MAX_PASSES; slot++) {
        params.push(compute.createBuffer(`bench.params${slot}`, BATCH_PARAMS_STRIDE_BYTES));
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
            // erosion maps it counts into): one zero-filled field-sized buffer per name, so the
            // kernels run as the GPU backend dispatches them.
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

            for (const brushRadius of RADII) {
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
                        const { params: batch } = dropletBatch(size, brushRadius, droplets, nextCycle++);
                        batch.dispatchRowThreads = dispatch.rowThreads;
                        compute.dispatch("erode_droplets", bind("erode_droplets", { params: writeParams(k, batch), heights, delta, brush, counters }), dispatch.x, dispatch.y);
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
                report({ backend: options.backend, kernel: "droplet", size, brushRadius, threads: null, unit: "steps/s", ...summarize(values), runs: counts.runs, detail: `${droplets} droplets a dispatch, ${dispatches} dispatch${dispatches > 1 ? "es" : ""} a run; erode_droplets only; ${method}` });
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
                    compute.dispatch("thermal_flux", bind("thermal_flux", { params: slot, heights, flux }), patch[0], patch[1]);
                    compute.dispatch("thermal_apply", bind("thermal_apply", { params: slot, heights, flux, counters }), region[0], region[1]);
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

            for (const buffer of [heights, delta, counters, brush, flux, ...extras.values()]) {
                compute.destroyBuffer(buffer);
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

/** Work units a run should do to take about `targetMs`, from a run of `units` that took `seconds`. */
function calibrate(seconds: number, units: number, targetMs: number): number {
    const perUnitMs = (seconds * 1000) / units;
    return Math.max(1, Math.min(MAX_PASSES, Math.round(targetMs / Math.max(perUnitMs, 1e-3))));
}

