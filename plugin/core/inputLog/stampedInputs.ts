/**
 * The front door of a schedule's inputs: each input is stamped (where the schedule stands, and where
 * it applies), recorded in the log and applied, now or, when its stamp lies ahead, held until the
 * schedule reaches it. Apply-by-stamp: an entry given with a future stamp applies exactly there; a
 * stamp already passed is an error naming the current one.
 */
import { BOUNDARY_KINDS, compareStamps, formatStamp, type InputEntry, type InputPayload, type InputStamp } from "./inputEntries.js";
import { InputLog } from "./inputLog.js";
import type { PlayerInput } from "../lockstep/playerInputs.js";

/** What the inputs act on: the schedule's position, and how it applies an entry whose time has come. */
export interface InputTarget {
    readonly cycle: number;
    readonly batch: number;
    /** Applies `entry` now (an entry that waits for a cycle boundary goes pending when mid-cycle). */
    applyInput(entry: InputEntry): void;
}

/** Stamps, records and applies a schedule's inputs. */
export class StampedInputs {
    /** Every input given, in order. */
    public readonly log = new InputLog();
    /**
     * When set, a player's own inputs (given here without a seq) go to it as requests
     * (`PlayerInput`) instead of being recorded and applied: a lockstep player's way to its host,
     * which shapes and stamps them and sends them back as entries.
     */
    public forward: ((input: PlayerInput) => void) | null = null;
    private _lastTag = 0;
    /** Entries given with a stamp past the next cycle boundary, waiting for it, in stamp order. */
    private _held: InputEntry[] = [];

    constructor(private readonly _target: InputTarget) {}

    /** Where the schedule stands. */
    public get position(): InputStamp {
        return { cycle: this._target.cycle, batch: this._target.batch };
    }

    /**
     * Boundary entries given before the schedule reached where they were given (`at`: a lockstep
     * peer behind its host), in `at` order: each is given again there, as the host gave it, so the
     * pending inputs are the host's at every position from `at` on.
     */
    private _early: InputEntry[] = [];

    /** Entries waiting for a stamp past the next cycle boundary, or for where they were given (not yet in the state). */
    public get held(): readonly InputEntry[] {
        return this._early.length > 0 ? [...this._held, ...this._early] : this._held;
    }

    /**
     * The stamp an input given now applies at: the current position for an edit, a reset, a
     * restore, an undo or a redo; the next cycle boundary (the current position, if at one) for
     * options, masks, local events and water sources.
     */
    public defaultStamp(kind: InputPayload["kind"]): InputStamp {
        const { cycle, batch } = this.position;
        return BOUNDARY_KINDS.includes(kind) && batch > 0 ? { cycle: cycle + 1, batch: 0 } : { cycle, batch };
    }

    /**
     * Stamps `payload` (at `stamp`, or its default), records it and applies it, or holds it until
     * its stamp. `seq` numbers it as a replayed log did, `player` names whose input it is, `givenAt`
     * where it was given there (default here; a boundary input given ahead of it waits to be given
     * there). Throws a `RangeError` naming the current stamp for a stamp already passed, and for a
     * boundary input stamped mid-cycle.
     */
    public give(
        payload: InputPayload, stamp: InputStamp = this.defaultStamp(payload.kind), seq?: number, player?: string, request?: PlayerInput, givenAt?: InputStamp
    ): InputEntry {
        checkStamp(payload.kind, stamp, this.position);
        const at = givenAt ?? this.position;
        if (this.forward && seq === undefined) {
            // The provisional entry (seq 0) is what the caller gets back; the host makes the real one.
            const provisional = { ...payload, seq: 0, at, stamp } as InputEntry;
            this.forward(request ?? requestOf(payload));
            return provisional;
        }
        const entry = this.log.record(payload, at, stamp, seq, player);
        this.regive(entry);
        return entry;
    }

    /** Gives an entry of this log again (a rewind's replay), at its stamp, without recording it. */
    public regive(entry: InputEntry): void {
        if (BOUNDARY_KINDS.includes(entry.kind) && compareStamps(entry.at, this.position) > 0) {
            insertBy(this._early, entry, "at");
        } else if (BOUNDARY_KINDS.includes(entry.kind) && compareStamps(entry.stamp, this.defaultStamp(entry.kind)) > 0) {
            insertBy(this._held, entry, "stamp");
        } else {
            this._target.applyInput(entry);
        }
    }

    /** Gives the early entries given where the schedule now stands (the schedule calls it after every batch). */
    public releaseGiven(): void {
        while (this._early.length > 0 && compareStamps(this._early[0].at, this.position) <= 0) this.regive(this._early.shift()!);
    }

    /** Applies the held entries stamped at the current position (the schedule calls it at each cycle boundary). */
    public releaseDue(): void {
        this.releaseGiven();
        const position = this.position;
        while (this._held.length > 0 && compareStamps(this._held[0].stamp, position) <= 0) {
            this._target.applyInput(this._held.shift()!);
        }
    }

    /** A new tag for one of this player's springs (1, 2, ...): its handle with the host. */
    public nextTag(): number {
        return ++this._lastTag;
    }

    /** Replaces the held entries (a rewind puts back those a checkpoint had; a restore clears them). */
    public setHeld(entries: readonly InputEntry[]): void {
        this._held = entries.filter((entry) => compareStamps(entry.at, this.position) <= 0);
        this._early = entries.filter((entry) => compareStamps(entry.at, this.position) > 0);
    }
}

/** Inserts `entry` into `list` (ordered by `key`) after those with the same position. */
function insertBy(list: InputEntry[], entry: InputEntry, key: "at" | "stamp"): void {
    const after = list.findIndex((held) => compareStamps(entry[key], held[key]) < 0);
    list.splice(after < 0 ? list.length : after, 0, entry);
}

/** The request a lockstep player sends for `payload`; throws for what only the host makes. */
function requestOf(payload: InputPayload): PlayerInput {
    switch (payload.kind) {
        case "options":
            return { kind: "options", options: payload.options };
        case "mask":
            return { kind: "mask", name: payload.name, values: payload.values };
        case "erodeAt":
            return { kind: "erodeAt", event: payload.event };
        case "reset":
        case "restore":
            throw new RangeError(`A ${payload.kind} is the lockstep host's to make: a player (forwardInputs set) cannot ${payload.kind} the shared game.`);
        default:
            throw new Error(`Internal error: a lockstep player's ${payload.kind} reached the inputs without its request.`);
    }
}

/** Throws unless `stamp` is a whole position at or after `at`, at a cycle boundary for a boundary input. */
export function checkStamp(kind: InputPayload["kind"], stamp: InputStamp, at: InputStamp): void {
    if (!stamp || !Number.isInteger(stamp.cycle) || !Number.isInteger(stamp.batch) || stamp.cycle < 0 || stamp.batch < 0) {
        throw new RangeError(`The ${kind} input's stamp is ${JSON.stringify(stamp)}: it must be { cycle, batch }, whole numbers at least 0.`);
    }
    if (compareStamps(stamp, at) < 0) {
        throw new RangeError(`The ${kind} input's stamp (${formatStamp(stamp)}) has passed: the schedule stands at ${formatStamp(at)}.`);
    }
    if (BOUNDARY_KINDS.includes(kind) && stamp.batch !== 0) {
        throw new RangeError(`The ${kind} input's stamp (${formatStamp(stamp)}) is mid-cycle: ${kind} inputs apply at a cycle boundary (batch 0).`);
    }
}
