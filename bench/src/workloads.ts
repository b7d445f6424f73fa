/**
 * The work every backend's kernel figures measure, defined once so the CPU, Dawn and Chromium
 * figures are comparable:
 * - the field: a `size x size` fBm + ridged noise terrain with 100 m of relief (seed 1);
 * - a droplet batch: the whole field as one patch, default options (64 steps, inertia 0.3...), the
 *   given brush radius, and a fixed number of droplets per batch (`cpuDroplets`, `gpuDroplets`);
 *   each run uses another cycle number, so another set of droplets;
 * - a masked droplet batch (`droplet-masked`): the same batch with `benchMask(size)` as the
 *   hydraulic mask (a fixed 0..1 pattern that holds half the field out), brush radius 3 only;
 * - a thermal batch: the whole field as one patch, default options (8 neighbours, 2 steps);
 * - a river batch: the whole field as one patch, default river options (`stepsPerBatch` 32
 *   drainage-area propagation steps a batch, no uplift), run as the
 *   backends run one (`runRiverBatch`, `GpuErosionSimulation.runBatch`): river slots, 32 x
 *   (accumulate + copy), erode, uplift, settle over the patch, 32 hops of the sediment routing, then
 *   apply, fill levels and copy levels over the patch grown by 32; every run starts from a new
 *   state (`riverStartState`: the field's heights, drainage area 1, priority-flood fill levels,
 *   nothing suspended);
 * - the erosion maps: `write_maps` (the RGBA32F texture a material samples) over the whole field,
 *   and the readback of the three maps (water, wear, deposition) as `readMaps` does it.
 * A droplet step is one cell of one droplet's walk (`COUNTER_DROPLET_STEPS`, counted by the
 * kernels themselves); a thermal cell is one vertex through one relaxation step (flux and apply);
 * a river cell is one vertex of the patch through one whole river batch (counted once: size^2
 * cells a batch, not size^2 x 32 propagation steps, and not the routing's wider extent); a maps
 * cell is one vertex written into the texture, or one vertex of all three maps read back.
 */
import { buildBatchParams, type BatchParams, brushEntryCount, buildBrush, createInitialState, type ErosionStateData, layoutPatches, type Patch, runRiverBatch, createRiverScratch, RiverBandWork } from "../../plugin/advanced.js";
import { heightsToFixed, resolveOptions, type ErosionOptions } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";

/** Field sizes (vertices per side) of the kernel figures. */
export const SIZES = [256, 512, 1024] as const;

/** Brush radii of the droplet figures. */
export const RADII = [0, 3] as const;

/** Brush radius of the masked droplet figures. */
export const MASKED_RADIUS = 3;

/** Side of the squares of the benchmark mask's checkerboard, cells. */
export const MASK_SQUARE = 32;

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

const masks = new Map<number, Int32Array>();

/**
 * The hydraulic mask of the masked droplet figures, Q16 per vertex (cached per size): a
 * checkerboard of `MASK_SQUARE`-cell squares, every other square held out (0: half the field), the
 * others a ramp across the square from 1/32 at its left column to 1 at its right
 * (`((x mod 32) + 1) / 32`), so the walk meets every kind of value: none, partial and full.
 */
export function benchMask(size: number): Int32Array {
    let mask = masks.get(size);
    if (!mask) {
        mask = new Int32Array(size * size);
        for (let y = 0; y < size; y++) {
            for (let x = 0; x < size; x++) {
                const heldOut = (Math.floor(x / MASK_SQUARE) + Math.floor(y / MASK_SQUARE)) % 2 === 0;
                mask[y * size + x] = heldOut ? 0 : ((x % MASK_SQUARE) + 1) * (65536 / MASK_SQUARE);
            }
        }
        masks.set(size, mask);
    }
    return mask;
}

/**
 * Options of the benchmark batches. The river options are the defaults (rivers enabled, so every
 * batch's params carry `channelArea` 20; the thermal figures pass zero drainage areas, so the
 * channel rule never applies there).
 */
export function benchOptions(size: number, brushRadius: number, droplets: number): ErosionOptions {
    return resolveOptions({ patchSize: Math.min(1024, size), hydraulic: { dropletsPerBatch: droplets, brushRadius } });
}

