/**
 * The materials' batch fields (`materials.ts`): the same for every batch of a cycle, quantised from
 * the options here, once, like the rest of the batch parameters (`batchParams.ts`), but kept out of
 * the uniform block.
 */
import { FIXED_ONE, quantiseQ16 } from "./fixedPoint.js";
import { hardnessQ8 } from "./hardness.js";
import { ANGLE_STEPS, discDirection } from "./localErosion.js";
import type { SimulationOptions } from "./options.js";

/**
 * The materials' fields (`materials.ts`), the same for every batch of a cycle: named in
 * `BatchParams` like the rest, but not in the uniform params block (which stays at 64 fields). The
 * GPU keeps them after the material buffer's grids (`MATERIAL_PARAM_FIELDS` order), where the
 * kernels read them through accessors named after them (`wgslMaterialAccessors`).
 * - `materials`: 1 when the materials are on, else 0.
 * - `soilTalus`, `soilTalusDiagonal`: the soil's angle of repose (Q16 slope) along an axis and a
 *   diagonal (never above the talus).
 * - `rockHardness`: the rock's hardness (Q8, 256 = as soft as the soil): `materials.hardness`.
 * - The strata (`materials.strata*`): a bed's thickness (Q8 cells; 0: no strata), a hard bed's
 *   hardness (Q8), the share of hard beds (Q16), their seed, the first bed's base (Q8 cells), the
 *   layered beds (0: all), and how the beds' base rises along x and along y (Q16 slopes; the dip
 *   direction quantised to 1/256 of a turn).
 * - `strataDipOffset`: the dip's term at the grid's first vertex (`strataDipX x0 + strataDipY y0`,
 *   wrapping in an i32), added before the dip's shift: 0 on the field; a bake's tile job (a box of
 *   the field) or a river window (a band of its rows) runs on a grid that starts at (x0, y0), and
 *   this keeps its beds where the field's are (`strataDipOffsetAt`).
 * - `weathering` (Q16) and `soilDepth` (fixed point): soil production, the share of the way to
 *   `soilDepth` of soil that rock weathers into each thermal step (`weatheredSoil`).
 */
export const MATERIAL_PARAM_FIELDS = [
    "materials",
    "soilTalus",
    "soilTalusDiagonal",
    "rockHardness",
    "strataThickness",
    "strataHardness",
    "strataShare",
    "strataSeed",
    "strataBase",
    "strataBeds",
    "strataDipX",
    "strataDipY",
    "strataDipOffset",
    "weathering",
    "soilDepth",
] as const;

/** A materials field of the batch parameters. */
export type MaterialParamName = (typeof MATERIAL_PARAM_FIELDS)[number];

/** The materials' fields of a batch's parameters. */
export type MaterialFields = Record<MaterialParamName, number>;

const q16 = quantiseQ16;

/**
 * `params`' `strataDipOffset` for a grid whose first vertex is the field's (x0, y0), on top of the
 * one `params` has: the dip's term is linear, and i32 products and sums wrap alike, so
 * `dipX (x + x0) + dipY (y + y0)` is `dipX x + dipY y` plus this, to the bit.
 */
export function strataDipOffsetAt(params: MaterialFields, x0: number, y0: number): number {
    return (params.strataDipOffset + Math.imul(params.strataDipX, x0) + Math.imul(params.strataDipY, y0)) | 0;
}

/** The materials' fields of a batch (all 0 with the materials off). */
export function materialParams(options: Readonly<SimulationOptions>, talus: number): MaterialFields {
    const params = {} as MaterialFields;
    for (const name of MATERIAL_PARAM_FIELDS) params[name] = 0;
    const materials = options.materials;
    if (!materials.enabled) return params;
    const soilTalus = Math.min(materials.soilTalus, talus);
    Object.assign(params, {
        materials: 1,
        soilTalus: q16(soilTalus),
        soilTalusDiagonal: q16(soilTalus * Math.SQRT2),
        rockHardness: hardnessQ8(materials.hardness),
    });
    if (materials.weathering > 0) Object.assign(params, { weathering: q16(materials.weathering), soilDepth: q16(materials.soilDepth) });
    const thickness = Math.round(materials.strataThickness * 256);
    if (thickness > 0) {
        // The direction in 1/256 turns, through the literal cosine table (no Math.cos: every machine agrees).
        const [cosine, sine] = discDirection(Math.round((materials.strataDipDirection / 360) * ANGLE_STEPS) & (ANGLE_STEPS - 1));
        const dip = q16(materials.strataDip);
        Object.assign(params, {
            strataThickness: thickness,
            strataHardness: hardnessQ8(materials.strataHardness),
            strataShare: Math.round(materials.strataShare * FIXED_ONE),
            strataSeed: materials.strataSeed | 0,
            strataBase: Math.round(materials.strataBase * 256),
            strataBeds: materials.strataBeds | 0,
            // The beds fall toward the dip direction: their base rises the other way.
            strataDipX: -Math.round((dip * cosine) / FIXED_ONE),
            strataDipY: -Math.round((dip * sine) / FIXED_ONE),
        });
    }
    return params;
}
