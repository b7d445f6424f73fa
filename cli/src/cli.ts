#!/usr/bin/env node
/**
 * The `terrain-erosion` command (the `bin` of `babylon-terrain-erosion-cli`, cli/package.json):
 * `terrain-erosion bake in.png --cycles 200 --out out.png`, and `terrain-erosion worker
 * redis://host:port` for bakes queued with `--queue`. Its parser (commander), progress bar
 * (cli-progress), GPU (webgpu, optional) and queue (bullmq, ioredis) are the CLI package's
 * dependencies, loaded only when a command needs them; the library's package has none of them.
 * The CLI package's own source: the bake it runs is the library's (`plugin/bake/`, through its face).
 */
import { basename, extname } from "node:path";
import {
    bake, BakeGpuError, BakeInputError, BakeOutputError, BakeQueueError, FORMAT_EXTENSIONS, HEIGHT_FORMATS, startQueueWorker, type BakeSettings, type Endian,
    type HeightFormat, type InputScale,
} from "../../plugin/bake/index.js";

/** Exit status of a bake that stopped after its tile jobs stalled past `stallRetries`, its checkpoint written. */
const EXIT_STALLED = 75;
/** Exit status of a bake stopped by Ctrl-C after writing its checkpoint (128 + SIGINT). */
const EXIT_INTERRUPTED = 130;

function pair(text: string, separator: string, flag: string): [number, number] {
    const parts = text.split(separator).map(Number);
    if (parts.length !== 2 || !parts.every(Number.isFinite)) throw new BakeInputError(`${flag} is "${text}": give two numbers separated by "${separator}".`);
    return [parts[0], parts[1]];
}

function positiveInteger(text: string, flag: string): number {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 0) throw new BakeInputError(`${flag} is "${text}": it must be a whole number, 0 or more.`);
    return value;
}

/** The flags as commander hands them over. */
interface BakeFlags {
    cycles: string;
    out?: string;
    options?: string;
    hardnessMap?: string;
    soilMap?: string;
    cellSize?: string;
    extent?: string;
    heightRange?: string;
    size?: string;
    gpu?: boolean;
    workers?: string;
    resume?: boolean;
    queue?: string;
    tiles?: string;
    checkpointEvery?: string;
    format?: string;
    endian?: string;
    unity?: boolean;
    unreal?: boolean;
}

function scaleOf(flags: BakeFlags): InputScale {
    const extent = flags.extent ? pair(flags.extent, "x", "--extent") : null;
    const range = flags.heightRange ? pair(flags.heightRange, ",", "--height-range") : null;
    const size = flags.size ? pair(flags.size, "x", "--size") : null;
    if (flags.endian !== undefined && flags.endian !== "little" && flags.endian !== "big")
        throw new BakeInputError(`--endian is "${flags.endian}": it must be little or big.`);
    return {
        endian: flags.endian as Endian | undefined,
        cellSize: flags.cellSize !== undefined ? Number(flags.cellSize) : undefined,
        extent: extent ? { width: extent[0], height: extent[1] } : undefined,
        heightRange: range ? { min: range[0], max: range[1] } : undefined,
        size: size ? { width: size[0], depth: size[1] } : undefined,
    };
}

/** A progress bar on a terminal, a plain line a cycle otherwise. */
async function progressReporter(): Promise<{ update(done: number, all: number, cycle: number): void; stop(): void }> {
    if (process.stderr.isTTY) {
        const { default: progress } = await import("cli-progress");
        const bar = new progress.SingleBar(
            {
                format: "baking [{bar}] {percentage}% | cycle {cycle} | {value}/{total} batches | {eta_formatted} left",
                stream: process.stderr,
                hideCursor: true,
            },
            progress.Presets.shades_classic
        );
        let started = false;
        return {
            update(done, all, cycle) {
                if (!started) bar.start(all, 0, { cycle });
                started = true;
                bar.update(done, { cycle });
            },
            stop: () => bar.stop(),
        };
    }
    let lastCycle = -1;
    return {
        update(done, all, cycle) {
            if (cycle !== lastCycle || done === all)
                process.stderr.write(`baking: cycle ${cycle}, ${done}/${all} batches (${Math.round((100 * done) / Math.max(1, all))}%)\n`);
            lastCycle = cycle;
        },
        stop: () => undefined,
    };
}

