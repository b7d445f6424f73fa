/**
 * Ground edits shown on the grounds' CPU data before their frame lands: a just-stamped edit is
 * applied to the rows the mesh holds at once (picking, height queries; the CPU backend's vertex
 * buffers too), and again over any rows a frame issued before it brings back, until the frame
 * that ran it lands with the exact rows.
 */
import { COUNTER_COUNT } from "../core/counters.js";
import { applyGroundEdit } from "../core/cpu/edits/applyGroundEdit.js";
import type { GroundEdit } from "../core/groundEdits.js";
import type { PlannedBatch } from "../core/schedule.js";
import type { GroundField } from "./groundField.js";

/** The edits a runner has stamped whose frame has not landed. */
export class EditPreviews {
    private _edits: GroundEdit[] = [];

    constructor(private readonly _field: GroundField) {}

    /** Shows `edit` now; `uploadToGpu` for the CPU backend, whose vertex buffers come from the CPU data. */
    public add(edit: GroundEdit, uploadToGpu: boolean): void {
        this._edits.push(edit);
        this._show(edit, uploadToGpu);
    }

    /** After a frame's rows `y0 .. y1 - 1` were written: its edits have landed, the others are shown again over those rows. */
    public afterFrame(batches: readonly PlannedBatch[], y0: number, y1: number, uploadToGpu: boolean): void {
        if (this._edits.length === 0) return;
        const landed = new Set(batches.map((planned) => planned.edit?.id));
        this._edits = this._edits.filter((edit) => !landed.has(edit.id));
        for (const edit of this._edits) {
            if (edit.rect.y0 < y1 && edit.rect.y1 > y0) this._show(edit, uploadToGpu);
        }
    }

    /** Forgets every edit (the state was replaced). */
    public clear(): void {
        this._edits = [];
    }

    private _show(edit: GroundEdit, uploadToGpu: boolean): void {
        const field = this._field;
        const { y0, y1 } = edit.rect;
        const rows = field.readRows(y0, y1);
        applyGroundEdit({ ...edit, rect: { ...edit.rect, y0: 0, y1: y1 - y0 } }, field.width, rows, new Int32Array(rows.length), new Float64Array(COUNTER_COUNT));
        field.writeRows(rows, y0, y1, uploadToGpu);
    }
}
