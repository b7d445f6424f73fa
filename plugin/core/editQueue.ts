/**
 * The ground edits a schedule has stamped and not yet applied, in stamp order (cycle, batch, id):
 * what the state records as `edits` until each runs, as a batch of its own, just before the batch at
 * its stamp.
 */
import { stampBefore, type GroundEdit } from "./groundEdits.js";

/** Stamped edits waiting for their position. */
export class EditQueue {
    private _edits: GroundEdit[] = [];
    private _lastId = 0;

    /** The queued edits, in stamp order. */
    public get edits(): readonly GroundEdit[] {
        return this._edits;
    }

    /** The id the next edit stamped here takes (edits are numbered after every one seen). */
    public get nextId(): number {
        return this._lastId + 1;
    }

    /** Queues a stamped edit in stamp order (after those with its stamp). */
    public add(edit: GroundEdit): void {
        this._lastId = Math.max(this._lastId, edit.id);
        const after = this._edits.findIndex((queued) => stampBefore(edit, queued.cycle, queued.batch));
        this._edits.splice(after < 0 ? this._edits.length : after, 0, edit);
    }

    /** Replaces the queue (restoring a snapshot; resetting); later edits are numbered after every one seen. */
    public set(edits: readonly GroundEdit[]): void {
        this._edits = [...edits];
        this._lastId = Math.max(this._lastId, ...edits.map((edit) => edit.id));
    }

    /** The edit stamped at (cycle, batch), if it is the first queued: it runs next. */
    public dueAt(cycle: number, batch: number): GroundEdit | null {
        const edit = this._edits[0];
        return edit && edit.cycle === cycle && edit.batch === batch ? edit : null;
    }

    /** Takes the first edit off the queue (it has run). */
    public shift(): void {
        this._edits.shift();
    }

    /** Edits stamped before cycle `cycle` began (past the end of the cycle just finished) run first in it. */
    public carryInto(cycle: number): void {
        this._edits = this._edits.map((edit) => (stampBefore(edit, cycle, 0) ? { ...edit, cycle, batch: 0 } : edit));
    }
}
