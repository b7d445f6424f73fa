/**
 * `terrain-erosion bake` as a function: reads the input and the options file, bakes on every CPU
 * core or a GPU, and writes the outputs all or nothing; interrupted, it writes a checkpoint that a
 * run with `resume` continues from to the fingerprint of an uninterrupted bake.
 */
import { rmSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { toFixedHeights } from "../core/gridValidation.js";
import { COUNTER_NAMES, countersToObject } from "../core/counters.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import { createInitialState, type ErosionStateData } from "../core/erosionState.js";
import { fingerprintOf } from "../core/fingerprint.js";
import { fixedToHeights } from "../core/fixedPoint.js";
import { ErosionOptionError, resolveOptions, simulationOptions, type ErosionOptions } from "../core/options.js";
import { ErosionSnapshot } from "../core/snapshot.js";
import { logicalCores } from "../cpu/index.js";
import { bufferOf, mapsChunks, mapsFromBytes } from "./mapsFile.js";
import { cpuBakeDevice, gpuBakeDevice } from "./bakeDevices.js";
import { materialBakeMaps, readMaterialMap } from "./bakeMaterials.js";
import { BakeInputError, readBakeInput, type BakeInput, type InputScale } from "./bakeInput.js";
import { discardStage, outputPaths, stageOutput, writeChunks, writeOutputs, type OutputPaths } from "./bakeOutput.js";
import { LocalTileTransport } from "./localTiles.js";
import { queueBakeDevice, type QueueBakeSettings } from "./queue/queueBake.js";
import { checkTilesPerSide, defaultTilesPerSide } from "./queue/tileJobs.js";
import { TiledBakeDevice, tileStallSettings } from "./queue/tiledDevice.js";
import { WaitWatch } from "../core/waitWatch.js";
import { bakeStart, runBake, type BakeDevice, type BakeStart } from "./bakeRun.js";
import { HEIGHT_FORMATS, type HeightFormat, type OutputFormat } from "./formats/heightOutput.js";
import type { EnginePreset } from "./formats/enginePresets.js";
import type { Endian } from "./formats/raw16.js";

/** The input format's own output family. */
const OWN_FORMAT = { png: "png16", raw16: "raw16", exr: "exr", tiff: "tiff", f32: "f32" } as const;

/** How the heights are written, from the settings and the input; null for tiles. Checked before any erosion runs. */
function outputFormat(settings: BakeSettings, input: Omit<BakeInput, "heights">): OutputFormat | null {
    const asked = settings.output ?? {};
    if (asked.format !== undefined && !HEIGHT_FORMATS.includes(asked.format))
        throw new BakeInputError(`--format is "${asked.format}": it must be one of ${HEIGHT_FORMATS.join(", ")}.`);
    if (asked.endian !== undefined && asked.endian !== "little" && asked.endian !== "big")
        throw new BakeInputError(`--endian is "${asked.endian}": it must be little or big.`);
    if (asked.preset !== undefined && asked.preset !== "unity" && asked.preset !== "unreal")
        throw new BakeInputError(`The engine preset is "${asked.preset}": it must be unity or unreal.`);
    if (input.format === "tiles") {
        if (asked.format || asked.preset)
            throw new BakeInputError(
                `${input.path}: a folder of tiles is written as tiles in its own format; --format, --unity and --unreal write one heightmap file.`
            );
        return null;
    }
    const presetFormat = asked.preset === "unity" ? "raw16" : asked.preset === "unreal" ? "png16" : null;
    if (presetFormat && asked.format && asked.format !== presetFormat)
        throw new BakeInputError(`--${asked.preset} writes ${presetFormat}, but --format asks for ${asked.format}: give one or the other.`);
    return { format: presetFormat ?? asked.format ?? OWN_FORMAT[input.format], endian: asked.endian ?? input.endian ?? "little", preset: asked.preset ?? null };
}

/** Vertices above which a CPU bake runs in tiles unless asked otherwise (4096²: about 1.1 GB on the CPU backend's one worker). */
export const TILED_BAKE_VERTICES = 4096 * 4096;

/** What to bake. */
export interface BakeSettings {
    /** A 16-bit PNG, RAW16 (`.raw`, `.r16`), float32 EXR, 16-bit or float32 TIFF/GeoTIFF, a `.f32` file, or a folder of tiles with `manifest.json`. */
    readonly input: string;
    /**
     * How the heights are written: `format` (default: the input's family; a folder of tiles is
     * written as tiles), RAW16's `endian` (default the input's, else little), or an engine `preset`
     * (`unity`: RAW16 at 2^n + 1 a side; `unreal`: a 16-bit PNG of a recommended landscape size).
     */
    readonly output?: { readonly format?: HeightFormat; readonly endian?: Endian; readonly preset?: EnginePreset };
    /** The heights' output (a file, or a folder for tiles); the other files go beside it. */
    readonly out: string;
    /** Cycles to run (the terrain's total when resuming). */
    readonly cycles: number;
    /** A JSON file of erosion options (the component's identifiers), or none for the defaults. */
    readonly optionsFile?: string;
    /** A hardness map for the materials (`setMask("hardness")`; `readMaterialMap` reads it), which need `materials.enabled` in the options. */
    readonly hardnessMap?: string;
    /**
     * A soil map for the materials (`setMask("soil")`: the share of `materials.initialSoil` each
     * vertex starts with), which need `materials.enabled` in the options.
     */
    readonly soilMap?: string;
    readonly scale?: InputScale;
    /** Run on a GPU through Dawn for Node instead of the CPU. */
    readonly gpu?: boolean;
    /** CPU workers; 0 or absent: every logical core. */
    readonly workers?: number;
    /** Continue from the checkpoint an interrupted bake of the same input and options wrote. */
    readonly resume?: boolean;
    /**
     * Bake in tiles on this machine's cores (`localTiles.ts`), each step cut into this many tiles
     * per side, so the bake's memory is the field's state and maps plus a few tiles: about 30
     * bytes a vertex where the CPU backend takes some 70 on one worker and 100 on two. 0: the CPU
     * backend's worker pool over the whole field (faster, given the memory). Default: in tiles
     * (`defaultTilesPerSide`) when the field has more than `TILED_BAKE_VERTICES` vertices, else 0.
     * Not with `gpu` or `queue` (which has its own tiles).
     */
    readonly tiles?: number;
    /** Send the batches out as tile jobs on a BullMQ queue instead of this machine's cores. */
    readonly queue?: QueueBakeSettings;
    readonly onProgress?: (done: number, total: number, cycle: number) => void;
    /** Asked after every class of batches; true writes a checkpoint and stops. */
    readonly shouldStop?: () => boolean;
    /**
     * Told of each stall: a wait on a device, a thread or the queue with no answer within the
     * options' `stallTimeoutMs`. A tiled or queued bake sends the missing tile jobs again, up to
     * `stallRetries` times, then runs them itself and stops with a checkpoint (`BakeSummary.stall`);
     * elsewhere the bake fails with the stall, naming the wait.
     */
    readonly onStall?: (message: string) => void;
}

/** How a bake ended. */
export interface BakeSummary {
    readonly fingerprint: string;
    /** The report written (null when interrupted). */
    readonly report: Record<string, unknown> | null;
    /** The checkpoint written when interrupted, else null. */
    readonly checkpoint: string | null;
    readonly cycles: number;
    /** Why a stall stopped the bake (it wrote `checkpoint`; `resume` continues), or the stall it got over, else null. */
    readonly stall: string | null;
}

/** What a checkpoint's sidecar records, so `resume` continues the same bake only. */
interface CheckpointMeta {
    readonly input: string;
    readonly startFingerprint: string;
}

/** Reads an options file: the component's option identifiers, validated the same way, errors naming the file. */
export async function readOptionsFile(path: string | undefined): Promise<ErosionOptions> {
    if (!path) return resolveOptions({});
    let json: unknown;
    try {
        json = JSON.parse(await readFile(path, "utf8"));
    } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        throw new BakeInputError(`${path}: ${code ? `cannot read it (${code})` : `not valid JSON (${(error as Error).message})`}.`);
    }
    try {
        return resolveOptions(json as Record<string, unknown>);
    } catch (error) {
        if (error instanceof ErosionOptionError) throw new BakeInputError(`${path}: ${error.message}`);
        throw error;
    }
}

