/**
 * A bake device that sends each step of independent batches out as tile jobs (`tileJobs.ts`) and
 * keeps the whole state itself, as the coordinator: it encodes what a job reads from its state,
 * and applies what the jobs changed once they are all done, then makes a tileable terrain's seam
 * once for the class, as the GPU and the worker pool do. A river batch runs here, on this machine's
 * worker pool (shared memory): it is one batch over the whole field, about 70 Jacobi phases that
 * each read the rows the phase before wrote, so as jobs it would move the whole field some 70 times
 * a batch.
 */
import { prepareMaterials, riverRunsInWindows, RiverWindows, tileSeam, windowVerticesFor } from "../../kernels/index.js";
import { CPU_OPERATORS, CpuBatchRunner, CpuPool, nodeSpawner } from "../../cpu/index.js";
import { cloneState, type ErosionStateData } from "../../core/erosionState.js";
import type { ErosionMaps } from "../../core/erosionMaps.js";
import type { PlannedBatch } from "../../core/schedule.js";
import type { BakeDevice } from "../bakeRun.js";
import { CPU_WORKER_SOURCE } from "../../generated/cpuWorkerSource.generated.js";
import { applyTileOutput, encodeTileInput, tileJobs, type TileJob } from "./tileJobs.js";
import { TileWorkbench } from "./tileWork.js";
import { StallError, WaitWatch } from "../../core/waitWatch.js";
import { DEFAULT_OPTIONS, type ErosionOptions } from "../../core/options.js";

/** A step's place in the bake: its cycle and class. */
export interface StepId {
    readonly cycle: number;
    readonly group: number;
}

/** Where a step's tile jobs run. */
export interface StepTransport {
    /** Describes it for the report ("queue redis://host:port"). */
    readonly description: string;
    /**
     * Runs `jobs` (one step), handing each job's output to `output` (with the job's place in
     * `jobs`) once, in any order; `input(job)` encodes a job's input from the coordinator's state
     * when it has to be sent. A transport may ask for an input after outputs of the same step were
     * applied: the step's batches form one class, so no job's output changes a cell another job
     * reads (`independentClasses.ts`), and the input is the one it had before the step.
     * `progress`, where the transport sees a job done before its output arrives (a queue), says so:
     * each call gives the step's wait a whole `stallTimeoutMs` again (an output does the same).
     */
    runStep(
        step: StepId, jobs: readonly TileJob[], input: (job: TileJob) => Uint8Array, output: (index: number, bytes: Uint8Array) => void, progress?: () => void
    ): Promise<void>;
    /**
     * The step's jobs stalled (no answer within `stallTimeoutMs`): let go of whatever holds them (a
     * thread that stopped answering) before the jobs still missing are sent again.
     */
    abandon?(): Promise<void>;
    /** Called as a cycle starts, before its first step, with the device (its state is at `cycle`, batch 0). */
    cycleStart?(cycle: number, device: TiledBakeDevice): Promise<void>;
    /** What the transport's coordination cost, for the report (given the device's own figures). */
    figures?(work: TiledFigures): Record<string, unknown>;
    /** The bake completed: forget what a restart would need. */
    complete?(): Promise<void>;
    close(): Promise<void>;
}

/** What the tile jobs of a bake moved and cost. */
export interface TiledFigures {
    steps: number;
    jobs: number;
    /** Bytes of the jobs' inputs and outputs. */
    bytesIn: number;
    bytesOut: number;
    /** Cells the coordinator wrote from the outputs. */
    cellsChanged: number;
    /** Milliseconds of river batches run on the coordinator. */
    riverMs: number;
    /** Milliseconds of the tiled steps, from sending the first input to applying the last output. */
    stepMs: number;
}

/** How the coordinator of a tiled bake runs its own share. */
export interface TiledDeviceSettings {
    /** Threads the river batches run on here (1: this thread; more: Node worker threads sharing memory). Default 1. */
    readonly riverThreads?: number;
    /**
     * Run the river batches in windows of rows on this thread (`riverWindows.ts`), so the coordinator
     * holds the state and the maps and little else; a tileable terrain's still run whole. Default false.
     */
    readonly riverWindows?: boolean;
    /** About how many vertices a river window holds (default `windowVerticesFor` the field: at most about 200 MB of grids). */
    readonly riverWindowVertices?: number;
    /** Take the start state and the maps given to `writeMaps` over rather than copy them (the caller lets them go). Default false. */
    readonly adoptState?: boolean;
    /**
     * How long a step may go without a job's answer, milliseconds (`stallTimeoutMs`; default its
     * default), and how many times its missing jobs are sent again after a stall (`stallRetries`)
     * before the coordinator runs them itself and the bake stops there (`TileStallStop`).
     */
    readonly stallTimeoutMs?: number;
    readonly stallRetries?: number;
    /** Told of each stall (the message names the step, its missing tiles and the wait). */
    readonly onStall?: (message: string, error: StallError) => void;
}

