/**
 * What one lockstep player may ask of a host, and the book the host keeps of each player: its
 * rate of inputs (a token bucket: `inputBurst` at once, then `inputsPerSecond`), the size of its
 * edits and messages, the inputs it may have waiting, and its refusals, past `maxRefusals` of which
 * the game should disconnect it. A refused input is never applied and never reaches the others.
 */

/** Per-player limits a game sets on its `LockstepHost` (every field optional: the defaults suit a few players on a 129² to 513² field). */
export interface PlayerLimits {
    /** Inputs a player may give a second, on average (every request counts one: edits, undos, springs, options...). Default 20. */
    readonly inputsPerSecond: number;
    /** Inputs a player may give in a burst before `inputsPerSecond` applies. Default 40. */
    readonly inputBurst: number;
    /** Most vertices one edit may cover (its rectangle). Default 65,536 (a 256 x 256 square). */
    readonly maxEditVertices: number;
    /** Most points of one edit's path or polygon. Default 256. */
    readonly maxPathPoints: number;
    /** Most droplets one local erosion event may rain. Default 65,536. */
    readonly maxEventDroplets: number;
    /** Largest message a player may send, bytes. Default: one mask of the field as base64, plus 64 KiB. */
    readonly maxMessageBytes: number;
    /** Most inputs a player may have waiting for the host's next step. Default 32. */
    readonly maxQueuedInputs: number;
    /** Refusals after which `PlayerRefusedError.disconnect` is true: the game should disconnect the player. Default 20. */
    readonly maxRefusals: number;
}

/** The default limits, on a field of `cells` vertices. */
export function defaultPlayerLimits(cells: number): PlayerLimits {
    return {
        inputsPerSecond: 20,
        inputBurst: 40,
        maxEditVertices: 65536,
        maxPathPoints: 256,
        maxEventDroplets: 65536,
        maxMessageBytes: Math.ceil((cells * 4 * 4) / 3) + 65536,
        maxQueuedInputs: 32,
        maxRefusals: 20,
    };
}

/** Checks a game's limits: every field a positive number (whole where it counts). */
export function resolvePlayerLimits(given: Partial<PlayerLimits> | undefined, cells: number): PlayerLimits {
    const limits = { ...defaultPlayerLimits(cells) };
    if (given === undefined) return limits;
    if (typeof given !== "object" || given === null)
        throw new RangeError(`LockstepHost: limits is ${JSON.stringify(given)}: it must be an object of player limits.`);
    for (const [name, value] of Object.entries(given)) {
        if (value === undefined) continue;
        if (!(name in limits)) throw new RangeError(`LockstepHost: limits.${name} is not a player limit: they are ${Object.keys(limits).join(", ")}.`);
        const whole = name !== "inputsPerSecond";
        if (typeof value !== "number" || !(value > 0) || !Number.isFinite(value) || (whole && !Number.isInteger(value))) {
            throw new RangeError(`LockstepHost: limits.${name} is ${JSON.stringify(value)}: it must be a positive ${whole ? "whole number" : "number"}.`);
        }
        (limits as Record<string, number>)[name] = value;
    }
    return limits;
}

/** A player's input refused: why, whose, and whether the player has been refused too often. */
export class PlayerRefusedError extends RangeError {
    constructor(
        /** The player whose input was refused. */
        public readonly player: string,
        /** What was wrong, naming the field and its allowed range. */
        public readonly reason: string,
        /** The player's refusals so far. */
        public readonly refusals: number,
        /** True once the refusals reach `maxRefusals`: the game should disconnect the player. */
        public readonly disconnect: boolean
    ) {
        super(`Player ${player}'s input refused: ${reason}`);
        this.name = "PlayerRefusedError";
    }
}

interface PlayerBook {
    tokens: number;
    /** When the tokens were last counted, ms. */
    at: number;
    refusals: number;
}

/** The host's book of its players: tokens and refusals. */
export class PlayerGate {
    private readonly _players = new Map<string, PlayerBook>();

    /**
     * @param limits the limits every player is held to
     * @param now the clock the rate is measured by, ms (default `performance.now`)
     */
    constructor(
        public readonly limits: PlayerLimits,
        private readonly _now: () => number = () => performance.now()
    ) {}

    /** A refusal of `player`'s input for `reason`, counted: throw what it returns. */
    public refuse(player: string, reason: string): PlayerRefusedError {
        const book = this._book(player);
        book.refusals++;
        return new PlayerRefusedError(player, reason, book.refusals, book.refusals >= this.limits.maxRefusals);
    }

    /** Throws a counted refusal unless a message of `bytes` is within `maxMessageBytes`. */
    public admitMessage(player: string, bytes: number): void {
        if (bytes > this.limits.maxMessageBytes) throw this.refuse(player, `a message of ${bytes} bytes: at most ${this.limits.maxMessageBytes}`);
    }

    /** Throws a counted refusal when `player` already has `queued` inputs waiting (at most `maxQueuedInputs`). */
    public admitQueued(player: string, queued: number): void {
        if (queued >= this.limits.maxQueuedInputs)
            throw this.refuse(player, `${queued} inputs already wait for the next step: at most ${this.limits.maxQueuedInputs}`);
    }

    /** Takes one of `player`'s tokens, or throws a counted refusal when its rate is spent. */
    public takeInput(player: string): void {
        const book = this._book(player);
        const now = this._now();
        book.tokens = Math.min(this.limits.inputBurst, book.tokens + ((now - book.at) * this.limits.inputsPerSecond) / 1000);
        book.at = now;
        if (book.tokens < 1) throw this.refuse(player, `more than ${this.limits.inputsPerSecond} inputs a second (after a burst of ${this.limits.inputBurst})`);
        book.tokens -= 1;
    }

    /** `player`'s refusals so far (0 for one never seen). */
    public refusals(player: string): number {
        return this._players.get(player)?.refusals ?? 0;
    }

    /** Forgets a player (it left): its rate and refusals start again if it joins again. */
    public forget(player: string): void {
        this._players.delete(player);
    }

    private _book(player: string): PlayerBook {
        let book = this._players.get(player);
        if (!book) {
            book = { tokens: this.limits.inputBurst, at: this._now(), refusals: 0 };
            this._players.set(player, book);
        }
        return book;
    }
}