/** The input's layout (its heights dropped once the start state is made) and the start state. */
async function readStart(settings: BakeSettings): Promise<{ layout: Omit<BakeInput, "heights">; initial: ErosionStateData | null }> {
    const { heights, ...layout } = await readBakeInput(settings.input, settings.scale ?? {});
    return { layout, initial: createInitialState(layout.width, layout.depth, toFixedHeights(heights, layout.cellSize)) };
}

/** The start state, taken out of `start` so that nothing here holds it once the device has its own. */
function takeInitial(start: { initial: ErosionStateData | null }): ErosionStateData {
    const initial = start.initial!;
    start.initial = null;
    return initial;
}

/** The device, started on the bake's start state (a checkpoint's, or `initial`), and that state's position. */
async function openDevice(
    settings: BakeSettings, options: ErosionOptions, initial: ErosionStateData, paths: OutputPaths, cellSize: number
): Promise<{ device: BakeDevice; start: BakeStart; startFingerprint: string }> {
    const startFingerprint = fingerprintOf(initial);
    const resumed = settings.resume ? await readCheckpoint(paths.checkpoint, startFingerprint, options, settings.cycles) : null;
    if (settings.queue) {
        if (settings.gpu) throw new BakeInputError("--queue and --gpu: a queued bake runs on its workers' CPUs; give one or the other.");
        const threads = settings.workers && settings.workers > 0 ? settings.workers : undefined;
        const opened = await queueBakeDevice(
            { coordinatorThreads: threads, onStall: settings.onStall, ...settings.queue },
            { startFingerprint, options, cellSize, cycles: settings.cycles, checkpointPath: paths.queueCheckpoint }, resumed ?? { state: initial, maps: null }
        );
        return { device: opened.device, start: bakeStart(opened.state), startFingerprint };
    }
    const state = resumed?.state ?? initial;
    const workers = settings.workers && settings.workers > 0 ? settings.workers : logicalCores();
    const tiles = settings.tiles ?? (!settings.gpu && state.width * state.depth > TILED_BAKE_VERTICES ? defaultTilesPerSide(state.width, state.depth) : 0);
    let device: BakeDevice;
    if (tiles !== 0) {
        if (settings.gpu) throw new BakeInputError("--tiles and --gpu: a bake in tiles runs on the CPU's cores; give one or the other.");
        try {
            checkTilesPerSide(tiles, "--tiles");
        } catch (error) {
            throw new BakeInputError((error as Error).message);
        }
        device = new TiledBakeDevice(state, tiles, new LocalTileTransport(workers), {
            riverWindows: true,
            adoptState: true,
            ...tileStallSettings(options, settings.onStall),
        });
    } else {
        const watch = new WaitWatch(() => options.stallTimeoutMs);
        device = settings.gpu ? await gpuBakeDevice(state, options.patchSize, watch) : await cpuBakeDevice(state, workers, watch);
    }
    if (resumed) await device.writeMaps(resumed.maps);
    return { device, start: bakeStart(state), startFingerprint };
}

