/**
 * The materials' state (`materials.ts`): the soil's thickness and the rock's hardness factor per
 * vertex, as the state, snapshots, the fingerprint and the GPU buffer hold them.
 */
import { HARDNESS_ONE } from "./hardness.js";

/**
 * The materials' grids, in fingerprint, snapshot and GPU-buffer order: the soil's thickness
 * (fixed point, never negative) and the rock's hardness factor (Q8, 256 = 1; negative where a
 * ground edit placed rock: `placedRockFactor`).
 */
export const MATERIAL_GRIDS = ["soil", "hardness"] as const;

/** The name of one of the materials' grids. */
export type MaterialGridName = (typeof MATERIAL_GRIDS)[number];

/** The materials' state: soil thickness (fixed point) and hardness factor (Q8) per vertex. */
export type MaterialGrids = Record<MaterialGridName, Int32Array>;

/**
 * The hardness factor a ground edit writes where it places rock of Q8 hardness `hardness` (in
 * [HARDNESS_ONE, HARDNESS_MAX]): the hardness negated, which `hardnessOf` takes as the rock's own,
 * whatever the bed, and the hardness map's rewrites keep (`writeHardnessFactors`).
 */
export function placedRockFactor(hardness: number): number {
    return -hardness;
}

/** Fresh materials: `soilUnits` of soil on every vertex, hardness factor 1 everywhere. */
export function createMaterialGrids(cells: number, soilUnits: number): MaterialGrids {
    return { soil: new Int32Array(cells).fill(soilUnits), hardness: new Int32Array(cells).fill(HARDNESS_ONE) };
}

/** Copies of the grids. */
export function cloneMaterialGrids(materials: MaterialGrids): MaterialGrids {
    return { soil: materials.soil.slice(), hardness: materials.hardness.slice() };
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

