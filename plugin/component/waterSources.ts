/**
 * Water sources on a component: world positions and units in, the schedule's grid-unit sources
 * (`plugin/core/waterSources.ts`) out, and the handle a caller keeps.
 */
import type { ErosionSchedule } from "../core/schedule.js";
import { createWaterSource, withSourceAdded } from "../core/waterSources.js";
import type { GroundField } from "./groundField.js";
import { worldUnits } from "./worldUnits.js";

/** A water source added with `edits.addWaterSource`: remove it to stop it (from the next cycle boundary). */
export interface WaterSourceHandle {
    /** The source's id in the state (fingerprint, snapshots). */
    readonly id: number;
    /** Stops the source from the next cycle boundary; false if it was already removed (or `history.reset()` cleared it). */
    remove(): boolean;
}

/**
 * Queues a source over the disc of `radius` world units around `worldPosition` adding `rate` cubic
 * world units of water a water step; returns its id. The field converts world units to cells.
 */
export function addWaterSourceAt(
    field: GroundField, schedule: ErosionSchedule, worldPosition: { x: number; y: number; z: number }, radius: number, rate: number
): number {
    const { column, row, cellsPerWorldUnit } = field.toGrid(worldPosition);
    checkWorldSource(radius, rate);
    const { sources, id } = withSourceAdded(
        schedule.latestSources, column, row, radius * cellsPerWorldUnit, rate * cellsPerWorldUnit ** 3, field.width, field.depth, worldUnits(field)
    );
    schedule.setSources(sources);
    return id;
}

/**
 * A lockstep player's spring: sent to the host as a request under a tag of the player's own (the
 * host gives it its id), and removed by that tag, so it never removes another player's spring.
 * Returns the handle (its `id` is the tag until the host's entry comes back; `remove()` is true
 * once the request is sent).
 */
export function forwardWaterSource(
    field: GroundField, schedule: ErosionSchedule, worldPosition: { x: number; y: number; z: number }, radius: number, rate: number
): WaterSourceHandle {
    const forward = schedule.inputs.forward!;
    const { column, row, cellsPerWorldUnit } = field.toGrid(worldPosition);
    checkWorldSource(radius, rate);
    // Checked as the host will check it, so a bad spring throws here at once.
    createWaterSource(1, column, row, radius * cellsPerWorldUnit, rate * cellsPerWorldUnit ** 3, field.width, field.depth, worldUnits(field));
    const tag = schedule.inputs.nextTag();
    forward({ kind: "addSource", tag, x: column, y: row, radius: radius * cellsPerWorldUnit, rate: rate * cellsPerWorldUnit ** 3 });
    let removed = false;
    return {
        id: tag,
        remove: () => {
            if (removed || schedule.inputs.forward === null) return false;
            schedule.inputs.forward({ kind: "removeSource", tag });
            removed = true;
            return true;
        },
    };
}

/** Removes the source `id` from the next cycle boundary; false if no source has that id. */
export function removeWaterSource(schedule: ErosionSchedule, id: number): boolean {
    const latest = schedule.latestSources;
    if (!latest.some((source) => source.id === id)) return false;
    schedule.setSources(latest.filter((source) => source.id !== id));
    return true;
}

/** A source's radius and rate in world units, or a RangeError naming them. */
function checkWorldSource(radius: number, rate: number): void {
    if (typeof radius !== "number" || !Number.isFinite(radius) || radius < 0) {
        throw new RangeError(`addWaterSource: radius is ${radius}: it must be a number of world units, at least 0.`);
    }
    if (typeof rate !== "number" || !Number.isFinite(rate) || rate < 0) {
        throw new RangeError(`addWaterSource: rate is ${rate}: it must be a number of cubic world units a water step, at least 0.`);
    }
}