/** Bakes `settings.input` into `settings.out`. */
export async function bake(settings: BakeSettings): Promise<BakeSummary> {
    if (!Number.isInteger(settings.cycles) || settings.cycles < 0)
        throw new BakeInputError(`--cycles is ${settings.cycles}: it must be a whole number of cycles, 0 or more.`);
    const options = await readOptionsFile(settings.optionsFile);
    // Only the device holds the grids while the bake runs: the input's heights and the start state
    // are not kept here (a large bake's memory is the device's).
    const input = await readStart(settings);
    const layout = input.layout;
    for (const [flag, name, path] of [["--hardness-map", "hardness", settings.hardnessMap], ["--soil-map", "soil", settings.soilMap]] as const) {
        if (!path) continue;
        if (!options.materials.enabled)
            throw new BakeInputError(
                `${flag}: the options leave the materials off, so the map would change nothing; set materials.enabled in the options file.`
            );
        input.initial!.masks[name] = await readMaterialMap(path, layout.width, layout.depth, flag);
    }
    const output = outputFormat(settings, layout);
    const paths = outputPaths(settings.out);
    const stage = await stageOutput(paths);
    // Quitting outright (a second Ctrl-C) leaves no staging folder behind either.
    const removeStage = () => rmSync(stage, { recursive: true, force: true });
    process.on("exit", removeStage);
    let device: BakeDevice | null = null;
    try {
        // The device keeps its own copy of the start state: this one goes (a large bake's memory).
        const opened = await openDevice(settings, options, takeInitial(input), paths, layout.cellSize);
        device = opened.device;
        const { start, startFingerprint } = opened;
        const started = performance.now();
        const result = await runBake({
            start,
            options,
            cellSize: layout.cellSize,
            cycles: settings.cycles,
            device,
            onProgress: settings.onProgress,
            shouldStop: settings.shouldStop,
        });
        const seconds = (performance.now() - started) / 1000;
        const deviceFigures = device.figures?.() ?? null;
        if (!result.stopped) await device.complete?.();
        device.dispose();
        device = null;
        // The state read back is already a copy: the snapshot takes it over.
        const snapshot = ErosionSnapshot.adopt(result.state, options, layout.cellSize);
        if (result.stopped) {
            await writeChunks(paths.checkpoint, snapshot.chunks());
            await writeChunks(`${paths.checkpoint}.maps`, mapsChunks(result.maps));
            await writeFile(`${paths.checkpoint}.json`, JSON.stringify({ input: settings.input, startFingerprint } satisfies CheckpointMeta) + "\n");
            await discardStage(stage);
            return { fingerprint: snapshot.fingerprint, report: null, checkpoint: paths.checkpoint, cycles: result.state.cycle, stall: result.stall };
        }
        const report = await writeOutputs(paths, stage, {
            input: layout,
            heights: () => fixedToHeights(result.state.heights, undefined, layout.cellSize),
            heightsRow: (y, out) => void fixedToHeights(result.state.heights.subarray(y * layout.width, (y + 1) * layout.width), out, layout.cellSize),
            maps: {
                ...result.maps,
                drainageArea: new Uint32Array(result.state.drainageArea.buffer, result.state.drainageArea.byteOffset, result.state.drainageArea.length),
                ...materialBakeMaps(result.state, options),
            },
            output,
            snapshot: () => snapshot.chunks(),
            report: {
                input: settings.input,
                format: layout.format,
                width: layout.width,
                depth: layout.depth,
                cellSize: layout.cellSize,
                cycles: result.state.cycle,
                resumedFromCycle: settings.resume ? start.cycle : null,
                batches: result.batches,
                seconds,
                device: result.device,
                fingerprint: snapshot.fingerprint,
                startFingerprint,
                counters: countersToObject(result.state.counters),
                counterNames: COUNTER_NAMES,
                ...(deviceFigures ? { [settings.queue ? "queue" : "tiles"]: deviceFigures } : {}),
                options,
            },
        });
        await rm(paths.checkpoint, { force: true });
        await rm(`${paths.checkpoint}.json`, { force: true });
        await rm(`${paths.checkpoint}.maps`, { force: true });
        await discardStage(stage);
        return { fingerprint: snapshot.fingerprint, report, checkpoint: null, cycles: result.state.cycle, stall: result.stall };
    } catch (error) {
        await discardStage(stage);
        throw error;
    } finally {
        process.off("exit", removeStage);
        device?.dispose();
    }
}

