/**
 * Two materials: bedrock, and loose soil over it (docs/simulation.md, "Materials").
 *
 * The heights stay the surface; the soil is a thickness per vertex on top of the rock (rock =
 * height - soil). Every pass that changes heights keeps the soil by one rule (`soilAfter`): a
 * change that lowers a vertex takes the soil first and then rock, one that raises it lays down
 * soil. The operators decide how much they take; where what they take is rock, they take
 * 1 / hardness of it (`rockTaken`). The hardness (Q8, 256 = as soft as the soil) is a vertex's
 * factor (`materialGrids.ts`) times its bed's (`bedHardness`: `materials.hardness`, or a hard bed's
 * of the strata).
 *
 * The grids are part of the state once the materials have run (null before, like the water's), so
 * a run without them hashes, snapshots and uploads exactly as before.
 */
import { FIXED_ONE, mulQ16 } from "./fixedPoint.js";
import { hash4 } from "./hash.js";
import { HARDNESS_MAX, HARDNESS_ONE } from "./hardness.js";
import { MATERIAL_GRIDS, type MaterialGrids } from "./materialGrids.js";
import { MATERIAL_PARAM_FIELDS, type MaterialFields } from "./materialParams.js";

export type { MaterialFields } from "./materialParams.js";
export { HARDNESS_MAX, HARDNESS_ONE, hardnessQ8 } from "./hardness.js";
export {
    cloneMaterialGrids, createMaterialGrids, MATERIAL_GRIDS, placedRockFactor, packMaterials, unpackMaterials, type MaterialGridName, type MaterialGrids,
} from "./materialGrids.js";

/** `materials.initialSoil` (cells) as fixed-point units, rounded to nearest. */
export function initialSoilUnits(cells: number): number {
    return Math.round(cells * FIXED_ONE);
}

/** `materials.initialSoilSlope` (a slope) as Q16, rounded to nearest; 0 leaves the start's soil uniform. */
export function initialSoilSlopeUnits(slope: number): number {
    return Math.round(slope * FIXED_ONE);
}

/**
 * The soil a vertex starts with where its steepest drop to an axis neighbour in the field is
 * `slope` (Q16, not negative): `initial` on flat ground, falling linearly to none at `limit` (Q16,
 * at most 64 cells a cell; 0: `initial` everywhere), in Q8 steps: `initial - initial x f / 256`
 * with `f = floor(min(slope, limit) x 256 / limit)`, each product inside an i32. Mirrors
 * `initialSoilAt` in `shaders/materials/init_soil.wgsl`.
 */
export function initialSoilAt(initial: number, slope: number, limit: number): number {
    if (limit <= 0) return initial;
    const fraction = Math.floor(((slope < limit ? slope : limit) * 256) / limit);
    return initial - ((initial >> 8) * fraction + (((initial & 255) * fraction) >> 8));
}

/** The steepest drop (Q16, absolute) from vertex (x, y) to its axis neighbours inside the field. Mirrors `axisSlope` in `shaders/materials/init_soil.wgsl`. */
export function axisSlope(heights: Int32Array, width: number, depth: number, x: number, y: number): number {
    const i = y * width + x;
    const h = heights[i];
    let steepest = 0;
    if (x > 0) steepest = Math.max(steepest, Math.abs(h - heights[i - 1]));
    if (x < width - 1) steepest = Math.max(steepest, Math.abs(h - heights[i + 1]));
    if (y > 0) steepest = Math.max(steepest, Math.abs(h - heights[i - width]));
    if (y < depth - 1) steepest = Math.max(steepest, Math.abs(h - heights[i + width]));
    return steepest;
}

/**
 * The soil the materials start with by slope: each vertex's soil (`initialSoil`, or its share by
 * the soil map: `writeSoilMap`) thinned by `initialSoilAt` of its `axisSlope`, in place.
 */
export function writeInitialSoil(soil: Int32Array, heights: Int32Array, width: number, depth: number, limit: number): void {
    for (let y = 0; y < depth; y++) {
        for (let x = 0; x < width; x++) soil[y * width + x] = initialSoilAt(soil[y * width + x], axisSlope(heights, width, depth, x, y), limit);
    }
}

/** The soil map's share of `initial` at every vertex (`mulQ16(initial, map)`, map in Q16 [0, 65536]), into `soil`. */
export function writeSoilMap(soil: Int32Array, initial: number, map: Int32Array): void {
    for (let i = 0; i < soil.length; i++) soil[i] = mulQ16(initial, map[i]);
}

/** Thickest soil a vertex holds (2^30 - 1 units, the top of the height range): a sum with any i32 change stays exact in WGSL. */
export const SOIL_LIMIT = 2 ** 30 - 1;

/**
 * The soil after a vertex's height changes by `change`: raised, the change is laid down as soil;
 * lowered, it comes out of the soil first (never below none; the rest was rock). Kept within
 * [0, SOIL_LIMIT]. Mirrors `soilAfter` in `shaders/materials/materials.wgsl`.
 */
export function soilAfter(soil: number, change: number): number {
    const next = soil + change;
    return next <= 0 ? 0 : next > SOIL_LIMIT ? SOIL_LIMIT : next;
}

