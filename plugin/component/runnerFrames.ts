/**
 * The runner's frame loop: what each rendered frame runs (the next batches within the budget, a
 * range of a whole-field batch's pieces, or the ground edits stamped here), what the frames that
 * land bring back (rows applied a band at a time, `PendingRows`), and the frames run at once for
 * `runCycles`, a rewind or a queued operation.
 */
import type { ErosionBackend, FrameResult } from "../core/erosionBackend.js";
import type { MapsTexels } from "../core/erosionMaps.js";
import type { ErosionOptions } from "../core/options.js";
import type { ErosionSchedule, PlannedBatch } from "../core/schedule.js";
import { compareStamps } from "../core/inputLog/inputEntries.js";
import type { BoundaryCapture, Checkpoints } from "./checkpoints.js";
import type { RunHistory } from "../core/inputLog/history.js";
import { presenterOf } from "./backendPresenter.js";
import type { EditPreviews } from "./editPreviews.js";
import { IDLE_FRAME, MAX_FRAMES_IN_FLIGHT, reportBatches, type ErosionErrorEvent, type ErosionFrameStats, type ErosionReports } from "./erosionEvents.js";
import { FrameBudget, mainOperator } from "./frameBudget.js";
import { FramePace } from "./framePace.js";
import { framePieces, planFrame, type PlannedFrame } from "./framePlan.js";
import type { FrameStatsWindow } from "./frameStats.js";
import type { GroundField } from "./groundField.js";
import type { Live } from "./runnerLive.js";
import type { RunnerMaps } from "./runnerMaps.js";
import type { StartupProgress } from "./startupProgress.js";
import { PendingRows, type LandedRows } from "./pendingRows.js";
import type { StallContext } from "./stallRecovery.js";

/** Initial cost guess before a frame has been measured: milliseconds per unit of work (GPU). */
const GPU_INITIAL_MS_PER_UNIT = 2e-5;
/** Initial cost guess for the CPU backend (about 5 M steps per second). */
const CPU_INITIAL_MS_PER_UNIT = 2e-4;

/** What the frame loop needs of its runner. */
export interface FrameHost {
    readonly field: GroundField;
    readonly schedule: ErosionSchedule;
    readonly checkpoints: Checkpoints;
    /** The run's history (a checkpoint keeps the log's last seq, where a rewind to it resumes). */
    readonly history: RunHistory;
    readonly maps: RunnerMaps;
    readonly frameStats: FrameStatsWindow;
    readonly startup: StartupProgress;
    readonly options: ErosionOptions;
    readonly backend: ErosionBackend | null;
    running: boolean;
    /** True while a queued operation waits or runs (frames must not start). */
    readonly holdsFrames: boolean;
    /** True while no frame may run: from a WebGPU device loss or a stall until recovery, and stopped for stalls. */
    readonly lost: boolean;
    report(kind: ErosionErrorEvent["kind"], message: string, error?: unknown): void;
    track(work: Promise<unknown>): void;
    /** A wait on `backend` failed with `error`: true when it was a stall, which the runner recovers from (`StallRecovery`). */
    stalled(error: unknown, backend: ErosionBackend, where: StallContext): boolean;
}

/** What a frame of `batches` was doing, for a stall's report. */
function frameContext(batches: readonly PlannedBatch[], schedule: ErosionSchedule): StallContext {
    const first = batches[0];
    const last = batches.at(-1);
    if (!first || !last) return { during: "a frame", cycle: schedule.cycle, batch: schedule.batch };
    const range = first.batch === last.batch ? `batch ${first.batch}` : `batches ${first.batch}-${last.batch}`;
    return { during: `the frame of cycle ${first.cycle}, ${range} (${first.operator})`, cycle: first.cycle, batch: first.batch };
}

/** The batch running in pieces over frames (`framePieces`): its whole frame, its backend, its next piece and its boundary's capture. */
interface PiecedBatch {
    readonly whole: PlannedFrame;
    readonly backend: ErosionBackend;
    next: number;
    readonly boundary: BoundaryCapture | undefined;
}

