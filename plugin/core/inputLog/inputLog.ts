/**
 * The input log of one run: its entries in the order they were given, listeners told of each as it
 * is stamped, and what undo and redo would take: the last input still in force, the last one taken
 * back. Reading the entries from the start of the log (or of the last reset or restore) gives the
 * undo and redo stacks, so a replay that re-gives the same entries undoes the same inputs.
 */
import { BOUNDARY_KINDS, compareStamps, UNDOABLE_KINDS, type InputEntry, type InputPayload, type InputStamp } from "./inputEntries.js";

/** Undo and redo as the log's entries leave them. */
interface UndoStacks {
    /** Undoable entries in force since the last reset or restore, oldest first. */
    readonly done: InputEntry[];
    /** Entries taken back and not given again, the last undone last. */
    readonly undone: InputEntry[];
    /** Every entry taken back and not redone (their effect is gone from the terrain). */
    readonly excluded: Set<number>;
    /** The seq of the last reset or restore (0: none). */
    readonly epoch: number;
}

/** The log of one run's inputs. */
export class InputLog {
    private _entries: InputEntry[] = [];
    private readonly _listeners = new Set<(entry: InputEntry) => void>();
    private _stacks: UndoStacks = { done: [], undone: [], excluded: new Set(), epoch: 0 };

    /** Every entry since the log began, in `seq` order. */
    public get entries(): readonly InputEntry[] {
        return this._entries;
    }

    /** The last entry's seq (0 before the first). */
    public get lastSeq(): number {
        return this._entries.length > 0 ? this._entries[this._entries.length - 1].seq : this._firstSeq - 1;
    }

    private _firstSeq = 1;

    /** Makes the next entry `seq` (a replay that starts part-way through a log numbers as it did). */
    public continueFrom(seq: number): void {
        if (this._entries.length > 0) throw new Error("InputLog.continueFrom: the log already has entries.");
        this._firstSeq = seq;
    }

    /** Entries given after entry `seq` (0: all), in order. */
    public since(seq: number): InputEntry[] {
        return this._entries.filter((entry) => entry.seq > seq);
    }

    /**
     * The entries a snapshot taken after entry `seq`, standing at `position`, does not hold: those
     * given after it, and those given before it held then for a later cycle boundary than the next
     * (what waits for the next one is in the snapshot's state). A replay from the snapshot gives
     * these in order (the held ones first, where it starts).
     */
    public sinceSnapshot(seq: number, position: InputStamp): InputEntry[] {
        const next = position.batch > 0 ? { cycle: position.cycle + 1, batch: 0 } : position;
        return this._entries.filter(
            (entry) =>
                entry.seq > seq || (BOUNDARY_KINDS.includes(entry.kind) && compareStamps(entry.stamp, next) > 0)
        );
    }

    /** The entry numbered `seq`, if the log holds it. */
    public entry(seq: number): InputEntry | undefined {
        return this._entries.find((entry) => entry.seq === seq);
    }

    /** Calls `listener` with each entry as it is stamped; returns the function that stops it. */
    public onEntry(listener: (entry: InputEntry) => void): () => void {
        this._listeners.add(listener);
        return () => this._listeners.delete(listener);
    }

    /**
     * Stamps `payload` as the next entry (or as entry `seq`, which must follow the last), `player`'s
     * when given, and tells the listeners. An undo of an entry not in force, or a redo of one not
     * taken back, is refused (a `RangeError`) before anything is recorded.
     */
    public record(payload: InputPayload, at: InputStamp, stamp: InputStamp, seq = this.lastSeq + 1, player?: string): InputEntry {
        if (seq <= this.lastSeq) {
            throw new RangeError(`The log's entry ${seq} comes after entry ${this.lastSeq}: entries must be given in order.`);
        }
        const entry = {
            ...payload,
            seq,
            at: { cycle: at.cycle, batch: at.batch },
            stamp: { cycle: stamp.cycle, batch: stamp.batch },
            ...(player === undefined ? {} : { player }),
        } as InputEntry;
        this._checkStep(entry);
        this._entries.push(entry);
        this._follow(entry);
        for (const listener of this._listeners) listener(entry);
        return entry;
    }

    /** The entry `undo` would take back: the last undoable input in force since the last reset or restore. */
    public get undoable(): InputEntry | null {
        return this._stacks.done.at(-1) ?? null;
    }

    /** The entry `redo` would give back: the last one taken back, unless an input came after it. */
    public get redoable(): InputEntry | null {
        return this._stacks.undone.at(-1) ?? null;
    }

    /** The entry a player's undo would take back: that player's last input in force (`player` undefined: the run's own inputs). */
    public undoableBy(player: string | undefined): InputEntry | null {
        return lastOf(this._stacks.done, player);
    }

    /** The entry a player's redo would give back: the last of that player's inputs taken back, unless the player gave an input since. */
    public redoableBy(player: string | undefined): InputEntry | null {
        return lastOf(this._stacks.undone, player);
    }

    /** True when entry `seq` has been taken back and not given again. */
    public isExcluded(seq: number): boolean {
        return this._stacks.excluded.has(seq);
    }

    /** The seq of the last reset or restore (0: none): undo never reaches past it. */
    public get epoch(): number {
        return this._stacks.epoch;
    }

    /** Forgets every entry (a new run). */
    public clear(): void {
        this._entries = [];
        this._firstSeq = 1;
        this._stacks = { done: [], undone: [], excluded: new Set(), epoch: 0 };
    }

    /** Refuses an undo or redo whose target the stacks do not hold, before it is recorded. */
    private _checkStep(entry: InputEntry): void {
        if (entry.kind === "undo" && !this._stacks.done.some((done) => done.seq === entry.target)) {
            throw new RangeError(`The log's undo (entry ${entry.seq}) takes back entry ${entry.target}, which is not an input in force.`);
        }
        if (entry.kind === "redo" && !this._stacks.undone.some((undone) => undone.seq === entry.target)) {
            throw new RangeError(`The log's redo (entry ${entry.seq}) gives back entry ${entry.target}, which was not taken back.`);
        }
    }

    private _follow(entry: InputEntry): void {
        const stacks = this._stacks;
        if (UNDOABLE_KINDS.includes(entry.kind)) {
            stacks.done.push(entry);
            // A new input ends its player's redo (the others' taken-back inputs can still come back).
            const others = stacks.undone.filter((undone) => undone.player !== entry.player);
            stacks.undone.length = 0;
            stacks.undone.push(...others);
        } else if (entry.kind === "undo") {
            const index = stacks.done.findIndex((done) => done.seq === entry.target);
            stacks.undone.push(...stacks.done.splice(index, 1));
            stacks.excluded.add(entry.target);
        } else if (entry.kind === "redo") {
            const index = stacks.undone.findIndex((undone) => undone.seq === entry.target);
            stacks.done.push(...stacks.undone.splice(index, 1));
            stacks.excluded.delete(entry.target);
        } else {
            this._stacks = { done: [], undone: [], excluded: stacks.excluded, epoch: entry.seq };
        }
    }
}

/** The last of `entries` that is `player`'s. */
function lastOf(entries: readonly InputEntry[], player: string | undefined): InputEntry | null {
    for (let i = entries.length - 1; i >= 0; i--) if (entries[i].player === player) return entries[i];
    return null;
}
