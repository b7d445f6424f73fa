/**
 * Every wait on a device or a worker, with a deadline: a readback (`mapAsync`), the GPU's submitted
 * work (`onSubmittedWorkDone`), a worker's reply, a kernel's compile, a tile job. Each wait is
 * recorded while it is pending (what it waits for, and since when), so a frame that does not settle
 * can say which promise holds it (`describe`); one that outlives the deadline fails with a
 * `StallError` naming it, where it would otherwise hang for ever (a GPU that stopped answering, a
 * worker that died without a word). Who waits decides what a stall means: the runner rebuilds its
 * backend from the last checkpoint (`stallRecovery.ts`), a tiled bake sends the job again.
 */

/** What a wait waits for (the deadline is the same for all; the kind says where to look). */
export type WaitKind = "readback" | "submittedWork" | "workerReply" | "compile" | "tileJob";

/** A wait not settled yet. */
export interface PendingWait {
    readonly kind: WaitKind;
    /** What is awaited, e.g. `readBuffer TerrainErosion.heights (bytes 0-4096)` or `worker reply to "frame"`. */
    readonly operation: string;
    /** `performance.now()` when the wait began, milliseconds. */
    readonly startedMs: number;
}

/** A pending wait and how long it has waited so far. */
export interface WaitingNow extends PendingWait {
    /** Milliseconds since it began. */
    readonly waitedMs: number;
}

/** A wait that outlived its deadline. */
export class StallError extends Error {
    public override readonly name = "ErosionStallError";

    /**
     * @param wait the wait that ran out of time
     * @param waitedMs how long it waited, milliseconds
     * @param pending every wait still pending at that moment (it among them), oldest first
     */
    constructor(
        public readonly wait: PendingWait,
        public readonly waitedMs: number,
        public readonly pending: readonly WaitingNow[]
    ) {
        super(`${wait.operation} did not settle within ${Math.round(waitedMs)} ms (${wait.kind}); waiting then: ${describeWaits(pending)}.`);
    }
}

/** One line for a list of waits: what each waits for and how long it has waited. */
export function describeWaits(waits: readonly WaitingNow[]): string {
    return waits.length === 0 ? "nothing" : waits.map((wait) => `${wait.operation} for ${Math.round(wait.waitedMs)} ms`).join("; ");
}

/** The waits of one runner or bake, each with a deadline. */
export class WaitWatch {
    /** Each pending wait, with what gives it a whole deadline again from now. */
    private readonly _pending = new Map<PendingWait, () => void>();
    /** The longest wait that settled in time, by kind (milliseconds): how near the deadline real work comes. */
    public readonly longestSettledMs: Partial<Record<WaitKind, number>> = {};

    /** @param _deadlineMs how long a wait may take, milliseconds (read at each wait's start; Infinity: no deadline) */
    constructor(private readonly _deadlineMs: () => number) {}

    /** The deadline a wait starting now gets, milliseconds. */
    public get deadlineMs(): number {
        return this._deadlineMs();
    }

    /**
     * `work`, recorded while pending; rejects with a `StallError` if it has not settled within the
     * deadline (`work` itself is then forgotten: whatever it does later is ignored).
     */
    public watch<T>(kind: WaitKind, operation: string, work: Promise<T>): Promise<T> {
        return this.watchProgress(kind, operation, () => work);
    }

    /**
     * Like `watch`, for a wait made of many answers (a step's tile jobs): `start` gets a `progress`
     * callback, and each call gives the wait a whole deadline again from then on.
     */
    public watchProgress<T>(kind: WaitKind, operation: string, start: (progress: () => void) => Promise<T>): Promise<T> {
        const wait: PendingWait = { kind, operation, startedMs: performance.now() };
        const limit = this._deadlineMs();
        return new Promise<T>((resolve, reject) => {
            let settled = false;
            let timer: ReturnType<typeof setTimeout> | null = null;
            let since = wait.startedMs;
            const finish = (): boolean => {
                if (settled) return false;
                settled = true;
                if (timer !== null) clearTimeout(timer);
                this._pending.delete(wait);
                return true;
            };
            const arm = (): void => {
                if (!Number.isFinite(limit)) return;
                if (timer !== null) clearTimeout(timer);
                timer = setTimeout(() => {
                    const now = performance.now();
                    const pending = this.pendingAt(now);
                    if (finish()) reject(new StallError(wait, now - since, pending));
                }, limit);
                // A deadline never keeps a Node process (a bake, a test run) alive by itself.
                (timer as { unref?: () => void }).unref?.();
            };
            const progress = (): void => {
                if (settled) return;
                since = performance.now();
                arm();
            };
            this._pending.set(wait, progress);
            arm();
            let work: Promise<T>;
            try {
                work = start(progress);
            } catch (error) {
                work = Promise.reject(error);
            }
            work.then(
                (value) => {
                    if (!finish()) return;
                    const took = performance.now() - since;
                    if (took > (this.longestSettledMs[kind] ?? 0)) this.longestSettledMs[kind] = took;
                    resolve(value);
                },
                (error: unknown) => {
                    if (finish()) reject(error);
                }
            );
        });
    }

    /**
     * The device finished the work it was given at `submittedMs` (a `performance.now()` time): every
     * wait that began after that, and so queues behind that work (a readback after a long submit),
     * gets a whole deadline again from now. A wait older than the work is not helped: a device that
     * ran past it and left it pending has lost it.
     */
    public alive(submittedMs: number): void {
        for (const [wait, progress] of this._pending) {
            if (wait.startedMs > submittedMs) progress();
        }
    }

    /** The waits pending now, oldest first, with how long each has waited. */
    public get pending(): WaitingNow[] {
        return this.pendingAt(performance.now());
    }

    /** The waits pending at `now` (a `performance.now()` time), oldest first. */
    public pendingAt(now: number): WaitingNow[] {
        return [...this._pending.keys()].sort((a, b) => a.startedMs - b.startedMs).map((wait) => ({ ...wait, waitedMs: now - wait.startedMs }));
    }

    /** One line naming every pending wait and how long it has waited (what a frame that does not settle waits for). */
    public describe(): string {
        return describeWaits(this.pending);
    }
}