/** Runs a runner's frames. */
export class RunnerFrames {
    private _budget = new FrameBudget(GPU_INITIAL_MS_PER_UNIT);
    /** The rendered frames' pace while erosion runs (a slow one gives the batches a share of each frame). */
    private readonly _pace = new FramePace();
    private _framesInFlight = 0;
    /**
     * Of those, frames of ground edits alone (issued ahead of erosion's frame): they do not hold
     * erosion's place, or a drag of edits, one due every frame, keeps a frame of edits in flight at
     * every rendered frame and erosion never issues another (the CPU backend's worker takes one
     * frame at a time).
     */
    private _editFramesInFlight = 0;
    /** The backend `_framesInFlight` counts for: frames of one that stalled or was lost no longer hold new ones back. */
    private _flightBackend: ErosionBackend | null = null;
    private _lastFrame: ErosionFrameStats = IDLE_FRAME;
    private _pieced: PiecedBatch | null = null;
    private readonly _rows: PendingRows;
    /** Milliseconds of rows applied as frames landed since the last rendered frame. */
    private _landedApplyMs = 0;

    constructor(
        private readonly _host: FrameHost,
        private readonly _reports: ErosionReports,
        private readonly _previews: EditPreviews
    ) {
        this._rows = new PendingRows(_host.field.width, (landed, y0, y1, texels) => this._applyBand(landed, y0, y1, texels));
    }

    /** What the last frame did. */
    public get lastFrame(): ErosionFrameStats {
        return this._lastFrame;
    }

    /** Sets the cost model's first guess for the backend that started. */
    public startOn(gpu: boolean): void {
        this._budget = new FrameBudget(gpu ? GPU_INITIAL_MS_PER_UNIT : CPU_INITIAL_MS_PER_UNIT);
    }

    /** A rendered frame: rows that came back applied within the budget, then the next work issued. */
    public onFrame(): void {
        const host = this._host;
        const backend = host.backend;
        if (!host.running && this._framesInFlight === 0 && !this._pieced && !this._rows.pending) {
            // Paused (or at maxCycles): the frames now run no erosion, and lastFrame says so.
            if (this._lastFrame.batches > 0 || this._lastFrame.applyMs > 0) this._lastFrame = { ...IDLE_FRAME, landed: this._lastFrame.landed };
            this._landedApplyMs = 0;
        }
        if (host.running) this._pace.noteFrame(performance.now());
        else this._pace.reset();
        const { schedule, options } = host;
        const maxCycles = options.maxCycles;
        if (host.running && maxCycles > 0 && schedule.cycle >= maxCycles) {
            host.running = false;
        }
        if (!backend || host.lost || host.holdsFrames) {
            return;
        }
        if (backend !== this._flightBackend) {
            // A new backend (a recovery): the frames still out on the old one are its own business.
            this._flightBackend = backend;
            this._framesInFlight = 0;
            this._editFramesInFlight = 0;
        }
        const started = performance.now();
        // The ground edits due go first, in a frame of their own, so they never take erosion's place
        // in the frame planned after them (not between a batch's pieces: nothing runs there).
        if (!this._pieced && schedule.editDue) this._issue(planFrame(schedule, this._budget, options.frameBudgetMs, { editsOnly: true }), backend);
        const frame = this._nextFrame(backend);
        if (frame) {
            if (maxCycles > 0 && schedule.cycle >= maxCycles) host.running = false;
            this._issue(frame.frame, backend, frame.boundary);
        }
        const planMs = performance.now() - started;
        // The rows that came back, in what the budget has left after planning and after the rows
        // applied as frames landed since the last rendered frame (a band at least).
        const applyMs =
            (this._rows.pending ? this._rows.applyWithin(options.frameBudgetMs - planMs - this._landedApplyMs, backend, options.frameBudgetMs) : 0) +
            this._landedApplyMs;
        this._landedApplyMs = 0;
        if (frame || applyMs > 0) {
            this._lastFrame = { ...this._lastFrame, cpuMs: planMs, applyMs };
            host.frameStats.recordMainThread(planMs + applyMs);
        }
    }

