/**
 * One realism run: erode a terrain on the CPU reference and measure its drainage before and after
 * (`plugin/analysis/drainageMetrics.ts` defines the metrics).
 */
import { drainageMetrics, type DrainageMetrics, drainageField, type DrainageField } from "../../plugin/terrain.js";
import { erodeHeightfield, type ErosionOptionsInput } from "../../plugin/index.js";
import { meanAbsoluteChange, meanChangeAt, spearman, steepChannelCells } from "../../plugin/advanced.js";
import type { Terrain } from "./terrains.js";

/** What one run measured. */
export interface RealismRun {
    readonly terrain: Terrain;
    readonly options: ErosionOptionsInput;
    readonly cycles: number;
    readonly before: DrainageMetrics;
    readonly after: DrainageMetrics;
    /** Mean change of the steep channel cells of the starting terrain, metres (positive: raised). */
    readonly steepChange: number;
    /** Mean |change| over the field, metres. */
    readonly meanAbsChange: number;
    /** Spearman rank correlation of each cell's lowering with A^0.5 S on the starting terrain (cells 2 from the border). */
    readonly lowering: number;
    /** The eroded heights, metres. */
    readonly heights: Float32Array;
    readonly fieldBefore: DrainageField;
    readonly fieldAfter: DrainageField;
    /** Wall time of the erosion, ms. */
    readonly ms: number;
}

/** Erodes `terrain` for `cycles` cycles with `options` and measures it. */
export function measureRun(terrain: Terrain, options: ErosionOptionsInput, cycles: number): RealismRun {
    const { width, depth, cellSize, heights } = terrain;
    const fieldBefore = drainageField(heights, width, depth, cellSize);
    const started = performance.now();
    const result = erodeHeightfield(heights, width, depth, options, cycles, cellSize);
    const ms = performance.now() - started;
    const fieldAfter = drainageField(result.heights, width, depth, cellSize);
    const power: number[] = [];
    const lowered: number[] = [];
    for (let y = 2; y < depth - 2; y++) {
        for (let x = 2; x < width - 2; x++) {
            const i = y * width + x;
            power.push(Math.sqrt(fieldBefore.area[i]) * fieldBefore.slopes[i]);
            lowered.push(heights[i] - result.heights[i]);
        }
    }
    return {
        terrain,
        options,
        cycles,
        before: drainageMetrics(fieldBefore),
        after: drainageMetrics(fieldAfter),
        steepChange: meanChangeAt(heights, result.heights, steepChannelCells(fieldBefore)),
        meanAbsChange: meanAbsoluteChange(heights, result.heights),
        lowering: spearman(lowered, power),
        heights: result.heights,
        fieldBefore,
        fieldAfter,
        ms,
    };
}

/** Erosion-depth map (metres of change per cell, after minus before). */
export function changeMap(before: ArrayLike<number>, after: ArrayLike<number>): Float64Array {
    return Float64Array.from({ length: before.length }, (_, i) => after[i] - before[i]);
}

/** 3 x 3 box blur (edges average the cells that exist). */
export function boxBlur3(map: ArrayLike<number>, width: number, depth: number): Float64Array {
    const out = new Float64Array(width * depth);
    for (let y = 0; y < depth; y++) {
        for (let x = 0; x < width; x++) {
            let total = 0;
            let count = 0;
            for (let dy = -1; dy <= 1; dy++) {
                for (let dx = -1; dx <= 1; dx++) {
                    const nx = x + dx;
                    const ny = y + dy;
                    if (nx >= 0 && ny >= 0 && nx < width && ny < depth) {
                        total += map[ny * width + nx];
                        count++;
                    }
                }
            }
            out[y * width + x] = total / count;
        }
    }
    return out;
}

/** The fine map averaged onto the coarse grid of a grid twice as coarse: a tent over the fine 3 x 3 around each coarse vertex. */
export function toCoarse(fine: ArrayLike<number>, fineWidth: number): Float64Array {
    const size = (fineWidth + 1) / 2;
    const out = new Float64Array(size * size);
    for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
            let total = 0;
            let weight = 0;
            for (let dy = -1; dy <= 1; dy++) {
                for (let dx = -1; dx <= 1; dx++) {
                    const fx = 2 * x + dx;
                    const fy = 2 * y + dy;
                    if (fx < 0 || fy < 0 || fx >= fineWidth || fy >= fineWidth) continue;
                    const w = (dx === 0 ? 2 : 1) * (dy === 0 ? 2 : 1);
                    total += w * fine[fy * fineWidth + fx];
                    weight += w;
                }
            }
            out[y * size + x] = total / weight;
        }
    }
    return out;
}
