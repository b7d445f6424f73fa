/**
 * The cost of a full set of region checksums (`checksums-32`, ms a set: regions of 32 vertices,
 * what peers compare every few seconds), at 512² and 4096² (a world of 8 x 8 grounds of 512 is one
 * field of 4097², so the 4096² figure is the world's), with the shallow water's grids at 512² (both
 * kernels) and without at 4096². On the CPU, `regionChecksums` over the state (what the CPU
 * backend runs after copying the grids from its worker; the copy not counted). On WebGPU,
 * `GpuErosionSimulation.regionChecksums`: the kernel(s), submit, and reading back 8 bytes a region.
 */
import { createInitialState, GpuErosionSimulation, type ErosionStateData, type WebGpuComputeDevice } from "../../plugin/advanced.js";
import { regionChecksums } from "../../plugin/lockstep.js";
import { repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";
import { benchHeights } from "./workloads.js";

/** The sizes the figure is taken at: the bench terrain, and a world's field. */
export const CHECKSUM_SIZES = [512, 4096] as const;

/** The start state at `size`, with water grids (of a water run's scale) below 1024. */
function checksumState(size: number): ErosionStateData {
    const state = createInitialState(size, size, benchHeights(size));
    if (size < 1024) {
        const cells = size * size;
        const grid = (seed: number) => Int32Array.from({ length: cells }, (_, i) => Math.imul(i + seed, 2654435761) >> 12);
        state.water = { waterDepth: grid(1), waterSediment: grid(2), fluxX: grid(3), fluxY: grid(4), fluxD1: grid(5), fluxD2: grid(6), outflowScale: grid(7), waterNext: grid(8), sedimentNext: grid(9), groundChange: grid(10), velocityX: grid(11), velocityY: grid(12) };
    }
    return state;
}

const what = (size: number) => `a full set of region checksums, regions of 32 vertices (${Math.ceil(size / 32) ** 2} regions), ${size < 1024 ? "the state's 4 grids and the water's 10" : "the state's 4 grids (no water)"}`;

/** The CPU figures. */
export async function runCpuChecksumFigures(size: number, counts: RunCounts): Promise<BenchRecord> {
    const state = checksumState(size);
    const values = await repeat(counts, () => {
        const started = performance.now();
        regionChecksums(state, 32);
        return performance.now() - started;
    });
    return { backend: "cpu", kernel: "checksums-32", size, brushRadius: null, threads: 1, unit: "ms", ...summarize(values), runs: counts.runs, detail: `${what(size)}: regionChecksums over the state on one thread (the CPU backend first copies the grids from its worker, not counted)` };
}

/** The WebGPU figures on `compute` (whose `GPUDevice` is `device`). */
export async function runGpuChecksumFigures(compute: WebGpuComputeDevice, device: GPUDevice, size: number, options: { backend: string; counts: RunCounts }): Promise<BenchRecord> {
    const simulation = await GpuErosionSimulation.create(compute, size, size, 64);
    try {
        simulation.upload(checksumState(size));
        simulation.submit();
        await device.queue.onSubmittedWorkDone();
        const values = await repeat(options.counts, async () => {
            const started = performance.now();
            await simulation.regionChecksums(32);
            return performance.now() - started;
        });
        return { backend: options.backend, kernel: "checksums-32", size, brushRadius: null, threads: null, unit: "ms", ...summarize(values), runs: options.counts.runs, detail: `${what(size)}: region_checksums${size < 1024 ? " and region_checksums_water" : ""} (one invocation a region), submit, and the 8 bytes a region read back` };
    } finally {
        simulation.dispose();
    }
}
