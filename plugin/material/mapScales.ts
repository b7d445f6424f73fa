/**
 * Colour scales for the erosion maps from the maps themselves: what `fitScales()` of
 * `TerrainErosionMaterialPlugin` sets (a game would more often pick fixed scales).
 */
import { fixedUnitLength } from "../core/fixedPoint.js";
import type { ErosionMaps } from "../core/erosionMaps.js";

/** The value below which `share` of the positive values lie (1 when none is positive). */
export function positivePercentile(values: ArrayLike<number>, share: number): number {
    const positive = Array.from(values).filter((value) => value > 0);
    if (positive.length === 0) return 1;
    positive.sort((a, b) => a - b);
    return positive[Math.min(positive.length - 1, Math.floor(positive.length * share))];
}

/**
 * Scales at the 97th percentile of the water visits, wear and deposition and the 99.5th of the
 * drainage area, over the vertices where each is positive; wear and deposition in local units.
 */
export function fitMapScales(maps: ErosionMaps & { drainageArea: Int32Array }, cellSize: number): { waterScale: number; wearScale: number; depositionScale: number; drainageScale: number } {
    const unit = fixedUnitLength(cellSize);
    return {
        waterScale: positivePercentile(maps.water, 0.97),
        wearScale: positivePercentile(maps.wear, 0.97) * unit,
        depositionScale: positivePercentile(maps.deposition, 0.97) * unit,
        drainageScale: Math.max(2, positivePercentile(maps.drainageArea, 0.995)),
    };
}
