/**
 * One water batch on the CPU: one pass of a water step over one patch, in the order
 * `cycleUnits.ts` plans them (`WATER_PASSES`); the GPU backend dispatches the kernel of the same
 * name (`shaders/water_*.wgsl`).
 */
import type { BatchParams } from "../../core/batchParams.js";
import { recordChange, type ErosionMaps } from "../../core/erosionMaps.js";
import type { ErosionStateData } from "../../core/erosionState.js";
import { createWaterGrids, type WaterGrids } from "../../core/waterModel.js";
import { materialCut, soilAfter, vertexHardness, type MaterialGrids } from "../../core/materials.js";
import { uniformHardness } from "../fold/soilFold.js";
import { waterDepth } from "./waterDepth.js";
import { waterErode } from "./waterErode.js";
import { waterFlux, waterLimit, waterScale } from "./waterPipes.js";
import { waterTransport } from "./waterTransport.js";
import { waterVelocity } from "../../core/waterVelocity.js";

/** The state's water, created dry the first time water runs. */
export function ensureWater(state: ErosionStateData): WaterGrids {
    state.water ??= createWaterGrids(state.width * state.depth);
    return state.water;
}

/**
 * Pass 7: heights += groundChange and the water's sediment -= groundChange over the patch (what the
 * water cut or laid down moves between the water and the ground), cleared (and the limiter's
 * factors, which no pass reads again this step: clearing them in the transport would take a ninth
 * binding); the change goes into the maps. With the materials on, a cut takes the soil first and
 * the rock at 1 / hardness (`materialCut`: the water keeps only what it took) and the soil takes the
 * change (`soilAfter`). Mirrors `water_apply.wgsl`.
 */
export function waterApply(
    params: BatchParams, heights: Int32Array, grids: WaterGrids, maps: ErosionMaps | null, materials: MaterialGrids | null = null
): void {
    const { width, patchX0, patchY0, patchX1, patchY1 } = params;
    const change = grids.groundChange;
    const scale = grids.outflowScale;
    const sediment = grids.waterSediment;
    const uniform = materials ? uniformHardness(params, materials) : 0;
    for (let y = patchY0; y < patchY1; y++) {
        for (let i = y * width + patchX0, end = y * width + patchX1; i < end; i++) {
            scale[i] = 0;
            let amount = change[i];
            if (amount === 0) continue;
            if (materials) {
                // A cut the soil covers is the cut itself (`materialCut`): no hardness needed.
                if (amount < 0 && -amount > materials.soil[i])
                    amount = -materialCut(
                        -amount, materials.soil[i], uniform !== 0 ? uniform : vertexHardness(params, heights, materials, i, i - y * width, y)
                    );
                materials.soil[i] = soilAfter(materials.soil[i], amount);
            }
            heights[i] += amount;
            sediment[i] -= amount;
            change[i] = 0;
            if (maps) recordChange(maps, i, amount);
        }
    }
}

/**
 * Runs pass `params.waterPass` of a water step over the batch's patch.
 * @param rainMask the rain mask (Q16 per vertex), or null
 * @param sources the water sources in force, packed (`packWaterSources`)
 */
export function runWaterPass(params: BatchParams, state: ErosionStateData, maps: ErosionMaps | null, rainMask: Int32Array | null, sources: Int32Array): void {
    const grids = ensureWater(state);
    switch (params.waterPass) {
        case 0:
            waterFlux(params, state.heights, grids);
            return;
        case 1:
            waterScale(params, grids);
            return;
        case 2:
            waterLimit(params, grids);
            return;
        case 3:
            waterTransport(params, grids);
            return;
        case 4:
            waterErode(params, state.heights, state.fillLevels, grids);
            return;
        case 5:
            waterDepth(params, grids, rainMask, sources, state.counters);
            // The step's velocity, while the pipes hold its flows and the depth is the one they left.
            waterVelocity({ x0: params.patchX0, y0: params.patchY0, x1: params.patchX1, y1: params.patchY1 }, params.width, grids);
            return;
        case 6:
            waterApply(params, state.heights, grids, maps, params.materials !== 0 ? (state.materials ?? null) : null);
            return;
        default:
            throw new Error(`Internal error: water pass ${params.waterPass} does not exist.`);
    }
}
