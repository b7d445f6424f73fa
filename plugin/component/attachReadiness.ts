/**
 * What `whenReady()` answers across an erosion's life: the runner's start while one is bound, else
 * a promise that waits for the next attach (Babylon defers `addBehavior` while a scene loads, so a
 * game may ask before the attach), rejected if the attach fails or the erosion is disposed first;
 * after a failed attach or a dispose, the reason, until an attach succeeds.
 */
export class AttachReadiness {
    private _ready: Promise<void>;
    private _waiter: { resolve(ready: Promise<void>): void; reject(reason: Error): void } | null = null;

    constructor() {
        this._ready = this._waitForAttach();
    }

    /** The promise `whenReady()` returns now. */
    public get ready(): Promise<void> {
        return this._ready;
    }

    /** A runner started: waiters follow its start (`ready`), and so does every later ask. */
    public attached(ready: Promise<void>): void {
        this._waiter?.resolve(ready);
        this._waiter = null;
        this._ready = ready;
    }

    /** The runner stopped: asks from now on wait for the next attach. */
    public detached(): void {
        if (!this._waiter) this._ready = this._waitForAttach();
    }

    /**
     * The waiters are told `reason` (an attach that failed, a dispose), and so is every later ask
     * until the next attach (`attached`): an ask after `addBehavior` threw settles as one before it.
     */
    public failed(reason: Error): void {
        this._waiter?.reject(reason);
        this._waiter = null;
        this._ready = Promise.reject(reason);
        // Nobody may ask: a rejection then is not an unhandled one.
        this._ready.catch(() => undefined);
    }

    private _waitForAttach(): Promise<void> {
        const waiting = new Promise<void>((resolve, reject) => (this._waiter = { resolve, reject }));
        // Nobody may ask before it settles: a rejection then is not an unhandled one.
        waiting.catch(() => undefined);
        return waiting;
    }
}
