/**
 * The shallow-water model's constants, state grids and integer helpers (Mei, Decaudin and Hu 2007,
 * "Fast hydraulic erosion simulation and visualization on GPU", made integer and exact).
 *
 * Water stands on every vertex as a depth (Q16 cells, like the heights). Between each vertex and
 * its 8 neighbours runs a virtual pipe whose flow carries over from step to step (the water's
 * momentum). Each pipe's flow is stored once, signed, at the vertex that owns it (a MAC-style edge
 * grid): `fluxX` from (x, y) to (x + 1, y), `fluxY` to (x, y + 1), `fluxD1` to (x + 1, y + 1), and
 * `fluxD2` from (x + 1, y) to (x, y + 1); positive is that direction. So every pipe is one integer
 * that both ends read, water leaves one vertex exactly as it reaches the other, and each grid stays
 * one `i32` per vertex (one buffer within WebGPU's default binding up to 4097^2).
 *
 * Why 8 pipes with the diagonals at half the axes' conductance: on a plane of slope S in any
 * direction n, the pipes' net flow is 2cS n (isotropic), and the outflow the limiter compares with
 * the water is 2cS along an axis and 2.12cS along a diagonal (6% apart). Mei's 4 pipes give 1.41
 * times more outflow along a diagonal, so wherever the limiter works (thin sheets of rain on
 * slopes) the flow along diagonals is 30% slower: the axis-aligned streaks peers report.
 */
import { mulQ16 } from "./fixedPoint.js";

// Math's functions as module constants: a global lookup of `Math` is many times slower in a vm
// context (jest's test environment, some worker sandboxes), and these run per pipe.
const { sqrt } = Math;

/** Conductance of an axis pipe, Q16 (1/8): flow gained per step per unit of surface difference. */
export const PIPE_AXIS_Q16 = 8192;
/** Conductance of a diagonal pipe, Q16 (1/16, half an axis pipe's: see the module comment). */
export const PIPE_DIAGONAL_Q16 = 4096;
/** Largest flow of one pipe in one step (2^26 - 1 units): eight pipes' worth still adds inside an `i32`. */
export const FLUX_LIMIT = 2 ** 26 - 1;
/** Deepest water a vertex holds (2^29 - 1 units, 8192 cells); more is removed and counted (`waterRemoved`). */
export const WATER_LIMIT = 2 ** 29 - 1;
/** Most sediment the water at one vertex holds (2^27 - 1 units); more is counted as `saturationRemoved`. */
export const WATER_SEDIMENT_LIMIT = 2 ** 27 - 1;
/** Largest gradient component the slope of the water's capacity uses (2^28 units): keeps `hypotenuse` in range. */
export const GRADIENT_COMPONENT_LIMIT = 2 ** 28;
/** Largest height difference a pipe sees (2^30 units): keeps surface differences inside an `i32`. */
export const SURFACE_DIFFERENCE_LIMIT = 2 ** 30;

/** The passes of one water step, in order, each a class of every patch (`cycleUnits.ts`). */
export const WATER_PASSES = ["flux", "scale", "limit", "transport", "erode", "depth", "apply"] as const;

/**
 * The water state's grids, in fingerprint and snapshot order: the depth and its sediment, the four
 * pipes, and what one pass of a step hands the next (the limiter's factors, the water and sediment
 * after the exchange, the ground's change), which are zero between steps (the pass that reads a
 * vertex's value last clears it) and are state only so that a snapshot taken between two passes
 * of a step resumes exactly.
 */
export const WATER_GRIDS = [
    "waterDepth",
    "waterSediment",
    "fluxX",
    "fluxY",
    "fluxD1",
    "fluxD2",
    "outflowScale",
    "waterNext",
    "sedimentNext",
    "groundChange",
] as const;

/** The name of one of the water state's grids. */
export type WaterGridName = (typeof WATER_GRIDS)[number];

/**
 * The water's velocity (Q16 cells a step along x and along y, per vertex: `waterVelocityAt`), as
 * each vertex's last depth pass left it. A view the water carries beside its state, not state: no
 * kernel that changes the state reads it, so it is left out of the fingerprint, snapshots and region
 * checksums (a snapshot's load works it out again: `refreshWaterVelocity`). It exists because the
 * pipes change in place during a step (raw, then limited, before the depth they move is written):
 * the maps and the `shallowWater` texture read the velocity from here, so what they show mid-step is
 * the last completed depth pass's, never a pipe against a depth of another step.
 */
