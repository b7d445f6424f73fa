/**
 * The one frame loop: how every run takes its next batches off the schedule (the behaviors'
 * runner by its frame budget, the bake and `CpuErosionSimulation` a class at a time). A frame is a
 * run of consecutive batches; it never passes a cycle boundary, so a checkpoint read after it is a
 * boundary's state. Which batches a frame holds never changes the terrain (the batches of a class
 * are independent, and classes run in order), only how the work is cut into frames.
 */
import type { ErosionSchedule, PlannedBatch } from "./schedule.js";
import { compareStamps } from "./inputLog/inputEntries.js";

/** The batches a frame took, and whether it ended at a cycle boundary. */
export interface TakenFrame {
    readonly batches: PlannedBatch[];
    readonly cycleCompleted: boolean;
}

/**
 * Takes the next batches off `schedule` (advancing it over each) while `admit` accepts them, up to
 * the next cycle boundary, and never past `schedule.horizon` (the edits stamped there are taken).
 * `admit` is asked before each batch with the frame so far; the first
 * batch of a frame is taken whatever it answers. A frame of `limit` batches ends without planning
 * the next (a batch's parameters are built to plan it). A cycle with no batch (no operator
 * enabled) completes at once, in a frame of no batches.
 */
export function takeFrame(schedule: ErosionSchedule, admit: (planned: PlannedBatch, frame: readonly PlannedBatch[]) => boolean, limit = Infinity): TakenFrame {
    const batches: PlannedBatch[] = [];
    const horizon = schedule.horizon;
    for (;;) {
        if (batches.length >= limit) {
            return { batches, cycleCompleted: false };
        }
        if (horizon && !schedule.editDue && compareStamps({ cycle: schedule.cycle, batch: schedule.batch }, horizon) >= 0) {
            return { batches, cycleCompleted: false }; // never past the horizon (the edits stamped there run)
        }
        const planned = schedule.planNext();
        if (planned) {
            if (!admit(planned, batches) && batches.length > 0) {
                return { batches, cycleCompleted: false };
            }
            batches.push(planned);
        }
        if (schedule.advance()) {
            return { batches, cycleCompleted: true };
        }
    }
}

/** An `admit` for a frame of one class: the batches that can run side by side (one dispatch, one pool round). */
export function sameClass(planned: PlannedBatch, frame: readonly PlannedBatch[]): boolean {
    return frame.length === 0 || (planned.group === frame[0].group && planned.cycle === frame[0].cycle);
}

/**
 * Takes the ground edits stamped at the current position off `schedule`, and nothing else: what a
 * paused run still applies, so an edit is seen at once whether or not erosion advances.
 */
export function takeDueEdits(schedule: ErosionSchedule): TakenFrame {
    const batches: PlannedBatch[] = [];
    while (schedule.editDue) {
        batches.push(schedule.planNext()!);
        schedule.advance();
    }
    return { batches, cycleCompleted: false };
}
