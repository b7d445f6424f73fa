/**
 * What a bake reads: a 16-bit grayscale PNG, RAW/R16 16-bit samples (formats/raw16.ts), a float32
 * OpenEXR (formats/exrFile.ts), a 16-bit or float32 TIFF or GeoTIFF (formats/tiffFile.ts), raw
 * little-endian float32 heights (metres) with their size, or a folder of PNG or float32 tiles with
 * a `manifest.json`; and its scale (cell size, and for 16-bit samples the heights samples 0 and
 * 65535 stand for) from flags, the manifest, a GeoTIFF's pixel size or the defaults.
 */
import { readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import { decodeGrayPng, samplesToHeights, type HeightRange } from "../terrain/index.js";
import { MAX_GRID_SIDE } from "../core/gridValidation.js";
import { decodeRaw16, squareRaw16Side, type Endian } from "./formats/raw16.js";
import { decodeExrHeights } from "./formats/exrFile.js";
import { decodeTiffHeights } from "./formats/tiffFile.js";

/** A bad input file or flag, with the file or flag named. */
export class BakeInputError extends Error {
    public override readonly name = "BakeInputError";
}

/** The scale flags (each optional). */
export interface InputScale {
    /** Distance between neighbouring vertices, metres. */
    readonly cellSize?: number;
    /** Extent of the whole field in metres (sets the cell size; its cells must be square). */
    readonly extent?: { readonly width: number; readonly height: number };
    /** Heights of samples 0 and 65535 in a PNG, metres. */
    readonly heightRange?: HeightRange;
    /** Vertices per row and rows of a raw float32 or RAW16 file (a square RAW16's side is found from its length). */
    readonly size?: { readonly width: number; readonly depth: number };
    /** Byte order of a RAW16 file (default little-endian: Unity's "Windows", Unreal's). */
    readonly endian?: Endian;
}

/** A folder's tiles: files by row then column; neighbouring tiles share their edge vertices. */
export interface TileLayout {
    readonly files: readonly (readonly string[])[];
    /** Vertices per row of each column of tiles, and rows of each row of tiles. */
    readonly columns: readonly number[];
    readonly rows: readonly number[];
    readonly format: "png" | "f32";
}

/** The input formats: a 16-bit PNG, RAW16, OpenEXR, TIFF, raw float32, or a folder of tiles. */
export type BakeInputFormat = "png" | "raw16" | "exr" | "tiff" | "f32" | "tiles";

/** The heights a bake starts from. */
export interface BakeInput {
    readonly path: string;
    readonly format: BakeInputFormat;
    /** A RAW16 input's byte order (the output's default), else null. */
    readonly endian: Endian | null;
    readonly width: number;
    readonly depth: number;
    /** Metres, row-major, top row first. */
    readonly heights: Float32Array;
    readonly cellSize: number;
    /** The PNG samples' range (also the range the output PNGs use), or null for float32 input. */
    readonly range: HeightRange | null;
    readonly tiles: TileLayout | null;
}

interface Manifest {
    readonly tiles: string[][];
    readonly columns?: number[];
    readonly rows?: number[];
    readonly cellSize?: number;
    readonly extent?: { width: number; height: number };
    readonly heightRange?: HeightRange;
}

async function bytesOf(path: string): Promise<Uint8Array> {
    try {
        return new Uint8Array(await readFile(path));
    } catch (error) {
        throw new BakeInputError(`${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
}

async function pngSamples(path: string): Promise<{ width: number; depth: number; samples: Uint16Array }> {
    try {
        const image = await decodeGrayPng(await bytesOf(path));
        if (image.bitDepth !== 16) throw new Error(`it is an ${image.bitDepth}-bit PNG; a heightmap needs 16 bits a sample`);
        return { width: image.width, depth: image.height, samples: image.samples };
    } catch (error) {
        if (error instanceof BakeInputError) throw error;
        throw new BakeInputError(`${path}: not a 16-bit grayscale PNG heightmap (${(error as Error).message}).`);
    }
}

async function f32Heights(path: string, width: number, depth: number): Promise<Float32Array> {
    const bytes = await bytesOf(path);
    if (bytes.length !== width * depth * 4) {
        throw new BakeInputError(
            `${path}: ${bytes.length} bytes, but ${width} x ${depth} float32 heights are ${width * depth * 4} bytes (set the size with --size WxH).`
        );
    }
    const heights = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    const bad = heights.findIndex((value) => !Number.isFinite(value));
    if (bad >= 0)
        throw new BakeInputError(
            `${path}: height ${bad} (row ${Math.floor(bad / width)}, column ${bad % width}) is ${heights[bad]}; every height must be a finite number of metres.`
        );
    return heights;
}

function checkGrid(path: string, width: number, depth: number): void {
    if (width < 2 || depth < 2 || width > MAX_GRID_SIDE || depth > MAX_GRID_SIDE) {
        throw new BakeInputError(`${path}: ${width} x ${depth} vertices; each side must be 2 to ${MAX_GRID_SIDE}.`);
    }
}

/** The cell size from the flags or manifest (an extent wins over a cell size), or 1 m. */
function cellSizeOf(source: string, width: number, depth: number, scale: InputScale): number {
    if (scale.extent) {
        const across = scale.extent.width / (width - 1);
        const down = scale.extent.height / (depth - 1);
        if (!(across > 0) || Math.abs(across - down) > 1e-6 * across) {
            throw new BakeInputError(
                `${source}: the extent ${scale.extent.width} x ${scale.extent.height} m over ${width} x ` +
                    `${depth} vertices gives cells of ${across} x ${down} m; erosion needs square cells.`
            );
        }
        return across;
    }
    const cellSize = scale.cellSize ?? 1;
    if (!(Number.isFinite(cellSize) && cellSize > 0))
        throw new BakeInputError(`${source}: the cell size is ${cellSize}; it must be a positive number of metres.`);
    return cellSize;
}

/**
 * The PNG height range given (checked: from a lower to a higher height), or the default: 0 to a
 * quarter of the field's larger extent (a mountainous relief).
 */
function rangeOf(source: string, width: number, depth: number, cellSize: number, scale: InputScale): HeightRange {
    const range = scale.heightRange;
    if (!range) return { min: 0, max: (Math.max(width, depth) - 1) * cellSize * 0.25 };
    if (!(Number.isFinite(range.min) && Number.isFinite(range.max) && range.min < range.max)) {
        throw new BakeInputError(
            `${source}: the height range is ${range.min},${range.max} (--height-range, or the manifest's heightRange): it must be two finite heights in ` +
                `metres, the one for sample 0 below the one for sample 65535 (for example --height-range ` +
                `${Math.min(range.min, range.max)},${Math.max(range.min, range.max)}).`
        );
    }
    return range;
}

async function readTiles(folder: string, flags: InputScale): Promise<BakeInput> {
    const manifestPath = join(folder, "manifest.json");
    let manifest: Manifest;
    try {
        manifest = JSON.parse(new TextDecoder().decode(await bytesOf(manifestPath))) as Manifest;
    } catch (error) {
        if (error instanceof BakeInputError) throw error;
        throw new BakeInputError(`${manifestPath}: not valid JSON (${(error as Error).message}).`);
    }
    const files = manifest.tiles;
    if (
        !Array.isArray(files) ||
        files.length === 0 ||
        !files.every((row) => Array.isArray(row) && row.length === files[0].length && row.every((file) => typeof file === "string"))
    ) {
        throw new BakeInputError(`${manifestPath}: "tiles" must be rows of file names, every row as long as the first.`);
    }
    const format = extname(files[0][0]).toLowerCase() === ".png" ? "png" : "f32";
    const scale: InputScale = {
        cellSize: flags.cellSize ?? manifest.cellSize,
        extent: flags.extent ?? manifest.extent,
        heightRange: flags.heightRange ?? manifest.heightRange,
    };
    const tileData: { width: number; depth: number; samples?: Uint16Array; heights?: Float32Array }[][] = [];
    for (let row = 0; row < files.length; row++) {
        tileData.push([]);
        for (let column = 0; column < files[row].length; column++) {
            const path = join(folder, files[row][column]);
            if (format === "png") {
                tileData[row].push(await pngSamples(path));
            } else {
                const width = manifest.columns?.[column];
                const depth = manifest.rows?.[row];
                if (!width || !depth)
                    throw new BakeInputError(`${manifestPath}: float32 tiles need "columns" and "rows" (vertices of each column and row of tiles).`);
                tileData[row].push({ width, depth, heights: await f32Heights(path, width, depth) });
            }
        }
    }
    const columns = tileData[0].map((tile) => tile.width);
    const rows = tileData.map((tiles) => tiles[0].depth);
    const width = columns.reduce((sum, w) => sum + w - 1, 1);
    const depth = rows.reduce((sum, d) => sum + d - 1, 1);
    checkGrid(folder, width, depth);
    const cellSize = cellSizeOf(manifestPath, width, depth, scale);
    const range = format === "png" ? rangeOf(manifestPath, width, depth, cellSize, scale) : null;
    const heights = new Float32Array(width * depth);
    const written = new Uint8Array(width * depth);
    let y0 = 0;
    for (let row = 0; row < files.length; row++) {
        let x0 = 0;
        for (let column = 0; column < files[row].length; column++) {
            const tile = tileData[row][column];
            if (tile.width !== columns[column] || tile.depth !== rows[row]) {
                throw new BakeInputError(
                    `${join(folder, files[row][column])}: ${tile.width} x ${tile.depth} vertices, but ` +
                        `its column of tiles is ${columns[column]} wide and its row ${rows[row]} deep.`
                );
            }
            const values = tile.heights ?? samplesToHeights(tile.samples!, range!);
            for (let y = 0; y < tile.depth; y++) {
                for (let x = 0; x < tile.width; x++) {
                    const i = (y0 + y) * width + x0 + x;
                    if (written[i] && heights[i] !== values[y * tile.width + x]) {
                        throw new BakeInputError(
                            `${join(folder, files[row][column])}: its edge vertex (${x}, ${y}) is ${values[y * tile.width + x]} m ` +
                                `but the neighbouring tile's is ${heights[i]} m; neighbouring tiles share their edge vertices.`
                        );
                    }
                    heights[i] = values[y * tile.width + x];
                    written[i] = 1;
                }
            }
            x0 += tile.width - 1;
        }
        y0 += rows[row] - 1;
    }
    return { path: folder, format: "tiles", endian: null, width, depth, heights, cellSize, range, tiles: { files, columns, rows, format } };
}

/** A file read by one of the format modules, its error message prefixed with the file. */
async function decoded<T>(path: string, what: string, decode: (bytes: Uint8Array) => T | Promise<T>): Promise<T> {
    const bytes = await bytesOf(path);
    try {
        return await decode(bytes);
    } catch (error) {
        throw new BakeInputError(`${path}: ${(error as Error).message} (read as ${what}).`);
    }
}

/** A file of 16-bit samples or float heights, as the bake's input. */
function single(
    path: string, format: BakeInputFormat, width: number, depth: number, flags: InputScale, values: { samples: Uint16Array } | { heights: Float32Array },
    cellSize = cellSizeOf(path, width, depth, flags), endian: Endian | null = null
): BakeInput {
    checkGrid(path, width, depth);
    if ("heights" in values) return { path, format, endian, width, depth, heights: values.heights, cellSize, range: null, tiles: null };
    const range = rangeOf(path, width, depth, cellSize, flags);
    return { path, format, endian, width, depth, heights: samplesToHeights(values.samples, range), cellSize, range, tiles: null };
}

/** Reads `path` (a PNG, RAW16, EXR, TIFF or `.f32` file, or a folder of tiles) with the scale flags. */
export async function readBakeInput(path: string, flags: InputScale): Promise<BakeInput> {
    let isFolder: boolean;
    try {
        isFolder = (await stat(path)).isDirectory();
    } catch (error) {
        throw new BakeInputError(`${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
    if (isFolder) return readTiles(path, flags);
    const extension = extname(path).toLowerCase();
    if (extension === ".png") {
        const { width, depth, samples } = await pngSamples(path);
        return single(path, "png", width, depth, flags, { samples });
    }
    if (extension === ".raw" || extension === ".r16") {
        const endian = flags.endian ?? "little";
        const bytes = await bytesOf(path);
        const side = flags.size ? null : squareRaw16Side(bytes.length);
        if (!flags.size && side === null)
            throw new BakeInputError(`${path}: ${bytes.length} bytes is not a square of 16-bit samples; give its size with --size WIDTHxDEPTH (vertices).`);
        const width = flags.size?.width ?? side!;
        const depth = flags.size?.depth ?? side!;
        checkGrid(path, width, depth);
        let samples: Uint16Array;
        try {
            samples = decodeRaw16(bytes, width, depth, endian);
        } catch (error) {
            throw new BakeInputError(`${path}: ${(error as Error).message}.`);
        }
        return single(path, "raw16", width, depth, flags, { samples }, undefined, endian);
    }
    if (extension === ".exr") {
        const { width, depth, heights } = await decoded(path, "an OpenEXR heightmap", decodeExrHeights);
        return single(path, "exr", width, depth, flags, { heights });
    }
    if (extension === ".tif" || extension === ".tiff") {
        // A GeoTIFF's pixel size is the cell size unless a flag says otherwise.
        const given = flags.cellSize !== undefined || flags.extent !== undefined;
        const tiff = await decoded(path, "a TIFF heightmap", (bytes) => decodeTiffHeights(bytes, given));
        const cellSize = tiff.cellSize ?? cellSizeOf(path, tiff.width, tiff.depth, flags);
        return single(path, "tiff", tiff.width, tiff.depth, flags, tiff.kind === "uint16" ? { samples: tiff.samples } : { heights: tiff.heights }, cellSize);
    }
    if (!flags.size) {
        if (extension !== ".f32") {
            throw new BakeInputError(
                `${path}: not a heightmap the bake reads. It reads a 16-bit grayscale PNG (.png), RAW16 (.raw or .r16, with --endian ` +
                    `and, unless square, --size), a float32 OpenEXR (.exr), a 16-bit or float32 TIFF or GeoTIFF (.tif, .tiff), raw ` +
                    `little-endian float32 heights in metres (.f32, with --size WIDTHxDEPTH) or a folder of tiles with a manifest.json.`
            );
        }
        throw new BakeInputError(`${path}: raw float32 heights need their size: --size WIDTHxDEPTH (vertices).`);
    }
    const { width, depth } = flags.size;
    checkGrid(path, width, depth);
    return single(path, "f32", width, depth, flags, { heights: await f32Heights(path, width, depth) });
}
