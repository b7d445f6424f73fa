/**
 * What a runner does when a wait on its device or worker stalls (a `StallError`: no answer within
 * `stallTimeoutMs`): it reports the stall (`"stalled"`: the operation, the batch, the wait), lets
 * the stalled backend go and rebuilds one of the same kind from the newest rewind point (the last
 * cycle-boundary checkpoint, or the run's start), with every input given since waiting again for
 * its stamp, so the run goes on to the terrain it would have made. After more stalls in a row than
 * `stallRetries` it stops instead: the run stands at that point, every read answers from it
 * (`HaltedBackend`), `status` says why, and `start()` tries again.
 */
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { ErosionStateData } from "../core/erosionState.js";
import type { InputEntry } from "../core/inputLog/inputEntries.js";
import type { RewindPoint } from "../core/inputLog/rewindPoints.js";
import type { ErosionOptions, SimulationOptions } from "../core/options.js";
import type { ErosionSchedule } from "../core/schedule.js";
import { describeWaits, StallError } from "../core/waitWatch.js";
import type { ErosionErrorEvent, ErosionStall } from "./erosionEvents.js";
import type { GroundField } from "./groundField.js";
import { HaltedBackend } from "./haltedBackend.js";
import { present, presenterOf, type BackendPresenter } from "./backendPresenter.js";
import type { Live } from "./runnerLive.js";
import type { RunHistory } from "../core/inputLog/history.js";

/** What recovery needs of its runner. */
export interface StallHost {
    readonly field: GroundField;
    readonly schedule: ErosionSchedule;
    /** The run's history: where a rebuilt backend resumes (`resumePlan`). */
    readonly history: RunHistory;
    /** The newest options (`stallRetries` among them). */
    readonly options: ErosionOptions;
    /** True once the runner stopped for good (detached): a recovery under way lets go of what it made. */
    readonly detached: boolean;
    backend: ErosionBackend | null;
    running: boolean;
    reportEvent(event: ErosionErrorEvent): void;
    track(work: Promise<unknown>): void;
    /** A new backend of the runner's kind, started on `state`. */
    rebuild(state: ErosionStateData): Promise<ErosionBackend>;
    /** Puts `state` in force on `live.backend`, the schedule and the grounds (not logged). */
    applyState(live: Live, state: ErosionStateData, options: Readonly<SimulationOptions>, maps: null, logged: false): Promise<void>;
    /** Makes the newest options those the schedule holds. */
    adoptScheduleOptions(): void;
}

/** Where a stall happened: what erosion was doing, and where the run stood. */
export interface StallContext {
    readonly during: string;
    readonly cycle: number;
    readonly batch: number;
}

/** Releases a backend that may not answer any more (its worker, its buffers). */
function release(backend: ErosionBackend): void {
    try {
        backend.dispose();
    } catch {
        // a stalled backend's release may fail too; it is dropped either way
    }
}

/** Recovers one runner from stalls. */
export class StallRecovery {
    private _inARow = 0;
    private _count = 0;
    private _work: Promise<void> | null = null;
    private _halted: HaltedBackend | null = null;
    /** The presenter of the backend that stalled (or of the halted one `start()` retries from): what a halt presents in its place. */
    private _presenter: BackendPresenter | null = null;
    private _reason: string | null = null;
    private _lastStall: ErosionStall | null = null;

    constructor(private readonly _host: StallHost) {}

    /** True while a stalled backend is being rebuilt (no frame runs). */
    public get recovering(): boolean {
        return this._work !== null;
    }

    /** True while the runner stands stopped for stalls (reads answer from the checkpoint; no frame runs). */
    public get halted(): boolean {
        return this._halted !== null && this._host.backend === this._halted;
    }

    /** Stalls since the attach. */
    public get count(): number {
        return this._count;
    }

    /** Why erosion is recovering or stopped (the last stall's message), else null. */
    public get reason(): string | null {
        return this.recovering || this.halted ? this._reason : null;
    }

    /** Resolves once no recovery is under way. */
    public async settled(): Promise<void> {
        while (this._work) await this._work;
    }

    /** A cycle completed with no recovery under way: the count of stalls in a row starts again. */
    public cycleCompleted(): void {
        if (!this._work) this._inARow = 0;
    }

    /**
     * Takes the error a wait on `backend` ended with: a stall on the backend in use is reported and
     * recovered from, and a stall already being recovered from (another wait of the same backend)
     * is dropped, both answering true; anything else is the caller's (false).
     */
    public onError(error: unknown, backend: ErosionBackend | null, where: StallContext): boolean {
        if (!(error instanceof StallError)) return false;
        const host = this._host;
        if (this._work || !backend || backend !== host.backend || backend === this._halted || host.detached) return true;
        // Stopped only by maxCycles (reached by frames the stall undoes), the run goes on after the recovery.
        const maxCycles = host.options.maxCycles;
        const wasRunning = host.running || (maxCycles > 0 && host.schedule.cycle >= maxCycles);
        host.running = false;
        host.backend = null;
        this._presenter = presenterOf(backend);
        release(backend);
        this._noteStall(error, where, backend.name);
        this._start(backend.name, wasRunning, null);
        return true;
    }

    /** `start()` while stopped for stalls: a new backend on the state where the run stands, running. True if it was stopped. */
    public retry(): boolean {
        if (!this.halted || this._work) return false;
        const halted = this._halted!;
        this._inARow = 0;
        this._host.backend = null;
        this._presenter = presenterOf(halted);
        this._start(halted.name, true, halted);
        return true;
    }