    /** What this frame issues: the next range of a batch in pieces, the next batches, or nothing. */
    private _nextFrame(backend: ErosionBackend): { frame: PlannedFrame; boundary?: BoundaryCapture } | null {
        const { schedule, options, running } = this._host;
        const presenter = presenterOf(backend);
        const pool = presenter.describe();
        // A worker takes one frame at a time (it would only queue a second behind the first).
        const inFlightLimit = pool?.inWorker ? 1 : MAX_FRAMES_IN_FLIGHT;
        if (this._pieced && this._pieced.backend !== backend) {
            this._pieced = null; // a lost device's: recovery resumes from the checkpoint
        }
        // The batches' budget: a share of each frame where the frames come slowly (`FramePace`).
        const batchBudgetMs = this._pace.batchBudgetMs(options.frameBudgetMs);
        if (this._pieced) {
            // A batch in pieces goes on (paused or not: the schedule has counted it) and nothing runs between them.
            return this._framesInFlight - this._editFramesInFlight >= inFlightLimit ? null : this._takePieces(batchBudgetMs);
        }
        // Paused, or with as many frames in flight as the backend takes, a frame still applies the
        // ground edits stamped here (a small batch each, queued behind the frames in flight): an
        // edit reaches the vertex buffers the next frame however far the readbacks lag.
        // At the horizon (a lockstep game's turn whose inputs are not all known) only the edits stamped there run.
        const atHorizon = schedule.horizon !== null && compareStamps(schedule.inputs.position, schedule.horizon) >= 0;
        // Rows waiting beyond what the next frames apply (by their budgets and their uploads) hold new
        // batches back, edits still run (`PendingRows.backlogged`).
        const backlogged = this._rows.backlogged(backend, options.frameBudgetMs);
        const editsOnly = !running || atHorizon || this._framesInFlight - this._editFramesInFlight >= inFlightLimit || backlogged;
        if (editsOnly && !schedule.editDue) {
            return null;
        }
        const frame = planFrame(schedule, this._budget, batchBudgetMs, {
            parallel: pool?.workers ?? 1,
            editsOnly,
            pieceCount: (planned, wanted) => backend.pieceCount(planned, wanted),
            evenFrames: presenter.evenFrames,
        });
        if (frame.pieceCount === 1) return { frame };
        const boundary = frame.cycleCompleted ? this._host.checkpoints.captureBoundary(schedule, this._host.history) : undefined;
        this._pieced = { whole: frame, backend, next: 0, boundary };
        return this._takePieces(batchBudgetMs);
    }

    /** The next range of the batch in pieces, and its boundary's capture with the range that ends it (which ends the pieces). */
    private _takePieces(budgetMs: number): { frame: PlannedFrame; boundary?: BoundaryCapture } {
        const pieced = this._pieced!;
        const frame = framePieces(pieced.whole, pieced.next, budgetMs);
        pieced.next = frame.pieces!.to;
        if (pieced.next < pieced.whole.pieceCount) return { frame };
        this._pieced = null;
        return { frame, boundary: pieced.boundary };
    }

