/**
 * Colour scales for the erosion maps from the maps themselves: what `fitScales()` of
 * `TerrainErosionMaterialPlugin` sets (a game would more often pick fixed scales).
 */
import { fixedUnitLength } from "../core/fixedPoint.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import type { MaterialMaps } from "../core/materialMaps.js";

/** The value below which `share` of the positive values lie (1 when none is positive). */
export function positivePercentile(values: ArrayLike<number>, share: number): number {
    const positive = Array.from(values).filter((value) => value > 0);
    if (positive.length === 0) return 1;
    positive.sort((a, b) => a - b);
    return positive[Math.min(positive.length - 1, Math.floor(positive.length * share))];
}

/** The colour scales `fitMapScales` sets. */
export interface MapScales {
    waterScale: number;
    wearScale: number;
    depositionScale: number;
    drainageScale: number;
    soilScale: number;
    hardnessScale: number;
}

/**
 * Scales at the 97th percentile of the water visits, wear, deposition and soil thickness and the
 * 99.5th of the drainage area, over the vertices where each is positive (wear, deposition and soil
 * in local units), and the hardest rock's hardness (at least 2, so soft and hard differ).
 */
export function fitMapScales(maps: ErosionMaps & { drainageArea: Int32Array } & MaterialMaps, cellSize: number): MapScales {
    const unit = fixedUnitLength(cellSize);
    let hardest = 2;
    for (const hardness of maps.rockHardness) hardest = Math.max(hardest, hardness);
    return {
        waterScale: positivePercentile(maps.water, 0.97),
        wearScale: positivePercentile(maps.wear, 0.97) * unit,
        depositionScale: positivePercentile(maps.deposition, 0.97) * unit,
        drainageScale: Math.max(2, positivePercentile(maps.drainageArea, 0.995)),
        soilScale: positivePercentile(maps.soil, 0.97),
        hardnessScale: hardest,
    };
}
