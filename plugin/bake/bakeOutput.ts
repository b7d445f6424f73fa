/**
 * What a bake writes, all or nothing: the eroded heights in the format asked for (a 16-bit PNG or
 * RAW16 with the height range it used, a float32 EXR or TIFF, raw float32, or the input's tiles and
 * manifest; formats/heightOutput.ts), the maps (water, wear, deposition, drainage area: 16-bit PNGs,
 * or EXR channels, or float32 TIFFs), the `ErosionSnapshot` that `restore()` loads in the browser,
 * and the JSON report (options, cycles, time, counters, fingerprint, an engine preset's settings). Every file is written into a staging folder
 * beside the output first and moved into place only once all of them are written, so a failed bake
 * leaves no partial output.
 */
import { mkdir, mkdtemp, open, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";
import { encodeGray16Png, heightsToSamples, type HeightRange } from "../terrain/index.js";
import { writeGray16PngRows } from "./pngRows.js";
import type { BakeInput } from "./bakeInput.js";
import { encodeHeights, encodeMaps, fits, mapSamples, type BakeMaps, type OutputFormat } from "./formats/heightOutput.js";

/** An output that cannot be written, naming it. */
export class BakeOutputError extends Error {
    public override readonly name = "BakeOutputError";
}

/** Where a bake's files go, worked out from `--out` and the input's layout. */
export interface OutputPaths {
    /** The heights: a file, or for tiles a folder. */
    readonly heights: string;
    /** Prefix of the other files: `<prefix>.snapshot`, `<prefix>.report.json`, `<prefix>.water.png`... */
    readonly prefix: string;
    /** The checkpoint Ctrl-C writes (and `--resume` reads). */
    readonly checkpoint: string;
    /** The coordinator's own checkpoint in a queued bake (`queue/queueCheckpoint.ts`). */
    readonly queueCheckpoint: string;
}

/** The output paths for `out` (a file for PNG or float32 input, a folder for tiles). */
export function outputPaths(out: string): OutputPaths {
    const extension = extname(out);
    const prefix = extension.length > 0 ? out.slice(0, -extension.length) : out;
    return { heights: out, prefix, checkpoint: `${prefix}.checkpoint`, queueCheckpoint: `${prefix}.queue-checkpoint` };
}

/**
 * Makes the staging folder beside the output now, so an output that cannot be written fails before
 * any erosion runs.
 */
export async function stageOutput(paths: OutputPaths): Promise<string> {
    const parent = dirname(paths.heights);
    try {
        await mkdir(parent, { recursive: true });
        return await mkdtemp(join(parent, `.${basename(paths.prefix)}.bake-`));
    } catch (error) {
        throw new BakeOutputError(`${paths.heights}: cannot write there (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
    }
}

/** Removes a staging folder (after a failure, or once its files moved). */
export async function discardStage(stage: string): Promise<void> {
    await rm(stage, { recursive: true, force: true });
}

/**
 * A PNG's eroded heights, written row by row into `file` from `heightsRow`: over the input's range if
 * every height fits in it, else over the heights' own. Returns the range used.
 */
async function writeHeightsPng(file: string, input: Omit<BakeInput, "heights">, heightsRow: (y: number, out: Float32Array) => void): Promise<HeightRange> {
    const { width, depth } = input;
    const row = new Float32Array(width);
    let min = Infinity;
    let max = -Infinity;
    for (let y = 0; y < depth; y++) {
        heightsRow(y, row);
        for (let x = 0; x < width; x++) {
            min = Math.min(min, row[x]);
            max = Math.max(max, row[x]);
        }
    }
    // The range heightsToSamples takes for heights whose extremes these are.
    const range = input.range && min >= input.range.min && max <= input.range.max ? input.range : heightsToSamples([min, max]).range;
    await writeGray16PngRows(file, width, depth, (y, samples) => {
        heightsRow(y, row);
        samples.set(heightsToSamples(row, range).samples);
    });
    return range;
}

async function heightsFiles(input: Omit<BakeInput, "heights">, heights: Float32Array): Promise<{ files: Map<string, Uint8Array>; range: HeightRange | null }> {
    const files = new Map<string, Uint8Array>();
    // The input's range if the eroded heights fit in it (they usually do: erosion lowers); else the
    // heights' own, so nothing clips. The report says which.
    const range = input.range && fits(heights, input.range) ? input.range : heightsToSamples(heights).range;
    const tiles = input.tiles!;
    let y0 = 0;
    for (let row = 0; row < tiles.rows.length; row++) {
        let x0 = 0;
        for (let column = 0; column < tiles.columns.length; column++) {
            const w = tiles.columns[column];
            const d = tiles.rows[row];
            const tile = new Float32Array(w * d);
            for (let y = 0; y < d; y++) tile.set(heights.subarray((y0 + y) * input.width + x0, (y0 + y) * input.width + x0 + w), y * w);
            const name = tiles.files[row][column];
            files.set(name, tiles.format === "png" ? await encodeGray16Png(heightsToSamples(tile, range).samples, w, d) : new Uint8Array(tile.buffer));
            x0 += w - 1;
        }
        y0 += tiles.rows[row] - 1;
    }
    files.set(
        "manifest.json",
        new TextEncoder().encode(
            JSON.stringify({ tiles: tiles.files, columns: tiles.columns, rows: tiles.rows, cellSize: input.cellSize, heightRange: range }, null, 2) + "\n"
        )
    );
    return { files, range };
}

/** A map as a 16-bit PNG written into `file`, scaled so its largest value is 65535; returns the scale (value per sample step). */
async function writeMapPng(file: string, map: Uint32Array, width: number, depth: number): Promise<number> {
    const { samples, valuePerStep } = mapSamples(map);
    await writeGray16PngRows(file, width, depth, (y, row) => row.set(samples.subarray(y * width, (y + 1) * width)));
    return valuePerStep;
}

/** Everything a finished bake writes. */
export interface BakeOutputs {
    /** The input's layout (its heights are not needed). */
    readonly input: Omit<BakeInput, "heights">;
    /** The eroded heights in metres, asked for when they are written (raw float32 and tiles). */
    readonly heights: () => Float32Array;
    /** Row `y` of the eroded heights in metres, into `out` (a PNG's heights are written row by row). */
    readonly heightsRow: (y: number, out: Float32Array) => void;
    readonly maps: BakeMaps;
    /** How the heights are written (null: the input's tiles). */
    readonly output: OutputFormat | null;
    /** The snapshot's bytes, a piece at a time (`ErosionSnapshot.chunks`): written as they come, never whole in memory. */
    readonly snapshot: () => Iterable<Uint8Array>;
    /** The report, less what writing adds (the range used and the map scales). */
    readonly report: Record<string, unknown>;
}

/** Writes `chunks` one after another into the file `path` (a snapshot's pieces: never the whole in memory). */
export async function writeChunks(path: string, chunks: Iterable<Uint8Array>): Promise<void> {
    const handle = await open(path, "w");
    try {
        for (const chunk of chunks) await handle.write(chunk);
    } finally {
        await handle.close();
    }
}

/** Writes the outputs into `stage`, then moves them into place; returns the report as written. */
export async function writeOutputs(paths: OutputPaths, stage: string, outputs: BakeOutputs): Promise<Record<string, unknown>> {
    const { input } = outputs;
    const staged = new Map<string, string>(); // staged file -> final path
    const put = async (name: string, bytes: Uint8Array | ArrayBuffer, final: string) => {
        const file = join(stage, name);
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes);
        staged.set(file, final);
    };
    // One large buffer at a time, each dropped once written: the output is a bake's peak memory.
    const snapshotFile = join(stage, "snapshot");
    await writeChunks(snapshotFile, outputs.snapshot());
    staged.set(snapshotFile, `${paths.prefix}.snapshot`);
    let heightRange: HeightRange | null;
    let engine: Awaited<ReturnType<typeof encodeHeights>>["engine"] = null;
    const output = outputs.output;
    if (output?.format === "png16" && !output.preset) {
        const file = join(stage, "heights");
        heightRange = await writeHeightsPng(file, input, outputs.heightsRow);
        staged.set(file, paths.heights);
    } else if (output) {
        const encoded = await encodeHeights(output, outputs.heights(), input);
        ({ range: heightRange, engine } = encoded);
        await put("heights", encoded.bytes, paths.heights);
    } else {
        const heights = await heightsFiles(input, outputs.heights());
        heightRange = heights.range;
        for (const [name, bytes] of heights.files) await put(join("tiles", name), bytes, join(paths.heights, name));
    }
    const mapScales: Record<string, number> = {};
    const mapFiles = output ? await encodeMaps(output.format, outputs.maps, input.width, input.depth, input.cellSize) : null;
    if (mapFiles) {
        for (const [suffix, bytes] of mapFiles) await put(`map-${suffix}`, bytes, `${paths.prefix}.${suffix}`);
    } else {
        for (const [name, map] of Object.entries(outputs.maps) as [keyof BakeMaps, Uint32Array | undefined][]) {
            if (!map) continue;
            const file = join(stage, `${name}.png`);
            mapScales[name] = await writeMapPng(file, map, input.width, input.depth);
            staged.set(file, `${paths.prefix}.${name}.png`);
        }
    }
    // Peak memory measured here, once every large output has been written: the whole bake's.
    const report = {
        ...outputs.report,
        output: output
            ? { format: output.format, ...(output.format === "raw16" ? { endian: output.endian } : {}), preset: output.preset }
            : { format: "tiles" },
        heightRange,
        ...(mapFiles ? {} : { mapsValuePerSampleStep: mapScales }),
        ...(engine ? { engine: { preset: output!.preset, ...engine.settings } } : {}),
        peakResidentMB: Math.round(process.resourceUsage().maxRSS / 1024),
    };
    await put("report.json", new TextEncoder().encode(JSON.stringify(report, null, 2) + "\n"), `${paths.prefix}.report.json`);
    try {
        for (const [file, final] of staged) {
            await mkdir(dirname(final), { recursive: true });
            await rename(file, final);
        }
    } catch (error) {
        throw new BakeOutputError(`${paths.heights}: cannot move the bake's files into place (${(error as Error).message}).`);
    }
    return { ...report, ...(engine ? { importLines: engine.lines } : {}) };
}