/**
 * A droplet batch over the whole field; `cycle` picks the droplets. With `masked`, the batch
 * reads `benchMask(size)` (returned as `mask`) as its hydraulic mask.
 */
export function dropletBatch(size: number, brushRadius: number, droplets: number, cycle: number, masked = false): { params: BatchParams; brush: Int32Array; mask: Int32Array | null } {
    const options = benchOptions(size, brushRadius, droplets);
    const brush = buildBrush(brushRadius);
    const patch = layoutPatches(size, size, options.patchSize)[0];
    const mask = masked ? benchMask(size) : null;
    return { params: buildBatchParams(options, { width: size, depth: size }, patch, "hydraulic", cycle, brushEntryCount(brush), { hydraulic: mask, thermal: null, rivers: null, uplift: null, rain: null }), brush, mask };
}

/** A thermal batch over the whole field, and its relaxation steps. */
export function thermalBatch(size: number): { params: BatchParams; iterations: number } {
    const options = benchOptions(size, 0, 1);
    const patch = layoutPatches(size, size, options.patchSize)[0];
    return { params: buildBatchParams(options, { width: size, depth: size }, patch, "thermal", 0, 0), iterations: options.thermal.iterations };
}

/**
 * A river batch over the whole field (or, with `side`, over a `side x side` patch at the field's
 * centre: the GPU figure shrinks it on an adapter too slow for one whole-field batch a run), and
 * its drainage-area propagation steps (`rivers.stepsPerBatch`). `cells` is what one batch counts:
 * the patch's vertices, once (each goes through every step, the erosion and the fold).
 */
export function riverBatch(size: number, side = size): { params: BatchParams; patch: Patch; steps: number; cells: number } {
    const options = benchOptions(size, 0, 1);
    const x0 = (size - side) >> 1;
    const patch = side === size ? layoutPatches(size, size, options.patchSize)[0] : { index: 0, x0, y0: x0, x1: x0 + side, y1: x0 + side };
    const params = buildBatchParams(options, { width: size, depth: size }, patch, "rivers", 0, 0);
    return { params, patch, steps: options.rivers.stepsPerBatch, cells: (params.patchX1 - params.patchX0) * (params.patchY1 - params.patchY0) };
}

const riverStarts = new Map<number, ErosionStateData>();

/**
 * The start of every river run (cached per size; copy it, never run on it): a new state over the
 * benchmark field (drainage area 1 everywhere, priority-flood fill levels, nothing suspended).
 */
export function riverStartState(size: number): ErosionStateData {
    let state = riverStarts.get(size);
    if (!state) {
        state = createInitialState(size, size, benchHeights(size));
        riverStarts.set(size, state);
    }
    return state;
}

/** River batches run on a new state to make `riverWarmState`. */
export const RIVER_WARM_BATCHES = 4;

const riverWarmStarts = new Map<number, ErosionStateData>();

/**
 * The start of a warm river run (cached per size; copy it, never run on it): `riverStartState`
 * after RIVER_WARM_BATCHES whole-field river batches, as a cycle finds the state once the
 * component has run a few: drainage areas that persist and are mostly caught up, heights already
 * cut. Most of a warm batch's drainage-area steps and sediment hops change few vertices.
 */
export function riverWarmState(size: number): ErosionStateData {
    let state = riverWarmStarts.get(size);
    if (!state) {
        const start = riverStartState(size);
        state = { ...start, heights: start.heights.slice(), fillLevels: start.fillLevels.slice(), drainageArea: start.drainageArea.slice(), suspended: start.suspended.slice(), counters: start.counters.slice() };
        const { params, steps } = riverBatch(size);
        const scratch = createRiverScratch(size * size);
        const work = RiverBandWork.create(size * size);
        const masks = { hydraulic: null, thermal: null, rivers: null, uplift: null, rain: null, hardness: null, soil: null };
        for (let batch = 0; batch < RIVER_WARM_BATCHES; batch++) runRiverBatch(params, steps, state, masks, scratch, work, null);
        riverWarmStarts.set(size, state);
    }
    return state;
}
