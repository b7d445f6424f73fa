/**
 * What one frame of erosion runs: the next batches off the schedule that fit the frame budget, and
 * the region of the ground they may change (whose positions and normals are then regenerated and
 * whose rows come back to the mesh's CPU data).
 */
import { batchExtent } from "../core/batchParams.js";
import { expandRect, unionRect, type GridRect } from "../core/patches.js";
import { sameClass, takeDueEdits, takeFrame } from "../core/frameLoop.js";
import type { ErosionSchedule, PlannedBatch } from "../core/schedule.js";
import { batchWorkUnits, type FrameBudget } from "./frameBudget.js";
import type { BatchPieces } from "../core/erosionBackend.js";

/** The batches of a frame, with the region they may change and what they were estimated to cost. */
export interface PlannedFrame {
    readonly batches: PlannedBatch[];
    /** The region the batches may change (grown by one vertex for the normals), or null for none. */
    readonly changed: GridRect | null;
    readonly estimatedMs: number;
    /** Work units of the frame (`batchWorkUnits`), what the budget learns the cost of. */
    readonly units: number;
    /** True when the frame ends at a cycle boundary. */
    readonly cycleCompleted: boolean;
    /**
     * Pieces the frame's one batch is to be cut into when the budget cannot hold it whole (a
     * whole-field batch, `ErosionBackend.pieceCount`), else 1: the runner then runs it over
     * several frames (`framePieces`).
     */
    readonly pieceCount: number;
    /** The range of the batch's pieces this frame runs (`framePieces`), or null for whole batches. */
    readonly pieces: BatchPieces | null;
}

/**
 * Takes the next batches off the schedule: as many as the budget's estimate allows (at least one,
 * and with `parallel` workers at least that many of the first batch's class while they last, since
 * they run side by side in the time of one), stopping at the cycle boundary, so a frame never spans
 * two cycles and the checkpoint read after it is the boundary's state. With `editsOnly` (a paused
 * run), only the ground edits stamped at the current position.
 */
export function planFrame(schedule: ErosionSchedule, budget: FrameBudget, budgetMs: number, parallel = 1, editsOnly = false, pieceCount: (planned: PlannedBatch, wanted: number) => number = () => 1): PlannedFrame {
    let estimatedMs = 0;
    const admit = (planned: PlannedBatch, frame: readonly PlannedBatch[]) => {
        const cost = budget.estimateMs(planned);
        const fillsWorkers = frame.length < parallel && sameClass(planned, frame);
        if (frame.length > 0 && estimatedMs + cost > budgetMs && !fillsWorkers) return false;
        estimatedMs += cost;
        return true;
    };
    const { batches, cycleCompleted } = editsOnly ? takeDueEdits(schedule) : takeFrame(schedule, admit);
    let changed: GridRect | null = null;
    let units = 0;
    for (const planned of batches) {
        units += batchWorkUnits(planned);
        const rect = changedRect(planned);
        changed = changed ? unionRect(changed, rect) : rect;
    }
    // A batch alone in its frame that the budget cannot hold runs in pieces, when it can be cut:
    // as many as its estimate over the budget asks for.
    const pieces = batches.length === 1 && estimatedMs > budgetMs && !editsOnly ? pieceCount(batches[0], Math.ceil(estimatedMs / budgetMs)) : 1;
    return { batches, changed, estimatedMs, units, cycleCompleted, pieceCount: pieces, pieces: null };
}

/**
 * The next frame of a batch in pieces (`whole`, planned with `pieceCount` pieces), from piece
 * `from`: as many as `budgetMs` holds by the estimate (each an equal share of the whole's), at
 * least one. Only the range that ends the batch carries its changed region (the vertex pass and
 * the rows) and its cycle boundary.
 */
export function framePieces(whole: PlannedFrame, from: number, budgetMs: number): PlannedFrame {
    const total = whole.pieceCount;
    const pieceMs = whole.estimatedMs / total;
    const count = pieceMs > 0 ? Math.max(1, Math.floor(budgetMs / pieceMs)) : total;
    const to = Math.min(total, from + count);
    const last = to === total;
    const share = (to - from) / total;
    return {
        batches: whole.batches,
        changed: last ? whole.changed : null,
        estimatedMs: whole.estimatedMs * share,
        units: whole.units * share,
        cycleCompleted: last && whole.cycleCompleted,
        pieceCount: total,
        pieces: { from, to, total },
    };
}

/** The region a batch may change, grown by one vertex for the normals around it. */
export function changedRect(planned: PlannedBatch): GridRect {
    const p = planned.params;
    // The extent: the batch's region and as far as its sediment was routed (whole axes where a
    // tileable river batch wraps).
    const rect = { ...batchExtent(p) };
    if (p.seam !== 0) {
        // tile_seam copies the first column and row into the last: a change at either edge shows at both.
        if (rect.x0 === 0 || rect.x1 >= p.width - 1) {
            rect.x0 = 0;
            rect.x1 = p.width;
        }
        if (rect.y0 === 0 || rect.y1 >= p.depth - 1) {
            rect.y0 = 0;
            rect.y1 = p.depth;
        }
    }
    return expandRect(rect, 1, p.width, p.depth);
}
