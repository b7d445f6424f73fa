/**
 * The order the component's work runs in. Frames run on their own (up to a few in flight); every
 * other operation (a read, a reset, a restore, `runCycles`) is queued: it runs after everything
 * queued before it and after the frames in flight, and holds new frames off until it is done, so
 * it sees a state no frame is changing.
 */
export class WorkQueue {
    private _exclusive: Promise<unknown> = Promise.resolve();
    private _exclusiveDepth = 0;
    private _idle: Promise<unknown> = Promise.resolve();

    /** @param _prelude runs before each queued task, once what it waits for is done (the runner finishes a batch in pieces there) */
    constructor(private readonly _prelude: () => Promise<void> = async () => undefined) {}

    /** True while a queued operation is waiting or running (frames must not start). */
    public get holdsFrames(): boolean {
        return this._exclusiveDepth > 0;
    }

    /**
     * Runs `task` after everything queued before it and after in-flight work, holding frames off
     * meanwhile; the prelude first unless `prelude` is false (a task that puts another state in
     * force, for which finishing a batch in pieces would be work thrown away).
     */
    public queue<T>(task: () => Promise<T>, prelude = true): Promise<T> {
        this._exclusiveDepth++;
        const waitFor = Promise.all([this._exclusive, this._idle]).catch(() => undefined);
        const run = waitFor
            .then(() => (prelude ? this._prelude() : undefined))
            .then(task)
            .finally(() => {
                this._exclusiveDepth--;
            });
        this._exclusive = run.catch(() => undefined);
        this._idle = Promise.all([this._idle, this._exclusive]);
        return run;
    }

    /** Counts `work` (a frame, a recovery) among what `whenIdle` waits for. */
    public track(work: Promise<unknown>): void {
        this._idle = Promise.all([this._idle, work]);
    }

    /** Makes `work` the only thing `whenIdle` waits for from now on (the start of a run). */
    public reset(work: Promise<unknown>): void {
        this._idle = work;
    }

    /** Resolves when everything started so far is done (failures included). */
    public async whenIdle(): Promise<void> {
        let previous: unknown;
        do {
            previous = this._idle;
            await this._idle.catch(() => undefined);
        } while (previous !== this._idle);
    }
}
