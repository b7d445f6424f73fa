/**
 * A lockstep player's side of the region checksums: comparing its own with a host's at the same
 * stamp (the regions where they part), and repairing those regions from the host's state. Both run
 * in the runner's queue, on the state after everything issued so far.
 */
import { differingRegions, regionGrid, type RegionChecksums } from "../core/checksums/regionChecksums.js";
import { applyRegions, type RegionPatch } from "../core/checksums/regionRepair.js";
import { compareStamps, formatStamp, type InputStamp } from "../core/inputLog/inputEntries.js";
import type { ErosionRunner } from "./erosionRunner.js";
import type { Live } from "./runnerLive.js";
import { presenterOf } from "./backendPresenter.js";

/** What `onRegionsPartedObservable` sends: the stamp compared at and the regions that differ. */
export interface RegionsPartedEvent {
    readonly stamp: InputStamp;
    /** Region indices (row by row, regions of `size` vertices), in order. */
    readonly regions: readonly number[];
    readonly size: number;
    /** Names the first region that differs and where it lies, in vertices. */
    readonly message: string;
}

/** Checks that the run stands at `stamp` and applies the edits stamped there that wait (the host's state there has them). */
async function atStamp(operation: string, runner: ErosionRunner, live: Live, stamp: InputStamp): Promise<void> {
    if (compareStamps(live.schedule.inputs.position, stamp) !== 0) {
        throw new RangeError(
            `${operation}: the host's data is of ${formatStamp(stamp)}, but this run stands at ` +
                `${formatStamp(live.schedule.inputs.position)}: compare at the same stamp (set the horizon there and wait for it).`
        );
    }
    if (live.schedule.editDue) await runner.runTo(live, stamp);
}

/**
 * The regions where this run's state differs from `remote` (a host's checksums at `stamp`, where
 * this run must stand too); reports them through `parted` when there are any.
 */
export function checkRegions(
    runner: ErosionRunner, remote: { readonly stamp: InputStamp; readonly checksums: RegionChecksums }, parted: (event: RegionsPartedEvent) => void
): Promise<number[]> {
    return runner.queueLive("checkRegions", async (live) => {
        await atStamp("checkRegions", runner, live, remote.stamp);
        const { size } = remote.checksums;
        const local: RegionChecksums = { size, ...regionGrid(live.field.width, live.field.depth, size), lanes: await live.backend.regionChecksums(size) };
        const regions = differingRegions(local, remote.checksums);
        if (regions.length > 0) {
            const first = regions[0];
            const x0 = (first % local.regionsX) * size;
            const y0 = Math.floor(first / local.regionsX) * size;
            const message = `The terrain parted from the host's at ${formatStamp(remote.stamp)} in ${regions.length} region(s) of ${size} ` +
                `vertices; the first is region ${first} (columns ${x0}..${Math.min(live.field.width, x0 + size) - 1}, rows ` +
                `${y0}..${Math.min(live.field.depth, y0 + size) - 1}). Is every player on the same package version, options, start heights and seed?`;
            parted({ stamp: remote.stamp, regions, size, message });
        }
        return regions;
    });
}

/** Writes a host's regions (`readRegions` of its state at `stamp`, where this run must stand) into this run's state. */
export function repairRegions(runner: ErosionRunner, remote: { readonly stamp: InputStamp; readonly patch: RegionPatch }): Promise<void> {
    return runner.queueLive("repairRegions", async (live) => {
        await atStamp("repairRegions", runner, live, remote.stamp);
        const state = await live.backend.readState(live.schedule.cycle, live.schedule.batch);
        Object.assign(state, live.schedule.inputsOf(), { masks: live.schedule.masks });
        applyRegions(state, remote.patch);
        // Only the grids change: the schedule (position, options and inputs in force or waiting) stays.
        await live.backend.writeState(state);
        live.field.writeRows(state.heights, 0, state.depth, presenterOf(live.backend).uploadsRows);
        await runner.maps.refresh(live);
    });
}
