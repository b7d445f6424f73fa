/**
 * What each engine's terrain importer wants, for `--unity` and `--unreal`: the heightmap's format,
 * its size (the importer's size rule: the heights are resampled to the nearest size it takes) and
 * the numbers to type into its import dialog, printed after the bake and kept in its report.
 *
 * - Unity (Terrain > Import Raw): a square RAW16 of 2^n + 1 vertices a side (33 to 4097), byte
 *   order "Windows" (little-endian) or "Mac"; the terrain's height is the range samples 0..65535 span.
 * - Unreal (Landscape > Import from File): a 16-bit PNG of one of the recommended landscape sizes
 *   (127 to 8129); at a Z scale of 100 the samples span 512 m (0.78125 cm a step, centred on 32768),
 *   so the Z scale is the range over 512 m, and the X and Y scales are the cell size in centimetres.
 */
import type { HeightRange } from "../../terrain/index.js";
import type { Endian } from "./raw16.js";

/** An engine preset. */
export type EnginePreset = "unity" | "unreal";

/** Vertices a side Unity's terrain takes. */
export const UNITY_SIDES: readonly number[] = [33, 65, 129, 257, 513, 1025, 2049, 4097];

/** Unreal's recommended landscape sizes (vertices a side). */
export const UNREAL_SIDES: readonly number[] = [127, 253, 505, 1009, 2017, 4033, 8129];

/** The preset's side for a field of `width` x `depth` vertices: the allowed side nearest its larger side. */
export function presetSide(preset: EnginePreset, width: number, depth: number): number {
    const sides = preset === "unity" ? UNITY_SIDES : UNREAL_SIDES;
    const larger = Math.max(width, depth);
    return sides.reduce((best, side) => (Math.abs(side - larger) < Math.abs(best - larger) ? side : best));
}

/** `heights` (`width` x `depth`) resampled bilinearly to `side` x `side`, the corners kept. */
export function resampleHeights(heights: Float32Array, width: number, depth: number, side: number): Float32Array {
    if (width === side && depth === side) return heights;
    const out = new Float32Array(side * side);
    for (let y = 0; y < side; y++) {
        const fy = (y * (depth - 1)) / (side - 1);
        const y0 = Math.min(depth - 2, Math.floor(fy));
        const ty = fy - y0;
        for (let x = 0; x < side; x++) {
            const fx = (x * (width - 1)) / (side - 1);
            const x0 = Math.min(width - 2, Math.floor(fx));
            const tx = fx - x0;
            const i = y0 * width + x0;
            const top = heights[i] * (1 - tx) + heights[i + 1] * tx;
            const bottom = heights[i + width] * (1 - tx) + heights[i + width + 1] * tx;
            out[y * side + x] = top * (1 - ty) + bottom * ty;
        }
    }
    return out;
}

/** What the importer's dialog needs, as lines to print and a record for the report. */
export function importInstructions(
    preset: EnginePreset, field: { width: number; depth: number; cellSize: number }, side: number, range: HeightRange, endian: Endian
): { lines: string[]; settings: Record<string, number | string> } {
    const sizeX = (field.width - 1) * field.cellSize;
    const sizeZ = (field.depth - 1) * field.cellSize;
    const resampled = side !== field.width || side !== field.depth ? ` (resampled from ${field.width} x ${field.depth})` : "";
    const round = (value: number) => Math.round(value * 1000) / 1000;
    if (preset === "unity") {
        const settings = {
            depth: "Bit 16",
            width: side,
            height: side,
            byteOrder: endian === "little" ? "Windows" : "Mac",
            terrainSizeX: round(sizeX),
            terrainSizeZ: round(sizeZ),
            terrainHeight: round(range.max - range.min),
            positionY: round(range.min),
        };
        return {
            settings,
            lines: [
                `Unity: Terrain > Import Raw: Depth ${settings.depth}, Width ${side}, Height ${side}${resampled}, Byte Order ${settings.byteOrder},`,
                `  Terrain Size ${settings.terrainSizeX} x ${settings.terrainHeight} x ${settings.terrainSizeZ} m (X x Y x Z); place the terrain at Y = ` +
                    `${settings.positionY} m.`,
            ],
        };
    }
    const settings = {
        scaleX: round(((sizeX / (side - 1)) * 100)),
        scaleY: round(((sizeZ / (side - 1)) * 100)),
        scaleZ: round(((range.max - range.min) / 512) * 100),
        locationZ: round(((range.min + range.max) / 2) * 100),
        resolution: `${side} x ${side}`,
    };
    return {
        settings,
        lines: [
            `Unreal: Landscape > Import from File: ${settings.resolution}${resampled}; Scale X ${settings.scaleX}, Y ` +
                `${settings.scaleY}, Z ${settings.scaleZ}; Location Z ${settings.locationZ} cm.`,
        ],
    };
}