    private _start(kind: "webgpu" | "cpu", wasRunning: boolean, from: HaltedBackend | null): void {
        const work = this._recover(kind, wasRunning, from).finally(() => {
            this._work = null;
        });
        this._work = work;
        this._host.track(work);
    }

    /** Rebuilds (again after each stall of the rebuild itself) until the backend runs, or stops past `stallRetries`. */
    private async _recover(kind: "webgpu" | "cpu", wasRunning: boolean, from: HaltedBackend | null): Promise<void> {
        const host = this._host;
        const { schedule } = host;
        for (;;) {
            if (host.detached) return;
            if (this._inARow > host.options.stallRetries) {
                await this._halt(kind);
                return;
            }
            let backend: ErosionBackend | null = null;
            try {
                let resumedAt: number;
                if (from) {
                    // Stopped before: the run stands where the stop put it (or a reset or restore since).
                    backend = await host.rebuild(await from.readState(schedule.cycle, schedule.batch));
                    resumedAt = schedule.cycle;
                } else {
                    const { point, entries } = host.history.resumePlan();
                    backend = await host.rebuild(point.state);
                    if (host.detached) throw new Error("detached");
                    await this._resumeAt(backend, point, entries);
                    resumedAt = point.state.cycle;
                }
                if (host.detached) throw new Error("detached");
                host.backend = backend;
                host.running = wasRunning;
                this._halted = null;
                host.reportEvent({
                    kind: "recovered",
                    message: `Erosion resumed on a new ${kind} backend from cycle ` +
                        `${resumedAt}${from ? "" : " (its checkpoint), every input given since applying again where it was given"}.`,
                });
                return;
            } catch (error) {
                if (backend) release(backend);
                if (host.detached) return;
                if (error instanceof StallError) {
                    this._noteStall(error, { during: "the rebuild of the backend", cycle: schedule.cycle, batch: schedule.batch }, kind);
                    continue;
                }
                this._reason = `Erosion could not resume after the stall: ${error instanceof Error ? error.message : String(error)}`;
                await this._halt(kind, error);
                return;
            }
        }
    }

    private _resumeAt(backend: ErosionBackend, point: RewindPoint, entries: readonly InputEntry[]): Promise<void> {
        return resumeFromPoint(this._host, backend, point, entries);
    }

    /** Stops: the run stands at the newest point on a backend that only answers reads, and says why. */
    private async _halt(kind: "webgpu" | "cpu", error?: unknown): Promise<void> {
        const host = this._host;
        const { point, entries } = host.history.resumePlan();
        const reason = this._reason ?? "Erosion stopped after stalls.";
        // It presents itself as the stalled backend's stand-in: rows written as that backend's were, no device, no pool.
        const presenter = this._presenter!.halted();
        const halted = present(new HaltedBackend(kind, point.state, reason, presenter.describe()), presenter);
        this._halted = halted;
        host.backend = halted;
        host.running = false;
        await this._resumeAt(halted, point, entries);
        // The stalled device may have written vertices past the point: every row goes up again from the CPU data.
        host.field.computeSeamlessNormals();
        host.reportEvent({
            kind: "stopped",
            message: `Erosion stopped at cycle ${point.state.cycle}, batch ${point.state.batch} (reads answer from there; start() tries again): ${reason}`,
            error,
            stall: this._lastStall ?? undefined,
        });
    }

    private _noteStall(error: StallError, where: StallContext, kind: "webgpu" | "cpu"): void {
        this._count++;
        this._inARow++;
        const retries = this._host.options.stallRetries;
        const next =
            this._inARow > retries
                ? `more stalls in a row than stallRetries (${retries}): erosion stops at its last checkpoint`
                : `rebuilding the ${kind} backend from the last checkpoint (stall ${this._inARow} in a row; stallRetries ${retries})`;
        const waited = `${error.wait.operation} did not settle within ${Math.round(error.waitedMs)} ` +
            `ms (${where.during}, at cycle ${where.cycle}, batch ${where.batch})`;
        const message = `Erosion stalled: ${waited}; ${next}. Waiting then: ${describeWaits(error.pending)}.`;
        this._reason = message;
        this._lastStall = null;
        const stall: ErosionStall = {
            operation: error.wait.operation,
            wait: error.wait.kind,
            during: where.during,
            cycle: where.cycle,
            batch: where.batch,
            waitedMs: error.waitedMs,
            inARow: this._inARow,
        };
        this._lastStall = stall;
        this._host.reportEvent({ kind: "stalled", message, error, stall });
    }
}

/**
 * Puts `point` back on `backend` with `entries` (those in force since it) waiting again for their
 * stamps, nothing taken back: what a rebuilt backend resumes from after a stall or a device loss, so
 * the run goes on to the terrain it would have made, the inputs given since the point included.
 */
export async function resumeFromPoint(
    host: Pick<StallHost, "field" | "schedule" | "applyState" | "adoptScheduleOptions">, backend: ErosionBackend, point: RewindPoint,
    entries: readonly InputEntry[]
): Promise<void> {
    const { schedule, field } = host;
    await host.applyState({ backend, schedule, field }, point.state, point.options, null, false);
    schedule.inputs.setHeld(point.held);
    // Stamped at or after the point: each applies (or waits, held or queued) exactly at its stamp.
    for (const entry of entries) schedule.inputs.regive(entry);
    host.adoptScheduleOptions();
}