/** The state and maps a checkpoint holds, after checking it continues this bake. */
async function readCheckpoint(
    path: string, startFingerprint: string, options: ErosionOptions, cycles: number
): Promise<{ state: ErosionStateData; maps: ErosionMaps }> {
    let snapshot: ErosionSnapshot;
    let meta: CheckpointMeta;
    let mapsFile: Uint8Array;
    try {
        snapshot = ErosionSnapshot.fromArrayBuffer(bufferOf(await readFile(path)));
        meta = JSON.parse(await readFile(`${path}.json`, "utf8")) as CheckpointMeta;
        mapsFile = await readFile(`${path}.maps`);
    } catch (error) {
        throw new BakeInputError(
            `--resume: cannot read the checkpoint ${path} ` +
                `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); an interrupted bake writes it.`
        );
    }
    if (meta.startFingerprint !== startFingerprint) throw new BakeInputError(`--resume: the checkpoint ${path} was baked from other heights (${meta.input}).`);
    if (JSON.stringify(snapshot.options) !== JSON.stringify(simulationOptions(options)))
        throw new BakeInputError(`--resume: the checkpoint ${path} was baked with other options; resume with the same options file.`);
    if (snapshot.state.cycle > cycles)
        throw new BakeInputError(`--resume: the checkpoint ${path} is at cycle ${snapshot.state.cycle}, past --cycles ${cycles}.`);
    const cells = snapshot.state.width * snapshot.state.depth;
    const maps = mapsFromBytes(mapsFile, cells);
    if (!maps)
        throw new BakeInputError(
            `--resume: the checkpoint's maps ${path}.maps are not the size of its ${snapshot.state.width} x ${snapshot.state.depth} grid.`
        );
    return { state: snapshot.state, maps };
}
