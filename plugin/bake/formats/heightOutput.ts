/**
 * The eroded heights and maps in the format asked for (`--format`, or an engine preset's): the
 * bytes of each file, named by the suffix it takes after the output's prefix. The 16-bit formats
 * use the input's height range when every height fits in it, else the heights' own; an engine
 * preset uses the heights' own (the most precision) and the engine's size rule.
 */
import type { ErosionMaps } from "../../core/erosionMaps.js";
import type { MaterialBakeMaps } from "../bakeMaterials.js";
import { encodeGray16Png, heightsToSamples, type HeightRange } from "../../terrain/index.js";
import { encodeRaw16, type Endian } from "./raw16.js";
import { encodeExr } from "./exrFile.js";
import { encodeTiff } from "./tiffFile.js";
import { importInstructions, presetSide, resampleHeights, type EnginePreset } from "./enginePresets.js";

/** The heights' file formats a bake writes. */
export type HeightFormat = "png16" | "raw16" | "exr" | "tiff" | "f32";

/** The formats `--format` takes, for its message. */
export const HEIGHT_FORMATS: readonly HeightFormat[] = ["png16", "raw16", "exr", "tiff", "f32"];

/** The file extension of each format. */
export const FORMAT_EXTENSIONS: Readonly<Record<HeightFormat, string>> = { png16: ".png", raw16: ".raw", exr: ".exr", tiff: ".tif", f32: ".f32" };

/** How the heights are written. */
export interface OutputFormat {
    readonly format: HeightFormat;
    /** RAW16's byte order. */
    readonly endian: Endian;
    readonly preset: EnginePreset | null;
}

/**
 * The maps a bake writes: the erosion maps, the drainage area (cells draining through each vertex)
 * and, once the materials have run, theirs (`MaterialBakeMaps`).
 */
export type BakeMaps = ErosionMaps & { readonly drainageArea: Uint32Array } & Partial<MaterialBakeMaps>;

/** The heights' file, its range (16-bit formats) and, for a preset, the importer's settings. */
export interface EncodedHeights {
    readonly bytes: Uint8Array;
    readonly range: HeightRange | null;
    readonly engine: { readonly lines: string[]; readonly settings: Record<string, number | string> } | null;
}

/** Whether every height lies within `range`. */
export function fits(heights: Float32Array, range: HeightRange): boolean {
    for (let i = 0; i < heights.length; i++) if (heights[i] < range.min || heights[i] > range.max) return false;
    return true;
}

/** The heights (`width` x `depth`, metres, top row first) as `output` asks. */
export async function encodeHeights(
    output: OutputFormat, heights: Float32Array, field: { width: number; depth: number; cellSize: number; range: HeightRange | null }
): Promise<EncodedHeights> {
    const { format, endian, preset } = output;
    if (preset) {
        const side = presetSide(preset, field.width, field.depth);
        const { samples, range } = heightsToSamples(resampleHeights(heights, field.width, field.depth, side));
        const bytes = format === "raw16" ? encodeRaw16(samples, endian) : await encodeGray16Png(samples, side, side);
        return { bytes, range, engine: importInstructions(preset, field, side, range, endian) };
    }
    if (format === "f32") return { bytes: new Uint8Array(heights.buffer, heights.byteOffset, heights.byteLength), range: null, engine: null };
    if (format === "exr")
        return {
            bytes: await encodeExr(field.width, field.depth, [heights, heights, heights, new Float32Array(heights.length).fill(1)]),
            range: null,
            engine: null,
        };
    if (format === "tiff") return { bytes: await encodeTiff(heights, field.width, field.depth, field.cellSize), range: null, engine: null };
    const { samples, range } = field.range && fits(heights, field.range) ? heightsToSamples(heights, field.range) : heightsToSamples(heights);
    return { bytes: format === "raw16" ? encodeRaw16(samples, endian) : await encodeGray16Png(samples, field.width, field.depth), range, engine: null };
}

/** A map as 16-bit samples scaled so its largest value is 65535; returns them and the value a step stands for. */
export function mapSamples(map: Uint32Array): { samples: Uint16Array; valuePerStep: number } {
    let largest = 0;
    for (let i = 0; i < map.length; i++) largest = Math.max(largest, map[i]);
    const valuePerStep = largest > 0 ? largest / 65535 : 1;
    const samples = new Uint16Array(map.length);
    for (let i = 0; i < map.length; i++) samples[i] = Math.round(map[i] / valuePerStep);
    return { samples, valuePerStep };
}

/**
 * The maps in the heights' family, by file suffix: an EXR's are one `maps.exr` whose R, G, B and A
 * channels are water, wear, deposition and drainage area (float values, the maps' own units); a
 * TIFF's are one float32 `<map>.tif` each. (The 16-bit PNG maps of the other formats are written
 * row by row by bakeOutput.ts.) Returns null for the PNG family.
 */
export async function encodeMaps(
    format: HeightFormat, maps: BakeMaps, width: number, depth: number, cellSize: number
): Promise<Map<string, Uint8Array> | null> {
    const floats = (map: Uint32Array) => Float32Array.from(map);
    if (format === "exr") {
        const files = new Map([
            ["maps.exr", await encodeExr(width, depth, [floats(maps.water), floats(maps.wear), floats(maps.deposition), floats(maps.drainageArea)])],
        ]);
        // The materials' maps as a second EXR's R, G, B (A is zero).
        if (maps.soil && maps.exposedLayer && maps.rockHardness)
            files.set(
                "materials.exr",
                await encodeExr(width, depth, [floats(maps.soil), floats(maps.exposedLayer), floats(maps.rockHardness), new Float32Array(width * depth)])
            );
        return files;
    }
    if (format !== "tiff") return null;
    const files = new Map<string, Uint8Array>();
    for (const [name, map] of Object.entries(maps) as [keyof BakeMaps, Uint32Array | undefined][]) {
        if (map) files.set(`${name}.tif`, await encodeTiff(floats(map), width, depth, cellSize));
    }
    return files;
}