async function runBakeCommand(input: string, flags: BakeFlags): Promise<number> {
    let stopRequested = false;
    let firstInterrupt = 0;
    const onInterrupt = () => {
        // A terminal's Ctrl-C reaches npx and this process both, and npx passes it on too: a second
        // signal within a second is the same keypress.
        if (stopRequested && performance.now() - firstInterrupt > 1000) process.exit(EXIT_INTERRUPTED); // Ctrl-C again: quit now
        if (stopRequested) return;
        firstInterrupt = performance.now();
        stopRequested = true;
        process.stderr.write("\nStopping after this class of batches and writing a checkpoint (Ctrl-C again to quit without one)...\n");
    };
    process.on("SIGINT", onInterrupt);
    if (flags.unity && flags.unreal) throw new BakeInputError("--unity and --unreal: give one engine preset.");
    if (flags.format !== undefined && !HEIGHT_FORMATS.includes(flags.format as HeightFormat))
        throw new BakeInputError(`--format is "${flags.format}": it must be one of ${HEIGHT_FORMATS.join(", ")}.`);
    const preset = flags.unity ? "unity" : flags.unreal ? "unreal" : undefined;
    const format = (flags.format as HeightFormat | undefined) ?? (preset === "unity" ? "raw16" : preset === "unreal" ? "png16" : undefined);
    const extension = extname(input);
    const stem = extension ? input.slice(0, -extension.length) : input;
    const out = flags.out ?? (format ? `${stem}.eroded${FORMAT_EXTENSIONS[format]}` : extension ? `${stem}.eroded${extension}` : `${input}.eroded`);
    const progress = await progressReporter();
    const settings: BakeSettings = {
        input,
        out,
        cycles: positiveInteger(flags.cycles, "--cycles"),
        optionsFile: flags.options,
        hardnessMap: flags.hardnessMap,
        soilMap: flags.soilMap,
        scale: scaleOf(flags),
        output: { format, endian: flags.endian as Endian | undefined, preset },
        gpu: flags.gpu ?? false,
        workers: flags.workers !== undefined ? positiveInteger(flags.workers, "--workers") : 0,
        resume: flags.resume ?? false,
        tiles: flags.tiles !== undefined && !flags.queue ? positiveInteger(flags.tiles, "--tiles") : undefined,
        queue: flags.queue
            ? {
                  url: flags.queue,
                  tilesPerSide: flags.tiles !== undefined ? positiveInteger(flags.tiles, "--tiles") : undefined,
                  checkpointSeconds: flags.checkpointEvery !== undefined ? Number(flags.checkpointEvery) : undefined,
                  onNotice: (line) => process.stderr.write(`${line}\n`),
              }
            : undefined,
        onProgress: (done, all, cycle) => progress.update(done, all, cycle),
        shouldStop: () => stopRequested,
        onStall: (message) => process.stderr.write(`\n${message}\n`),
    };
    try {
        const summary = await bake(settings);
        progress.stop();
        if (summary.checkpoint) {
            const why = summary.stall && !stopRequested ? "Stopped after stalls" : "Interrupted";
            process.stderr.write(`${why} at cycle ${summary.cycles}: checkpoint ${summary.checkpoint}. Run the same command with --resume to continue.\n`);
            return summary.stall && !stopRequested ? EXIT_STALLED : EXIT_INTERRUPTED;
        }
        const report = summary.report!;
        process.stdout.write(
            `${out}: ${summary.cycles} cycle${summary.cycles === 1 ? "" : "s"} in ${(report.seconds as number).toFixed(1)} s ` +
                `on ${report.device as string}\nfingerprint ${summary.fingerprint}\n`
        );
        for (const line of (report.importLines as string[] | undefined) ?? []) process.stdout.write(`${line}\n`);
        return 0;
    } finally {
        progress.stop();
        process.off("SIGINT", onInterrupt);
    }
}

/** The worker's flags as commander hands them over. */
interface WorkerFlags {
    lockMs?: string;
    stalledMs?: string;
    verbose?: boolean;
}

/** `terrain-erosion worker <url>`: takes tile jobs until SIGINT or SIGTERM, then finishes the job in hand. */
async function runWorkerCommand(url: string, flags: WorkerFlags): Promise<number> {
    // Fault injection for the queue's tests: a worker that dies after a partial write.
    const crash = process.env.TERRAIN_EROSION_WORKER_CRASH_AFTER;
    const worker = await startQueueWorker({
        url,
        lockMs: flags.lockMs !== undefined ? positiveInteger(flags.lockMs, "--lock-ms") : undefined,
        stalledMs: flags.stalledMs !== undefined ? positiveInteger(flags.stalledMs, "--stalled-ms") : undefined,
        crashAfterJobs: crash !== undefined ? Number(crash) : undefined,
        onJob: flags.verbose
            ? (data, ms) => process.stderr.write(`tile ${data.tile}, cycle ${data.cycle}, class ${data.group}: ${ms.toFixed(1)} ms\n`)
            : undefined,
    });
    process.stderr.write(`terrain-erosion worker: taking tile jobs from ${url} (Ctrl-C to stop after the job in hand)\n`);
    await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
    });
    await worker.close();
    return 0;
}

