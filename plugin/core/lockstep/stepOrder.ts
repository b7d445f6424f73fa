/**
 * A lockstep client's steps in the host's order: a transport that reorders (UDP, a relay with
 * several paths, WebRTC data channels without ordering) still gives each client the host's entries
 * in the host's order, and a horizon never before the entries it covers.
 */

/** Takes steps numbered `n` (1, 2, ...) in any order and hands them back in order; a step seen twice is dropped. */
export class StepOrder<T extends { readonly n: number }> {
    private readonly _waiting = new Map<number, T>();

    /** @param _next the first step to hand back (a join's `nextStep`; default 1) */
    constructor(private _next = 1) {}

    /** Takes a step as it arrives; returns the steps now ready, in order. */
    public accept(step: T): T[] {
        if (step.n >= this._next) this._waiting.set(step.n, step);
        const ready: T[] = [];
        for (let next = this._waiting.get(this._next); next; next = this._waiting.get(this._next)) {
            this._waiting.delete(this._next++);
            ready.push(next);
        }
        return ready;
    }
}
