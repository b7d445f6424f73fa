/**
 * The work every backend's kernel figures measure, defined once so the CPU, Dawn and Chromium
 * figures are comparable:
 * - the field: a `size x size` fBm + ridged noise terrain with 100 m of relief (seed 1);
 * - a droplet batch: the whole field as one patch, default options (64 steps, inertia 0.3...), the
 *   given brush radius, and a fixed number of droplets per batch (`cpuDroplets`, `gpuDroplets`);
 *   each run uses another cycle number, so another set of droplets;
 * - a thermal batch: the whole field as one patch, default options (8 neighbours, 2 steps).
 * A droplet step is one cell of one droplet's walk (`COUNTER_DROPLET_STEPS`, counted by the
 * kernels themselves); a thermal cell is one vertex through one relaxation step (flux and apply).
 */
import { buildBatchParams, type BatchParams } from "../../plugin/core/batchParams.js";
import { brushEntryCount, buildBrush } from "../../plugin/core/brush.js";
import { heightsToFixed } from "../../plugin/core/fixedPoint.js";
import { resolveOptions, type ErosionOptions } from "../../plugin/core/options.js";
import { layoutPatches } from "../../plugin/core/patches.js";
import { generateNoiseTerrain } from "../../plugin/terrain/noiseTerrain.js";

/** Field sizes (vertices per side) of the kernel figures. */
export const SIZES = [256, 512, 1024] as const;

/** Brush radii of the droplet figures. */
export const RADII = [0, 3] as const;

/** Droplets per CPU batch: one per 16 vertices (16384 at 512^2). */
export function cpuDroplets(size: number): number {
    return (size * size) >> 4;
}

/**
 * Droplets per GPU dispatch: one per 4 vertices (65536 at 512^2, 262144 at 1024^2), enough
 * invocations to fill a data-centre GPU at the larger sizes.
 */
export function gpuDroplets(size: number): number {
    return (size * size) >> 2;
}

const terrains = new Map<number, Int32Array>();

/** The benchmark field, fixed point (cached per size). */
export function benchHeights(size: number): Int32Array {
    let heights = terrains.get(size);
    if (!heights) {
        heights = heightsToFixed(generateNoiseTerrain({ width: size, depth: size, relief: 100, seed: 1 }));
        terrains.set(size, heights);
    }
    return heights;
}

/** Options of the benchmark batches. */
export function benchOptions(size: number, brushRadius: number, droplets: number): ErosionOptions {
    return resolveOptions({ patchSize: Math.min(1024, size), hydraulic: { dropletsPerBatch: droplets, brushRadius } });
}

/** A droplet batch over the whole field; `cycle` picks the droplets. */
export function dropletBatch(size: number, brushRadius: number, droplets: number, cycle: number): { params: BatchParams; brush: Int32Array } {
    const options = benchOptions(size, brushRadius, droplets);
    const brush = buildBrush(brushRadius);
    const patch = layoutPatches(size, size, options.patchSize)[0];
    return { params: buildBatchParams(options, { width: size, depth: size }, patch, "hydraulic", cycle, brushEntryCount(brush)), brush };
}

/** A thermal batch over the whole field, and its relaxation steps. */
export function thermalBatch(size: number): { params: BatchParams; iterations: number } {
    const options = benchOptions(size, 0, 1);
    const patch = layoutPatches(size, size, options.patchSize)[0];
    return { params: buildBatchParams(options, { width: size, depth: size }, patch, "thermal", 0, 0), iterations: options.thermal.iterations };
}
