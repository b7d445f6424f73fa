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
 * The share of a least piece's estimated cost that frames of cheaper batches are filled to
 * (`FramePlanOptions.evenFrames`): the estimates of frames of many batches run high now and then
 * (filled to the whole piece, the longest water frames on SwiftShader took 2.4 times it), so a
 * margin keeps their longest near the pieces' own.
 */
const FILL_SHARE = 0.75;

/** How a frame is planned beside its budget. */
export interface FramePlanOptions {
    /** Workers that run batches of one class side by side (the CPU backend's pool), 1 by default. */
    readonly parallel?: number;
    /** Only the ground edits stamped at the current position (a paused run, or frames in flight). */
    readonly editsOnly?: boolean;
    /** Pieces the backend cuts a batch into when about `wanted` are asked for (`ErosionBackend.pieceCount`); 1 (none) by default. */
    readonly pieceCount?: (planned: PlannedBatch, wanted: number) => number;
    /**
     * Fill frames of cheap batches to about the cost of the least piece of a batch that could not
     * be cut as finely as the budget asked (`FrameBudget.floorMs`, `FILL_SHARE` of it): for a backend whose frames take turns
     * with the rendering (WebGPU), where a few frames far longer than the rest are hitches. Not for
     * one that erodes beside it (the CPU backend's worker), where it would only delay edits.
     */
    readonly evenFrames?: boolean;
}

/**
 * Takes the next batches off the schedule: as many as the budget's estimate allows (at least one,
 * and with `parallel` workers at least that many of the first batch's class while they last, since
 * they run side by side in the time of one), stopping at the cycle boundary, so a frame never spans
 * two cycles and the checkpoint read after it is the boundary's state. With `editsOnly` (a paused
 * run), only the ground edits stamped at the current position.
 */
export function planFrame(schedule: ErosionSchedule, budget: FrameBudget, budgetMs: number, plan: FramePlanOptions = {}): PlannedFrame {
    const { parallel = 1, editsOnly = false, pieceCount = () => 1, evenFrames = false } = plan;
    let estimatedMs = 0;
    // Where no frame can meet the budget (a batch's least piece costs more), frames are filled to
    // that piece's cost, at most doubling the last frame's batches past the budget (a wrong
    // estimate of a new operator's cost then costs a frame or two, not one of dozens of batches).
    const targetMs = evenFrames ? Math.max(budgetMs, FILL_SHARE * budget.floorMs(schedule.cycle)) : budgetMs;
    const pastBudgetLimit = 2 * budget.lastFrameBatches + 1;
    const admit = (planned: PlannedBatch, frame: readonly PlannedBatch[]) => {
        const cost = budget.estimateMs(planned);
        const fillsWorkers = frame.length < parallel && sameClass(planned, frame);
        const overBudget = estimatedMs + cost > budgetMs;
        // Within a budget, an operator not measured yet runs a batch a frame: the first guess of its
        // cost can be wrong by a hundredfold (SwiftShader's first frame took eight droplet batches, over a second).
        const measured = budget.measured(planned.operator) || !Number.isFinite(budgetMs);
        // A frame with a ground edit is not filled: the edit reaches the mesh when its frame lands.
        const fills =
            estimatedMs + cost <= targetMs &&
            frame.length < pastBudgetLimit &&
            planned.operator !== "edit" &&
            !frame.some((batch) => batch.operator === "edit");
        const fits = measured && (!overBudget || fills);
        if (frame.length > 0 && !fits && !fillsWorkers) return false;
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
    const wanted = Math.ceil(estimatedMs / budgetMs);
    const pieces = batches.length === 1 && estimatedMs > budgetMs && !editsOnly ? pieceCount(batches[0], wanted) : 1;
    if (pieces > 1 && pieces < wanted) budget.noteLeastPiece(batches[0].operator, units / pieces, batches[0].cycle);
    if (!editsOnly && Number.isFinite(budgetMs)) budget.lastFrameBatches = batches.length;
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