    /** Issues a planned frame and takes in its results when they land. */
    private _issue(frame: PlannedFrame, backend: ErosionBackend, boundary?: BoundaryCapture): void {
        const host = this._host;
        const { batches, changed, estimatedMs, units, cycleCompleted, pieces } = frame;
        const ends = pieces === null || pieces.to === pieces.total;
        const editFrame = batches.length > 0 && batches.every((planned) => planned.operator === "edit");
        this._framesInFlight++;
        if (editFrame) this._editFramesInFlight++;
        const where = frameContext(batches, host.schedule);
        const running = backend.runFrame(batches, changed, host.maps.texelOptions(), pieces);
        const completeCycle = cycleCompleted ? this._readCheckpoint(backend, boundary) : null;
        const landed = running
            .then(async (result) => {
                if (host.backend !== backend) return; // detached meanwhile
                const operator = mainOperator(batches);
                if (result.measuredMs !== null && operator !== null) this._budget.record(operator, units, result.measuredMs);
                // The batches are reported, and the cycle completed, once the rows are on the grounds.
                if (ends) {
                    let checkpointKept: Promise<void> | null = null;
                    const landedMs = this._rows.add(
                        this._landed(result, backend, frame, () => {
                            reportBatches(this._reports, batches);
                            if (completeCycle) host.track((checkpointKept = completeCycle()));
                        }),
                        // What the budget has left since the last rendered frame: rows that landed before
                        // in the same interval count against it.
                        host.options.frameBudgetMs - this._landedApplyMs,
                        host.options.frameBudgetMs
                    );
                    // Rows applied as they landed count in the next rendered frame's main-thread time.
                    this._landedApplyMs += landedMs;
                    // Applied at once: the frame holds its place in flight until its checkpoint is kept,
                    // so the schedule never runs more than the frames in flight past a boundary whose
                    // checkpoint is not read yet (rows applied in bands keep theirs until then instead).
                    if (checkpointKept) await checkpointKept;
                }
                this._lastFrame = {
                    ...this._lastFrame,
                    batches: batches.length,
                    estimatedMs,
                    measuredMs: result.measuredMs,
                    measuredBy: result.measuredBy,
                    postMs: presenterOf(backend).frame(result).postMs,
                    pieces,
                    landed: this._lastFrame.landed + 1,
                };
                host.frameStats.recordErosion(result.measuredMs ?? estimatedMs);
                if (batches.length > 0) host.startup.enter("running");
            })
            .catch(async (error) => {
                if (host.stalled(error, backend, where)) return;
                // A readback fails just before the device reports its loss: let the loss handler own that.
                const lost = presenterOf(backend).deviceLostWithin(1000);
                if (lost && (await lost)) {
                    return;
                }
                if (host.lost || host.backend !== backend) {
                    return; // a detached backend is gone
                }
                host.running = false;
                host.report("stopped", "Erosion stopped: a frame failed.", error);
            })
            .finally(() => {
                if (this._flightBackend !== backend) return;
                this._framesInFlight--;
                if (editFrame) this._editFramesInFlight--;
            });
        host.track(landed);
    }

    /**
     * Forgets the batch in pieces, if any, and applies every row waiting: for a rewind, which puts an
     * older state in force (the backend's and the schedule's) and runs on from there, so the rest of
     * the batch would be work thrown away (on SwiftShader a river batch's rest took an undo 3 frames).
     */
    public dropPieces(): void {
        const pieced = this._pieced;
        this._pieced = null;
        this._rows.flush(this._host.backend ?? pieced?.backend ?? null);
    }

    /**
     * Runs the rest of a batch in pieces at once and applies every row waiting: what every queued
     * operation (a read, a restore, `runCycles`, the final sync of a stop) does first, so it sees
     * whole batches and up-to-date grounds. A lost device's pieces are dropped (recovery resumes
     * from the checkpoint).
     */
    public async finishPieces(): Promise<void> {
        const host = this._host;
        const pieced = this._pieced;
        if (pieced && !host.lost && (host.backend === null || host.backend === pieced.backend)) {
            const { frame, boundary } = this._takePieces(Infinity);
            try {
                await this.runNow(frame, pieced.backend, boundary);
            } catch (error) {
                // A stall is recovered from (the rows of the stalled backend are dropped below); anything
                // else stops erosion as a failed frame does, and the operation after it still runs (a stop's release above all).
                if (!host.stalled(error, pieced.backend, frameContext(frame.batches, host.schedule))) {
                    host.running = false;
                    host.report("stopped", "Erosion stopped: the rest of a batch in pieces failed.", error);
                }
            }
        }
        this._pieced = null;
        this._rows.flush(host.backend ?? pieced?.backend ?? null);
    }