/**
 * What an operator that would take `amount` of soil takes of rock of hardness `hardness` (Q8, at
 * least HARDNESS_ONE): floor(amount x 256 / hardness), computed in two parts so that no product
 * leaves an i32 (amount / hardness x 256 is at most amount; the remainder x 256 is under 2^26).
 * Exactly `amount` at hardness 1. Mirrors `rockTaken` in `shaders/materials/materials.wgsl`.
 */
export function rockTaken(amount: number, hardness: number): number {
    // At hardness 1 the two parts add up to `amount` itself: spared the divisions (most of the rule's
    // cost where the rock is as soft as the soil).
    if (hardness === HARDNESS_ONE) return amount;
    const whole = Math.floor(amount / hardness);
    const rest = amount - whole * hardness;
    return whole * HARDNESS_ONE + Math.floor((rest * HARDNESS_ONE) / hardness);
}

/**
 * Soil production (weathering): the soil after a thermal step weathers rock at a vertex with
 * `soil` of soil over rock of Q8 `hardness`: `weathering` (Q16) of the way from the soil to
 * `depth`, at 1 / hardness (`rockTaken`), so bare rock weathers fastest, a soil `depth` thick
 * stops it, and hard rock weathers slowly. The surface stays where it is (rock becomes soil).
 * Mirrors `weatheredSoil` in `shaders/materials/materials.wgsl`.
 */
export function weatheredSoil(soil: number, weathering: number, depth: number, hardness: number): number {
    if (weathering === 0 || soil >= depth) return soil;
    const produced = rockTaken(mulQ16(depth - soil, weathering), hardness);
    return soil + produced > SOIL_LIMIT ? SOIL_LIMIT : soil + produced;
}

/**
 * The effective hardness of a vertex's rock, Q8: its factor times its bed's (`bedHardness`), floored,
 * at least HARDNESS_ONE, at most HARDNESS_MAX; a negative factor is rock a ground edit placed
 * (`placedRockFactor`), of its own hardness whatever the bed. Mirrors `hardnessOf` in
 * `shaders/materials/materials.wgsl`.
 */