/** Runs the command line `argv` (without node and the script); resolves with the exit status. */
export async function runCli(argv: readonly string[]): Promise<number> {
    let Command: typeof import("commander").Command;
    try {
        ({ Command } = await import("commander"));
    } catch {
        process.stderr.write(
            'terrain-erosion needs the package "commander" (a dependency of babylon-terrain-erosion-cli); install it with `npm install commander`.\n'
        );
        return 1;
    }
    let status = 0;
    const program = new Command("terrain-erosion")
        .description("Deterministic terrain erosion, offline: the same terrain a browser's TerrainErosion computes.")
        .exitOverride();
    program
        .command("bake")
        .description("Erode a heightmap: a 16-bit grayscale PNG, RAW16 (.raw/.r16), a float32 OpenEXR (.exr), a 16-bit or " +
            "float32 TIFF/GeoTIFF (.tif), raw float32 (.f32, with --size) or a folder of tiles with manifest.json.")
        .argument("<input>", "heightmap file or tile folder")
        .option("--cycles <n>", "cycles to run", "1")
        .option("--out <path>", "eroded heights (the maps, snapshot and report go beside it); default <input>.eroded.<ext>")
        .option("--options <file>", "JSON erosion options, the component's identifiers (e.g. {\"hydraulic\":{\"inertia\":0.3}})")
        .option("--hardness-map <file>", "the rock's hardness map for the materials (materials.enabled in --options): a " +
            "16-bit grayscale PNG, RAW16 or TIFF (0 to 65535 for 0 to 1) or a float32 EXR, TIFF or .f32 of values in [0, " +
            "1], sampled at the field's vertices; the hardness there is times 1 + value x (materials.hardnessMapScale - 1)")
        .option("--soil-map <file>", "the soil map for the materials (materials.enabled in --options), in the --hardness-map formats: " +
            "each vertex starts with value x materials.initialSoil of soil (then thinned by slope with materials.initialSoilSlope)")
        .option("--cell-size <metres>", "distance between neighbouring vertices (default 1)")
        .option("--extent <WxH>", "the field's extent in metres (sets the cell size; cells must be square)")
        .option("--height-range <min,max>", "metres that 16-bit samples (PNG, RAW16, 16-bit TIFF) 0 and 65535 stand for (default 0 to a quarter of the extent)")
        .option("--size <WxH>", "vertices of a raw float32 or RAW16 input (a square RAW16's side is found from its length)")
        .option("--endian <order>", "byte order of RAW16 input and output: little (Unity's Windows, Unreal's; the default) or big (Unity's Mac)")
        .option("--format <format>", "the heights' output: png16, raw16, exr (float32; the maps as one EXR's R, " +
            "G, B, A channels), tiff (float32; the maps as float32 TIFFs) or f32 (default: the input's)")
        .option("--unity", "write what Unity's Terrain > Import Raw takes: RAW16 of 2^n+1 a side (resampled to the nearest), and print the dialog's numbers")
        .option("--unreal", "write what Unreal's Landscape import takes: a 16-bit PNG of a recommended size (resampled to the nearest), and print the scales")
        .option("--gpu", "run on a GPU through Dawn for Node (the optional webgpu package)")
        .option("--workers <n>", "CPU workers (default: every core); with --queue, the threads the coordinator runs the rivers on")
        .option("--resume", "continue from the checkpoint an interrupted bake wrote (<out stem>.checkpoint)")
        .option("--queue <redis-url>", "send the work out as tile jobs on a BullMQ queue in this Redis (workers: terrain-erosion worker <redis-url>)")
        .option("--tiles <n>", "tiles per side each step is cut into: bake in tiles on this machine (memory: the " +
            "field's state and maps plus a few tiles; the default above 4096² vertices; 0: the worker pool over the " +
            "whole field) or, with --queue, the jobs (default 4, more above 4097² so a tile stays about 1024²)")
        .option("--checkpoint-every <seconds>", "with --queue: seconds between the coordinator's checkpoints, at a cycle's start (default 60)")
        .action(async (input: string, flags: BakeFlags) => {
            status = await runBakeCommand(input, flags);
        });
    program
        .command("worker")
        .description("Take tile jobs of queued bakes (terrain-erosion bake --queue) from a Redis, until Ctrl-C.")
        .argument("<redis-url>", "the Redis the bakes queue on, e.g. redis://127.0.0.1:6379")
        .option("--lock-ms <ms>", "milliseconds a job's lock lasts before another worker may take it over (default 30000)")
        .option("--stalled-ms <ms>", "milliseconds between checks for jobs a lost worker held (default 30000)")
        .option("--verbose", "a line per job")
        .action(async (url: string, flags: WorkerFlags) => {
            status = await runWorkerCommand(url, flags);
        });
    try {
        await program.parseAsync([...argv], { from: "user" });
    } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === "commander.helpDisplayed" || code === "commander.version" || code === "commander.help") return 0;
        if (code?.startsWith("commander.")) return 1; // commander printed the problem
        const known = error instanceof BakeInputError || error instanceof BakeOutputError || error instanceof BakeGpuError || error instanceof BakeQueueError;
        process.stderr.write(`terrain-erosion: ${known ? (error as Error).message : (error as Error).stack ?? String(error)}\n`);
        return 1;
    }
    return status;
}

// Run when this file is the command (the bin link, or the file itself), not when something imports it.
const invokedAs = basename(process.argv[1] ?? "");
if (/^(cli|terrain-erosion)(\.m?[jt]s)?$/.test(invokedAs)) {
    // Exit once what was written to a piped stdout has gone (process.exit alone may cut it short).
    void runCli(process.argv.slice(2)).then((status) => process.stdout.write("", () => process.exit(status)));
}
