/**
 * What `whenReady()` answers across an erosion's life: the runner's start while one is bound, else
 * a promise that waits for the next attach (Babylon defers `addBehavior` while a scene loads, so a
 * game may ask before the attach), rejected if the attach fails or the erosion is disposed first.
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
     * The waiters are told `reason` (an attach that failed, a dispose before any attach); with
     * `waitAgain`, later asks wait for another attach, else they get `reason` too.
     */
    public failed(reason: Error, waitAgain: boolean): void {
        const waiter = this._waiter;
        this._waiter = null;
        waiter?.reject(reason);
        if (waitAgain) {
            this._ready = this._waitForAttach();
        } else if (!waiter) {
            this._ready = Promise.reject(reason);
            this._ready.catch(() => undefined);
        }
    }

    private _waitForAttach(): Promise<void> {
        const waiting = new Promise<void>((resolve, reject) => (this._waiter = { resolve, reject }));
        // Nobody may ask before it settles: a rejection then is not an unhandled one.
        waiting.catch(() => undefined);
        return waiting;
    }
}
