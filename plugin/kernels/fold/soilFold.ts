/**
 * The soil rule where a fold adds its accumulator to the heights (`applyDelta`, mirroring the
 * materials' part of `shaders/fold/apply_delta.wgsl`): before the change lands, the soil takes it by
 * `soilAfter`. A river batch's accumulator also holds the uplift, which raises the rock, not the
 * soil, so its nominal uplift is taken out of the change first (docs/simulation.md, "Materials").
 */
import { riverRect, type BatchParams } from "../../core/batchParams.js";
import type { ErosionStateData } from "../../core/erosionState.js";
import { mulQ16 } from "../../core/fixedPoint.js";
import { placedRockIn, writeHardnessFactors } from "../../core/hardnessMap.js";
import { READ_MARGIN } from "../../core/independentClasses.js";
import { createMaterialGrids, HARDNESS_ONE, hardnessOf, soilAfter, writeInitialSoil, writeSoilMap, type MaterialGrids } from "../../core/materials.js";
import type { PlannedBatch } from "../../core/schedule.js";

/**
 * The state's materials, made the first time a batch runs them: `initialSoil` units of soil on
 * every vertex, or with a soil map (`setMask("soil")`) its share of them (`writeSoilMap`), and
 * with `initialSoilSlope` (Q16) less on steeper ground (`writeInitialSoil`).
 */
export function ensureMaterials(state: ErosionStateData, initialSoil: number, initialSoilSlope = 0, soilMap: Int32Array | null = null): MaterialGrids {
    if (!state.materials) {
        state.materials = createMaterialGrids(state.width * state.depth, initialSoil);
        if (soilMap) writeSoilMap(state.materials.soil, initialSoil, soilMap);
        if (initialSoilSlope > 0) writeInitialSoil(state.materials.soil, state.heights, state.width, state.depth, initialSoilSlope);
        // Fresh grids have hardness factor 1 everywhere: as no map makes them.
        writtenHardnessStamps.set(state.materials, 0);
    }
    return state.materials;
}

/** The hardness map's stamp each materials' hardness grid was last written from (a grid not here: unknown, as after a restore). */
const writtenHardnessStamps = new WeakMap<MaterialGrids, number>();

/**
 * Notes `materials`' hardness grid as written from the hardness map of `stamp` (0: none): a grid
 * copied from one that was (a bake's tile job is sent the field's cells, not the map).
 */
export function noteHardnessWritten(materials: MaterialGrids, stamp: number): void {
    writtenHardnessStamps.set(materials, stamp);
}

/**
 * Before a batch that runs the materials: the materials made (`ensureMaterials`) and their hardness
 * factor grid written from the hardness map in force where the map or its scale changed since
 * (`hardnessMap.ts`). Returns the materials.
 */
export function prepareMaterials(
    state: ErosionStateData,
    planned: Pick<PlannedBatch, "initialSoil" | "initialSoilSlope" | "hardnessMap" | "masks">
): MaterialGrids {
    const materials = ensureMaterials(state, planned.initialSoil ?? 0, planned.initialSoilSlope ?? 0, planned.masks.soil);
    const stamp = planned.hardnessMap?.stamp ?? 0;
    if (writtenHardnessStamps.get(materials) !== stamp) {
        writeHardnessFactors(stamp === 0 ? null : planned.masks.hardness, planned.hardnessMap?.scale ?? 0, materials.hardness);
        writtenHardnessStamps.set(materials, stamp);
    }
    return materials;
}

/**
 * The hardness (Q8) of every vertex where it is the same everywhere, else 0: without strata, and
 * with a hardness factor grid this thread wrote without a map (`prepareMaterials`, stamp 0: 1
 * everywhere) and no rock a ground edit placed where the batch reads (its extent grown by
 * `READ_MARGIN`: a scan of the grid there, since the edit may have run on another thread), it is the
 * rock's (`hardnessOf(HARDNESS_ONE, rockHardness)`). The kernels then skip each vertex's
 * `vertexHardness` (a grid lookup, the bed's test and a product) and, at hardness 1, `rockTaken`'s
 * divisions. Grids this thread did not write (a test's, a restored state's before its first batch)
 * are taken as not uniform: the kernels work each vertex's hardness out as before.
 */
export function uniformHardness(params: BatchParams, materials: MaterialGrids): number {
    if (params.strataThickness !== 0 || writtenHardnessStamps.get(materials) !== 0) return 0;
    const { width, depth } = params;
    const read = {
        x0: Math.max(0, params.extentX0 - READ_MARGIN),
        y0: Math.max(0, params.extentY0 - READ_MARGIN),
        x1: Math.min(width, params.extentX1 + READ_MARGIN),
        y1: Math.min(depth, params.extentY1 + READ_MARGIN),
    };
    return placedRockIn(materials.hardness, width, read) ? 0 : hardnessOf(HARDNESS_ONE, params.rockHardness);
}

/**
 * The uplift a river batch's accumulator holds at (x, y) as `river_uplift` computes it before its
 * cap at the top of the height range: `riverUplift` (times the uplift mask) inside the batch's river
 * rectangle, none on the field's edge off a torus. Mirrors `nominalUplift` in apply_delta.wgsl.
 */
export function nominalUplift(params: BatchParams, upliftMask: Int32Array | null, x: number, y: number): number {
    // Only a river batch's params carry riverUplift.
    if (params.riverUplift === 0) return 0;
    const rect = riverRect(params);
    if (x < rect.x0 || y < rect.y0 || x >= rect.x1 || y >= rect.y1) return 0;
    if (params.wrap === 0 && (x === 0 || y === 0 || x === params.width - 1 || y === params.depth - 1)) return 0;
    const i = y * params.width + x;
    return params.upliftMasked !== 0 && upliftMask ? mulQ16(params.riverUplift, upliftMask[i]) : params.riverUplift;
}

/** The soil after the batch's accumulator `delta` lands, over its extent (before `applyDelta` clears it). */
export function foldSoil(params: BatchParams, delta: Int32Array, soil: Int32Array, upliftMask: Int32Array | null): void {
    const { width, extentX0, extentY0, extentX1, extentY1 } = params;
    if (params.riverUplift === 0) {
        // No uplift in the accumulator (every batch but a river batch with uplift): the change
        // itself, without `nominalUplift`'s tests at every vertex.
        for (let y = extentY0; y < extentY1; y++) {
            for (let i = y * width + extentX0, end = y * width + extentX1; i < end; i++) soil[i] = soilAfter(soil[i], delta[i]);
        }
        return;
    }
    for (let y = extentY0; y < extentY1; y++) {
        for (let x = extentX0; x < extentX1; x++) {
            const i = y * width + x;
            soil[i] = soilAfter(soil[i], delta[i] - nominalUplift(params, upliftMask, x, y));
        }
    }
}