    /**
     * One frame whatever the budget (to the cycle's end, or the horizon), awaited with its rows
     * applied and its checkpoint read: `runCycles`' and a rewind's step. True if it ended a cycle.
     */
    public async runUnbudgeted({ backend, schedule }: Live): Promise<boolean> {
        const frame = planFrame(schedule, this._budget, Infinity);
        await this.runNow(frame, backend);
        return frame.cycleCompleted;
    }

    /** Runs `frame` and awaits it, its rows applied and its checkpoint read (`boundary` captured at its planning, else now). */
    private async runNow(frame: PlannedFrame, backend: ErosionBackend, boundary?: BoundaryCapture): Promise<void> {
        const running = backend.runFrame(frame.batches, frame.changed, this._host.maps.texelOptions(), frame.pieces);
        const completeCycle = frame.cycleCompleted ? this._readCheckpoint(backend, boundary) : null;
        this._rows.add(this._landed(await running, backend, frame, () => reportBatches(this._reports, frame.batches)));
        this._rows.flush(backend);
        // Its rows are on the mesh now: a start whose first batches came from runCycles (paused at
        // once, as a game that steps erosion itself is) is over too, not "first batch" for ever.
        if (frame.batches.length > 0) this._host.startup.enter("running");
        await completeCycle?.();
    }

    /** The checkpoint read at the boundary a frame just reached (`Checkpoints.readAtBoundary`), with what was `captured` there (now by default). */
    private _readCheckpoint(
        backend: ErosionBackend,
        captured: BoundaryCapture = this._host.checkpoints.captureBoundary(this._host.schedule, this._host.history)
    ): () => Promise<void> {
        const host = this._host;
        return host.checkpoints.readAtBoundary(
            backend,
            captured,
            () => host.backend,
            (cycle) => this._reports.cycleCompleted({ cyclesCompleted: cycle })
        );
    }

    private _landed(result: FrameResult, backend: ErosionBackend, frame: PlannedFrame, applied?: () => void): LandedRows {
        const rows = result.rows ? { rows: result.rows, y0: result.y0, y1: result.y1, x0: result.x0, x1: result.x1 } : { rows: null, y0: 0, y1: 0 };
        const done = () => {
            applied?.();
            backend.recycle?.(result); // its rows are on the grounds now
        };
        const { texels, normals } = presenterOf(backend).frame(result);
        return { backend, ...rows, texels, normals, batches: frame.batches, applied: done };
    }

    /** Applies every row waiting (`whenIdle`: the grounds are up to date once it resolves). */
    public flushRows(): void {
        this._rows.flush(this._host.backend);
    }

    /** Rows `y0 .. y1 - 1` of a landed frame onto the grounds (its batches are reported once its last band is on: `applied`). */
    private _applyBand(landed: LandedRows, y0: number, y1: number, texels: MapsTexels | null): void {
        const cpu = presenterOf(landed.backend).uploadsRows;
        const x0 = landed.x0 ?? 0;
        const x1 = landed.x1 ?? this._host.field.width;
        if (texels) {
            this._host.maps.uploadRows(texels, y0, y1, x0, x1);
        }
        if (landed.rows && y1 > y0) {
            const columns = x1 - x0;
            const normals = landed.normals?.subarray((y0 - landed.y0) * columns * 3, (y1 - landed.y0) * columns * 3);
            this._host.field.writeRows(landed.rows.subarray((y0 - landed.y0) * columns, (y1 - landed.y0) * columns), y0, y1, cpu, normals, x0, x1);
        }
        this._previews.afterFrame(landed.batches, y0, y1, cpu, x0, x1);
    }
}