/** A coordinator's stall settings from the bake's options (`stallTimeoutMs`, `stallRetries`) and who hears of a stall. */
export function tileStallSettings(
    options: Pick<ErosionOptions, "stallTimeoutMs" | "stallRetries">,
    onStall?: (message: string) => void
): Pick<TiledDeviceSettings, "stallTimeoutMs" | "stallRetries" | "onStall"> {
    return { stallTimeoutMs: options.stallTimeoutMs, stallRetries: options.stallRetries, onStall: onStall ? (message) => onStall(message) : undefined };
}

/**
 * A tiled bake stopped after a step's jobs stalled more times than `stallRetries`: the coordinator
 * ran the missing ones itself, so the state is whole at the step's end, and the bake stops there
 * (a checkpoint `--resume` continues from) rather than wait on a transport that does not answer.
 */
export class TileStallStop extends Error {
    public override readonly name = "TileStallStop";
    /** The frame ran whole: the bake stops after it (`runBake`). */
    public readonly stopsAfterFrame = true;

    constructor(
        message: string,
        public readonly stall: StallError
    ) {
        super(message);
    }
}

/** The coordinator of a tiled bake. */
export class TiledBakeDevice implements BakeDevice {
    public readonly work: TiledFigures = { steps: 0, jobs: 0, bytesIn: 0, bytesOut: 0, cellsChanged: 0, riverMs: 0, stepMs: 0 };
    private readonly _runner: CpuBatchRunner;
    /** The coordinator's threads for the river batches (null: this thread alone). */
    private _pool: CpuPool | null;
    /** Threads the rivers ran on (the report's; the pool goes at `release`). */
    private readonly _riverThreads: number;

    /** Whether the state and maps it is given are taken over, not copied. */
    private readonly _adopts: boolean;
    /** River batches in windows (null: whole, on the pool or this thread). */
    private readonly _windows: RiverWindows | null;
    /** The steps' waits, each with the stall deadline. */
    public readonly waits: WaitWatch;
    private readonly _stallRetries: number;
    private readonly _onStall: ((message: string, error: StallError) => void) | null;

    constructor(
        state: ErosionStateData,
        private readonly _tilesPerSide: number,
        private readonly _transport: StepTransport,
        settings: TiledDeviceSettings = {}
    ) {
        this._adopts = settings.adoptState ?? false;
        const timeoutMs = settings.stallTimeoutMs ?? DEFAULT_OPTIONS.stallTimeoutMs;
        this.waits = new WaitWatch(() => timeoutMs);
        this._stallRetries = settings.stallRetries ?? DEFAULT_OPTIONS.stallRetries;
        this._onStall = settings.onStall ?? null;
        this._runner = new CpuBatchRunner(this._adopts ? state : cloneState(state));
        this._windows = settings.riverWindows
            ? new RiverWindows(state.counters.length, settings.riverWindowVertices ?? windowVerticesFor(state.width * state.depth))
            : null;
        const riverThreads = this._windows ? 1 : (settings.riverThreads ?? 1);
        const spawn = riverThreads > 1 ? nodeSpawner(CPU_WORKER_SOURCE) : null;
        this._pool = spawn ? CpuPool.create(this._runner, { members: riverThreads, shared: true, spawn }) : null;
        this._riverThreads = this._pool?.members ?? 1;
    }

    public get description(): string {
        const threads = this._riverThreads;
        const rivers = this._windows
            ? "rivers in windows of rows on the coordinator"
            : `rivers on the coordinator (${threads} thread${threads === 1 ? "" : "s"})`;
        return `${this._transport.description}, ${this._tilesPerSide}x${this._tilesPerSide} tiles, ${rivers}`;
    }

    public async runFrame(batches: readonly PlannedBatch[]): Promise<void> {
        if (batches.length === 0) return;
        const first = batches[0];
        if (first.batch === 0) await this._transport.cycleStart?.(first.cycle, this);
        // The soil to start with and the hardness map's grid are made here, on the whole field, before any job or window copies them.
        if (first.params.materials !== 0) prepareMaterials(this._runner.state, first);
        // A river batch (the whole field, in phases: `CPU_OPERATORS`) runs on the coordinator, never in tiles.
        const river = CPU_OPERATORS[first.operator].pool === "river";
        if (river && this._pool) {
            const started = performance.now();
            // The seam included. A stall here fails the bake, naming it: the pool's shared grids are half-written.
            await this.waits.watch("workerReply", `the coordinator's river threads (cycle ${first.cycle})`, this._pool.runBatches(batches));
            this.work.riverMs += performance.now() - started;
            return;
        }
        if (river) {
            const started = performance.now();
            const { state, maps } = this._runner;
            for (const planned of batches) {
                if (this._windows && riverRunsInWindows(planned.params)) {
                    state.masks = planned.masks;
                    this._windows.run(planned.params, planned.riverSteps, state, planned.masks, maps);
                } else {
                    this._runner.runKernels(planned);
                }
            }
            this.work.riverMs += performance.now() - started;
        }
        // A step that stalled past its retries is whole (its missing jobs ran here): the frame ends, then the bake stops.
        const stop = river ? null : await this._step(batches);
        if (first.params.seam !== 0) {
            const state = this._runner.state;
            tileSeam(first.params, state.heights, state.drainageArea, state.counters, state.materials?.soil ?? null);
        }
        if (stop) throw stop;
    }

