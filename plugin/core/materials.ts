/**
 * Two materials: bedrock, and loose soil over it (docs/simulation.md, "Materials").
 *
 * The heights stay the surface; the soil is a thickness per vertex on top of the rock (rock =
 * height - soil). Every pass that changes heights keeps the soil by one rule (`soilAfter`): a
 * change that lowers a vertex takes the soil first and then rock, one that raises it lays down
 * soil. The operators decide how much they take; where what they take is rock, they take
 * 1 / hardness of it (`rockTaken`). The hardness is a Q8 factor per vertex (256 = as soft as the
 * soil) times the `materials.hardness` option.
 *
 * The grids are part of the state once the materials have run (null before, like the water's), so
 * a run without them hashes, snapshots and uploads exactly as before.
 */
import type { BatchParams } from "./batchParams.js";
import { FIXED_ONE, mulQ16 } from "./fixedPoint.js";
import { hash4 } from "./hash.js";

/** Hardness 1 (as soft as the soil) in the Q8 the kernels use. */
export const HARDNESS_ONE = 256;

/** Largest hardness, Q8 (1000 times the soil's). */
export const HARDNESS_MAX = 1000 * HARDNESS_ONE;

/**
 * The materials' grids, in fingerprint, snapshot and GPU-buffer order: the soil's thickness
 * (fixed point, never negative) and the rock's hardness factor (Q8, 256 = 1).
 */
export const MATERIAL_GRIDS = ["soil", "hardness"] as const;

/** The name of one of the materials' grids. */
export type MaterialGridName = (typeof MATERIAL_GRIDS)[number];

/** The materials' state: soil thickness (fixed point) and hardness factor (Q8) per vertex. */
export type MaterialGrids = Record<MaterialGridName, Int32Array>;

/** Fresh materials: `soilUnits` of soil on every vertex, hardness factor 1 everywhere. */
export function createMaterialGrids(cells: number, soilUnits: number): MaterialGrids {
    return { soil: new Int32Array(cells).fill(soilUnits), hardness: new Int32Array(cells).fill(HARDNESS_ONE) };
}

/** Copies of the grids. */
export function cloneMaterialGrids(materials: MaterialGrids): MaterialGrids {
    return { soil: materials.soil.slice(), hardness: materials.hardness.slice() };
}

/** `materials.initialSoil` (cells) as fixed-point units, rounded to nearest. */
export function initialSoilUnits(cells: number): number {
    return Math.round(cells * FIXED_ONE);
}

/** `materials.hardness` as Q8, rounded to nearest, within [HARDNESS_ONE, HARDNESS_MAX]. */
export function hardnessQ8(hardness: number): number {
    return Math.min(HARDNESS_MAX, Math.max(HARDNESS_ONE, Math.round(hardness * HARDNESS_ONE)));
}

/** Thickest soil a vertex holds (2^30 - 1 units, the top of the height range): a sum with any i32 change stays exact in WGSL. */
export const SOIL_LIMIT = 2 ** 30 - 1;

/**
 * The soil after a vertex's height changes by `change`: raised, the change is laid down as soil;
 * lowered, it comes out of the soil first (never below none; the rest was rock). Kept within
 * [0, SOIL_LIMIT]. Mirrors `soilAfter` in `shaders/materials.wgsl`.
 */
export function soilAfter(soil: number, change: number): number {
    const next = soil + change;
    return next <= 0 ? 0 : next > SOIL_LIMIT ? SOIL_LIMIT : next;
}

/**
 * What an operator that would take `amount` of soil takes of rock of hardness `hardness` (Q8, at
 * least HARDNESS_ONE): floor(amount x 256 / hardness), computed in two parts so that no product
 * leaves an i32 (amount / hardness x 256 is at most amount; the remainder x 256 is under 2^26).
 * Exactly `amount` at hardness 1. Mirrors `rockTaken` in `shaders/materials.wgsl`.
 */
export function rockTaken(amount: number, hardness: number): number {
    const whole = Math.floor(amount / hardness);
    const rest = amount - whole * hardness;
    return whole * HARDNESS_ONE + Math.floor((rest * HARDNESS_ONE) / hardness);
}

/** The effective hardness of a vertex's rock, Q8: its factor times its bed's (`bedHardness`), floored, at least HARDNESS_ONE, at most HARDNESS_MAX. Mirrors `rockHardness` in `shaders/materials.wgsl`. */
export function rockHardness(factor: number, optionQ8: number): number {
    // factor = 256 a + b: the product over 256 is a x option + floor(b x option / 256), each part
    // inside an i32 (as the WGSL computes it).
    const product = (factor >> 8) * optionQ8 + (((factor & 255) * optionQ8) >> 8);
    return product < HARDNESS_ONE ? HARDNESS_ONE : product > HARDNESS_MAX ? HARDNESS_MAX : product;
}

