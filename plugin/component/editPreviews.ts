/**
 * Ground edits shown on the grounds' CPU data before their frame lands: a just-stamped edit is
 * applied to the rows the mesh holds at once (picking, height queries; the CPU backend's vertex
 * buffers too), and again over any rows a frame issued before it brings back, until the frame
 * that ran it lands with the exact rows.
 */
import { COUNTER_COUNT } from "../core/counters.js";
import { applyGroundEdit } from "../kernels/index.js";
import type { GroundEdit } from "../core/groundEdits.js";
import type { PlannedBatch } from "../core/schedule.js";
import type { GroundField } from "./groundField.js";
import type { GridRect } from "../core/patches.js";

/** The edits a runner has stamped whose frame has not landed. */
export class EditPreviews {
    private _edits: GroundEdit[] = [];

    constructor(private readonly _field: GroundField) {}

    /** Shows `edit` now; `uploadToGpu` for the CPU backend, whose vertex buffers come from the CPU data. */
    public add(edit: GroundEdit, uploadToGpu: boolean): void {
        this._edits.push(edit);
        this._show(edit, uploadToGpu);
    }

    /**
     * After a frame's rows `y0 .. y1 - 1` (columns `x0 .. x1 - 1`, whole rows by default) were
     * written: its edits have landed, the others are shown again over that region.
     */
    public afterFrame(batches: readonly PlannedBatch[], y0: number, y1: number, uploadToGpu: boolean, x0 = 0, x1 = this._field.width): void {
        if (this._edits.length === 0) return;
        const landed = new Set(batches.map((planned) => planned.edit?.id));
        this._edits = this._edits.filter((edit) => !landed.has(edit.id));
        const written = { x0, y0, x1, y1 };
        for (const edit of this._edits) {
            if (edit.rect.y0 < y1 && edit.rect.y1 > y0 && edit.rect.x0 < x1 && edit.rect.x1 > x0) this._show(edit, uploadToGpu, written);
        }
    }

    /** Forgets every edit (the state was replaced). */
    public clear(): void {
        this._edits = [];
    }

    /** Applies `edit` to the heights the grounds hold: all of its rows, or only the vertices in `written` (the rest show it already). */
    private _show(edit: GroundEdit, uploadToGpu: boolean, written?: GridRect): void {
        const field = this._field;
        const { y0, y1 } = edit.rect;
        const rows = field.readRows(y0, y1);
        const shown = written ? rows.slice() : null;
        applyGroundEdit(
            { ...edit, rect: { ...edit.rect, y0: 0, y1: y1 - y0 } }, field.width, rows, new Int32Array(rows.length), new Float64Array(COUNTER_COUNT)
        );
        if (shown && written) {
            // Outside what the frame wrote the heights still hold the preview: applied twice, a dig would go twice as deep.
            for (let y = y0; y < y1; y++) {
                const row = (y - y0) * field.width;
                if (y < written.y0 || y >= written.y1) {
                    rows.set(shown.subarray(row, row + field.width), row);
                } else {
                    rows.set(shown.subarray(row, row + written.x0), row);
                    rows.set(shown.subarray(row + written.x1, row + field.width), row + written.x1);
                }
            }
        }
        field.writeRows(rows, y0, y1, uploadToGpu);
    }
}