export function hardnessOf(factor: number, optionQ8: number): number {
    if (factor < 0) return -factor;
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
 * `thermalMaterialAmount` in `shaders/materials/materials.wgsl`.
 */
export function thermalMaterialAmount(drop: number, soilThreshold: number, rockThreshold: number, rate: number, soilShare: number, hardness: number): number {
    const soilExcess = drop > soilThreshold ? mulQ16(drop - soilThreshold, rate) : 0;
    const soilPart = soilExcess < soilShare ? soilExcess : soilShare;
    const rockExcess = drop > rockThreshold ? mulQ16(drop - rockThreshold, rate) : 0;
    return soilPart + (rockExcess > soilPart ? rockTaken(rockExcess - soilPart, hardness) : 0);
}

/** Hash stream of the strata's beds (`hash4(strataSeed, bed, STRATA_STREAM, 0)`): apart from the droplets' and the events'. */
export const STRATA_STREAM = 0x53545241;

/**
 * The hardness (Q8) of the rock at (x, y) whose top is at `rock` (fixed point): with strata
 * (`params.strataThickness` > 0), the bed the rock's top lies in, tilted by the dip, is hard
 * (`strataHardness`) when the top 16 bits of `hash4(strataSeed, bed, STRATA_STREAM, 0)` fall below
 * `strataShare`; any other rock has `rockHardness`. Worked in 1/256 cells (`rock >> 8`), so no sum
 * leaves an i32. Mirrors `bedHardness` in `shaders/materials/materials.wgsl` (which reads the fields through their accessors).
 */
export function bedHardness(params: MaterialFields, rock: number, x: number, y: number): number {
    const bed = bedIndex(params, rock, x, y);
    if (bed === null) return params.rockHardness;
    const { strataSeed, strataShare, strataHardness, rockHardness } = params;
    // Neighbouring vertices mostly lie in one bed: the last bed's hardness, kept with what it came from, saves its hash.
    const last = lastBed;
    if (bed === last.bed && strataSeed === last.seed && strataShare === last.share && strataHardness === last.hard && rockHardness === last.soft)
        return last.hardness;
    const hardness = layeredBedHardness(params, bed);
    last.bed = bed;
    last.seed = strataSeed;
    last.share = strataShare;
    last.hard = strataHardness;
    last.soft = rockHardness;
    last.hardness = hardness;
    return hardness;
}

/** The hardness (Q8) of layered bed `bed` of the strata: hard where its hash falls below the share (`bedHardness`). */
function layeredBedHardness(params: MaterialFields, bed: number): number {
    return hash4(params.strataSeed >>> 0, bed >>> 0, STRATA_STREAM, 0) >>> 16 < params.strataShare ? params.strataHardness : params.rockHardness;
}

/** `bedHardness`' last bed, the fields its hardness came from, and that hardness. */
const lastBed = { bed: NaN, seed: 0, share: 0, hard: 0, soft: 0, hardness: 0 };

/** The strata's bed the rock's top at (x, y) lies in (`bedHardness`), or null without strata or outside the layered beds. */
export function bedIndex(params: MaterialFields, rock: number, x: number, y: number): number | null {
    const thickness = params.strataThickness;
    if (thickness === 0) return null;
    const bed = Math.floor(bedDepth(params, rock, x, y) / thickness);
    return params.strataBeds !== 0 && (bed < 0 || bed >= params.strataBeds) ? null : bed;
}

/**
 * How far the rock's top at (x, y) lies above the strata's base there, tilted by the dip (1/256
 * cells): `bedIndex`'s bed is its floor over the beds' thickness.
 */
function bedDepth(params: MaterialFields, rock: number, x: number, y: number): number {
    return (rock >> 8) - params.strataBase - ((params.strataDipX * x + params.strataDipY * y + params.strataDipOffset) >> 8);
}

/** The hardness (Q8) of vertex i at (x, y) with the materials on: its factor times its bed's (`bedHardness` of the rock under its soil). */
export function vertexHardness(params: MaterialFields, heights: Int32Array, materials: MaterialGrids, i: number, x: number, y: number): number {
    return hardnessOf(materials.hardness[i], bedHardness(params, heights[i] - materials.soil[i], x, y));
}

/**
 * `vertexHardness` of every vertex of `rect` into `out`, vertex i at `out[i - first]`: what a
 * kernel works out once a batch where the heights it reads do not change while it runs.
 */
export function writeVertexHardness(
    params: MaterialFields, heights: Int32Array, materials: MaterialGrids, width: number,
    rect: { readonly x0: number; readonly y0: number; readonly x1: number; readonly y1: number }, out: Int32Array, first = 0
): void {
    const { soil, hardness: factors } = materials;
    const rockHardness = params.rockHardness;
    // `vertexHardness` written out for a whole rectangle (a batch's: up to some 40,000 vertices):
    // without strata every vertex's bed is the rock's; with them, the last bed's hardness kept in
    // locals (as `bedHardness` keeps it) rather than checked against the fields it came from.
    if (params.strataThickness === 0) {
        for (let y = rect.y0; y < rect.y1; y++) {
            for (let i = y * width + rect.x0, end = y * width + rect.x1; i < end; i++) out[i - first] = hardnessOf(factors[i], rockHardness);
        }
        return;
    }
    // The last bed's depths [bedTop - thickness, bedTop) and its hardness: a neighbour whose depth
    // lies in them is in the same bed, found without `bedIndex`'s division (most are).
    const { strataThickness: thickness, strataBeds: beds } = params;
    let bedTop = -Infinity;
    let bedBottom = Infinity;
    let bedHardness = rockHardness;
    for (let y = rect.y0; y < rect.y1; y++) {
        for (let x = rect.x0, i = y * width + rect.x0; x < rect.x1; x++, i++) {
            const depth = bedDepth(params, heights[i] - soil[i], x, y);
            if (depth < bedBottom || depth >= bedTop) {
                const bed = Math.floor(depth / thickness);
                bedBottom = bed * thickness;
                bedTop = bedBottom + thickness;
                bedHardness = beds !== 0 && (bed < 0 || bed >= beds) ? rockHardness : layeredBedHardness(params, bed);
            }
            out[i - first] = hardnessOf(factors[i], bedHardness);
        }
    }
}

/**
 * What an operator that would cut `cut` (>= 0) from a vertex with `soil` over rock of Q8 hardness
 * `hardness` cuts: the soil first, then the rest of the cut at 1 / hardness (`rockTaken`). At most
 * `cut`; exactly `cut` at hardness 1. Mirrors `materialCut` in `shaders/materials/materials.wgsl`.
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
 * `rockThreshold` in `shaders/materials/materials.wgsl`.
 */
export function rockThreshold(soilThreshold: number, rockOption: number, hardness: number): number {
    const fraction = Math.floor(((hardness - HARDNESS_ONE) * HARDNESS_ONE) / hardness);
    const span = rockOption - soilThreshold;
    return soilThreshold + (span >> 8) * fraction + (((span & 255) * fraction) >> 8);
}

/**
 * Where the materials' batch fields start in the GPU's material buffer (i32 index): after the
 * grids, `MATERIAL_GRIDS.length` of `cells` each.
 */
export function materialParamsOffset(cells: number): number {
    return MATERIAL_GRIDS.length * cells;
}

/** The materials' batch fields of `params`, in `MATERIAL_PARAM_FIELDS` order: what the GPU writes after the grids. */
export function packMaterialParams(params: MaterialFields): Int32Array {
    return Int32Array.from(MATERIAL_PARAM_FIELDS, (name) => params[name]);
}

/** The WGSL accessors of the materials' batch fields (`fn soilTalus() -> i32`), reading them after the material buffer's grids. */
export function wgslMaterialAccessors(): string {
    return MATERIAL_PARAM_FIELDS.map(
        (name, k) => `fn ${name}() -> i32 {\n    return material[${MATERIAL_GRIDS.length} * params.width * params.depth + ${k}];\n}\n`
    ).join("");
}