/**
 * What a thermal step moves from a vertex toward one neighbour with the materials on, before the
 * mask: the soil sheds `rate` of its excess over the soil's threshold, at most `soilShare` (its
 * soil over the neighbours, so it never gives more soil than it has); the rock sheds `rate` of its
 * excess over the rock's threshold beyond what the soil gave, at 1 / hardness (`rockTaken`). With
 * equal thresholds and hardness 1 it is `rate` of the excess, as without materials. Mirrors
 * `thermalMaterialAmount` in `shaders/materials.wgsl`.
 */
export function thermalMaterialAmount(drop: number, soilThreshold: number, rockThreshold: number, rate: number, soilShare: number, hardness: number): number {
    const soilExcess = drop > soilThreshold ? mulQ16(drop - soilThreshold, rate) : 0;
    const soilPart = soilExcess < soilShare ? soilExcess : soilShare;
    const rockExcess = drop > rockThreshold ? mulQ16(drop - rockThreshold, rate) : 0;
    return soilPart + (rockExcess > soilPart ? rockTaken(rockExcess - soilPart, hardness) : 0);
}

/** The grids one after the other (`MATERIAL_GRIDS` order): the GPU's material buffer. */
export function packMaterials(materials: MaterialGrids): Int32Array {
    const cells = materials.soil.length;
    const packed = new Int32Array(cells * MATERIAL_GRIDS.length);
    MATERIAL_GRIDS.forEach((grid, index) => packed.set(materials[grid], index * cells));
    return packed;
}

/** The grids of a packed material buffer of `cells` vertices (copies). */
export function unpackMaterials(packed: Int32Array, cells: number): MaterialGrids {
    const grids = {} as MaterialGrids;
    MATERIAL_GRIDS.forEach((grid, index) => (grids[grid] = packed.slice(index * cells, (index + 1) * cells)));
    return grids;
}

/** Hash stream of the strata's beds (`hash4(strataSeed, bed, STRATA_STREAM, 0)`): apart from the droplets' and the events'. */
export const STRATA_STREAM = 0x53545241;

/**
 * The hardness (Q8) of the rock at (x, y) whose top is at `rock` (fixed point): with strata
 * (`params.strataThickness` > 0), the bed the rock's top lies in, tilted by the dip, is hard
 * (`strataHardness`) when the top 16 bits of `hash4(strataSeed, bed, STRATA_STREAM, 0)` fall below
 * `strataShare`; any other rock has `rockHardness`. Worked in 1/256 cells (`rock >> 8`), so no sum
 * leaves an i32. Mirrors `bedHardness` in `shaders/materials.wgsl`.
 */
export function bedHardness(params: BatchParams, rock: number, x: number, y: number): number {
    const thickness = params.strataThickness;
    if (thickness === 0) return params.rockHardness;
    const z = (rock >> 8) - params.strataBase - ((params.strataDipX * x + params.strataDipY * y) >> 8);
    const bed = Math.floor(z / thickness);
    if (params.strataBeds !== 0 && (bed < 0 || bed >= params.strataBeds)) return params.rockHardness;
    return hash4(params.strataSeed >>> 0, bed >>> 0, STRATA_STREAM, 0) >>> 16 < params.strataShare ? params.strataHardness : params.rockHardness;
}

/** The hardness (Q8) of vertex i at (x, y) with the materials on: its factor times its bed's (`bedHardness` of the rock under its soil). */
export function vertexHardness(params: BatchParams, heights: Int32Array, materials: MaterialGrids, i: number, x: number, y: number): number {
    return rockHardness(materials.hardness[i], bedHardness(params, heights[i] - materials.soil[i], x, y));
}

/**
 * What an operator that would cut `cut` (>= 0) from a vertex with `soil` over rock of Q8 hardness
 * `hardness` cuts: the soil first, then the rest of the cut at 1 / hardness (`rockTaken`). At most
 * `cut`; exactly `cut` at hardness 1. Mirrors `materialCut` in `shaders/materials.wgsl`.
 */
export function materialCut(cut: number, soil: number, hardness: number): number {
    const fromSoil = cut < soil ? cut : soil;
    return fromSoil + rockTaken(cut - fromSoil, hardness);
}

/**
 * The rock's angle of repose (a threshold, Q16) at Q8 hardness `hardness`: the soil's, plus the
 * way from it up to the rock option's (`thermal.talus`) in proportion to 1 - 1 / hardness, so rock
 * as soft as the soil slides like it and hard rock stands near the rock's angle (cliffs of hard
 * beds over slopes of soft ones). In Q8 steps, each product inside an i32. Mirrors
 * `rockThreshold` in `shaders/materials.wgsl`.
 */
export function rockThreshold(soilThreshold: number, rockOption: number, hardness: number): number {
    const fraction = Math.floor(((hardness - HARDNESS_ONE) * HARDNESS_ONE) / hardness);
    const span = rockOption - soilThreshold;
    return soilThreshold + (span >> 8) * fraction + (((span & 255) * fraction) >> 8);
}
