/**
 * What a runner's helpers (its maps, `runnerMaps.ts`) need of the runner, apart from the runner
 * itself, so they import this and not `erosionRunner.ts` (which imports them).
 */
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { ErosionSchedule } from "../core/schedule.js";
import type { GroundField } from "./groundField.js";

/** The backend, schedule and field of a runner whose backend has started. */
export interface Live {
    readonly backend: ErosionBackend;
    readonly schedule: ErosionSchedule;
    readonly field: GroundField;
}

/** A runner as its helpers see it: its schedule and field, and its queue of operations. */
export interface LiveQueue {
    readonly schedule: ErosionSchedule;
    readonly field: GroundField;
    /** Runs `use` once everything queued before it is done and the backend is ready. */
    queueLive<T>(operation: string, use: (live: Live) => Promise<T>): Promise<T>;
}