export const WATER_VIEW_GRIDS = ["velocityX", "velocityY"] as const;

/** The name of one of the water's view grids. */
export type WaterViewGridName = (typeof WATER_VIEW_GRIDS)[number];

/**
 * Every grid the water carries: the state's (`WATER_GRIDS`), then the views (`WATER_VIEW_GRIDS`).
 * What moves with a state between devices, workers and copies.
 */
export const WATER_CARRIED_GRIDS = [...WATER_GRIDS, ...WATER_VIEW_GRIDS] as const;

/**
 * The water state: depth and the sediment it carries per vertex (Q16 cells), the four pipe grids
 * (Q16 cells of depth per step) and the hand-over grids; and the velocity it carries as a view
 * (`WATER_VIEW_GRIDS`). Part of the simulation state once water has run.
 */
export type WaterGrids = Record<WaterGridName | WaterViewGridName, Int32Array>;

/** Dry ground: every grid zero. */
export function createWaterGrids(cells: number): WaterGrids {
    const grids = {} as WaterGrids;
    for (const name of WATER_CARRIED_GRIDS) {
        grids[name] = new Int32Array(cells);
    }
    return grids;
}

/** Copies of the grids (a view grid the water lacks, as a state made by hand may, zero: still water until its first depth pass). */
export function cloneWaterGrids(water: WaterGrids): WaterGrids {
    const grids = {} as WaterGrids;
    for (const name of WATER_CARRIED_GRIDS) {
        grids[name] = water[name]?.slice() ?? new Int32Array(water.waterDepth.length);
    }
    return grids;
}

/**
 * a x f / 2^16 truncated toward zero, for |a| < 2^31 and 0 <= f <= 2^16: so a value and its mirror
 * image (its negation) scale to a value and its negation. Mirrors `truncMulQ16` in `water_common.wgsl`.
 */
export function truncMulQ16(a: number, f: number): number {
    return a >= 0 ? mulQ16(a, f) : -mulQ16(-a, f);
}

/**
 * floor(part x 2^16 / whole), for 0 <= part <= whole < 2^31, whole > 0 (65536 when part = whole):
 * what fraction of `whole` `part` is, in Q16. Exact in doubles (both below 2^53). Mirrors
 * `fractionQ16` in `water_common.wgsl`, which divides bit by bit.
 */
export function fractionQ16(part: number, whole: number): number {
    // The quotient is below 2^16, so truncating (`| 0`) floors it.
    return part >= whole ? 65536 : ((part * 65536) / whole) | 0;
}

/**
 * floor(sqrt(a^2 + b^2)) to about 15 significant bits, for |a|, |b| < 2^29: both are shifted right
 * until the larger is below 2^15 (so the sum of squares fits 31 bits), the root is taken and shifted
 * back (at most 14 places, so the result stays below 2^31). Mirrors `hypotenuse` in
 * `water_common.wgsl`.
 */
export function hypotenuse(a: number, b: number): number {
    let x = a < 0 ? -a : a;
    let y = b < 0 ? -b : b;
    let shift = 0;
    while (x >= 32768 || y >= 32768) {
        x >>= 1;
        y >>= 1;
        shift++;
    }
    // x^2 + y^2 < 2^31, so truncating the root (`| 0`) floors it.
    return (sqrt(x * x + y * y) | 0) << shift;
}

/**
 * Which pipes may carry the one-unit push (`water_flux`) in the water's step `step` of cycle
 * `cycle`, at `stepsPerCycle` steps a cycle: the step's count since the state's start, modulo 3,
 * picks the x pipes (0), the y pipes (1) or the diagonals (2). One set at a time keeps the units a
 * vertex may pass or take in one step to 2 on an axis (4 on the diagonals), which the push's rule
 * bounds so no pair swaps past level; every set takes its turn every 3 steps, and no set depends on
 * a vertex's place, so mirrored ground still gives mirrored water.
 */
export function unitPushPipesOf(cycle: number, stepsPerCycle: number, step: number): number {
    return ((cycle % 3) * (stepsPerCycle % 3) + step) % 3;
}