    /** Runs a step of tile jobs; a `TileStallStop` when it stalled past its retries (the step done all the same). */
    private async _step(batches: readonly PlannedBatch[]): Promise<TileStallStop | null> {
        const started = performance.now();
        const { width, depth } = this._runner.state;
        const jobs = tileJobs(batches, width, depth, this._tilesPerSide);
        const input = (job: TileJob) => {
            const bytes = encodeTileInput(this._runner, job);
            this.work.bytesIn += bytes.byteLength;
            return bytes;
        };
        const applied = new Uint8Array(jobs.length);
        const output = (k: number, bytes: Uint8Array) => {
            if (applied[k]++ !== 0) throw new Error(`Internal error: tile job ${k} of ${jobs.length} answered twice.`);
            this.work.bytesOut += bytes.byteLength;
            this.work.cellsChanged += applyTileOutput(
                this._runner, bytes, `the output of tile ${jobs[k].tile} (cycle ${batches[0].cycle}, class ${batches[0].group})`
            );
        };
        const stop = await this._runJobs({ cycle: batches[0].cycle, group: batches[0].group }, jobs, applied, input, output);
        const missing = applied.indexOf(0);
        if (missing >= 0) throw new Error(`Internal error: tile job ${missing} of ${jobs.length} gave no output.`);
        this.work.steps++;
        this.work.jobs += jobs.length;
        this.work.stepMs += performance.now() - started;
        return stop;
    }

    /**
     * Runs the step's jobs on the transport, each stretch without an answer limited by the stall
     * deadline: after a stall the jobs still missing go again (a job's output holds cell values and
     * applies once, `applied`, so a late answer of the abandoned attempt is dropped), and past
     * `stallRetries` they run here and the bake stops after the step (`TileStallStop`).
     */
    private async _runJobs(
        step: StepId, jobs: readonly TileJob[], applied: Uint8Array, input: (job: TileJob) => Uint8Array, output: (k: number, bytes: Uint8Array) => void
    ): Promise<TileStallStop | null> {
        for (let attempt = 0; ; attempt++) {
            const missing = jobs.map((_, k) => k).filter((k) => applied[k] === 0);
            if (missing.length === 0) return null;
            const tiles = missing.map((k) => jobs[k].tile).join(", ");
            let current = true;
            const answered = (index: number, bytes: Uint8Array) => {
                if (current && applied[missing[index]] === 0) output(missing[index], bytes);
            };
            try {
                await this.waits.watchProgress("tileJob", `tile jobs ${tiles} of cycle ${step.cycle}, class ${step.group}`, (progress) =>
                    this._transport.runStep(step, missing.map((k) => jobs[k]), input, (index, bytes) => (progress(), answered(index, bytes)), progress)
                );
                return null;
            } catch (error) {
                if (!(error instanceof StallError)) throw error;
                current = false;
                const left = jobs.filter((_, k) => applied[k] === 0).map((job) => job.tile);
                const last = attempt >= this._stallRetries;
                const next = last
                    ? `more stalls than stallRetries (${this._stallRetries}): the coordinator runs them itself and the bake stops after this step`
                    : `sending them again (stall ${attempt + 1}; stallRetries ${this._stallRetries})`;
                const message = `The bake's tile jobs stalled: ${error.message} Tiles ${left.join(", ")} ` +
                    `of cycle ${step.cycle}, class ${step.group} had not answered; ${next}.`;
                this._onStall?.(message, error);
                await this._transport.abandon?.();
                if (last) {
                    const bench = new TileWorkbench(1);
                    jobs.forEach(
                        (job, k) =>
                            applied[k] === 0 &&
                            output(k, bench.run(input(job), `tile ${job.tile} (cycle ${step.cycle}, class ${step.group}), run on the coordinator`))
                    );
                    return new TileStallStop(message, error);
                }
            }
        }
    }

    public figures(): Record<string, unknown> {
        return { ...this.work, ...this._transport.figures?.(this.work) };
    }

    public async complete(): Promise<void> {
        await this._transport.complete?.();
    }

    public async readState(cycle: number, batch: number): Promise<ErosionStateData> {
        const state = cloneState(this._runner.state);
        state.cycle = cycle;
        state.batch = batch;
        return state;
    }

    public async release(cycle: number, batch: number): Promise<{ state: ErosionStateData; maps: ErosionMaps }> {
        this._pool?.dispose();
        this._pool = null;
        const state = this._runner.state;
        state.cycle = cycle;
        state.batch = batch;
        return { state, maps: this._runner.maps };
    }

    public async readMaps(): Promise<ErosionMaps> {
        const maps = this._runner.maps;
        return { water: maps.water.slice(), wear: maps.wear.slice(), deposition: maps.deposition.slice() };
    }

    public async writeMaps(maps: ErosionMaps): Promise<void> {
        if (this._adopts) this._runner.adoptMaps(maps);
        else this._runner.replaceMaps(maps);
    }

    public dispose(): void {
        this._pool?.dispose();
        this._pool = null;
        void this._transport.close();
    }
}
