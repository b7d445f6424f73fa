/**
 * `erosion.lockstep`: what a lockstep game (players whose runs must stay equal to the unit) does
 * with a behavior: forward a player's inputs to the host, give the host's entries back, hold the
 * run at a horizon and run to a stamp, and compare and repair regions against the host's.
 */
import { Observable } from "@babylonjs/core/Misc/observable.js";
import { DEFAULT_CHECKSUM_REGION, regionGrid, validateRegionSize, type RegionChecksums } from "../../core/checksums/regionChecksums.js";
import type { RegionPatch } from "../../core/checksums/regionRepair.js";
import { compareStamps, formatStamp, type InputEntry, type InputStamp } from "../../core/inputLog/inputEntries.js";
import type { PlayerInput } from "../../core/lockstep/playerInputs.js";
import { checkRegions, repairRegions, type RegionsPartedEvent } from "../regionChecks.js";
import type { FacetLink } from "./facetLink.js";

/** A lockstep peer's side of a behavior: forwarding, giving, the horizon, region checks (`erosion.lockstep`). */
export class LockstepFacet {
    /** Fires when `checkRegions` finds regions where this run parted from a host's (a lockstep game's check every few seconds). */
    public readonly onRegionsPartedObservable = new Observable<RegionsPartedEvent>();

    /** @param _link the controller's runner and guards */
    constructor(private readonly _link: FacetLink) {}

    /** Where the schedule stands: completed cycles, and completed batches of the cycle in progress (as dispatched). */
    public get stamp(): InputStamp {
        return this._link.runner?.schedule.inputs.position ?? { cycle: 0, batch: 0 };
    }

    /**
     * Gives an input-log entry from another run (a lockstep peer, a server, a saved log) where it
     * says: at its stamp, held until the run reaches it if it lies ahead. A stamp that has passed is
     * an error naming where the run stands.
     */
    public give(entry: InputEntry): Promise<void> {
        return this._link.withRunner("give", (runner) => runner.queueLive("give", (live) => runner.rewind.give(live, entry)));
    }

    /**
     * Gives a host's step of entries, in order, as `give` gives each, with one rewind for the undos
     * and redos that come together at one stamp (a player's stroke taken back) rather than one each.
     * Every entry is checked before the first is given.
     */
    public giveAll(entries: readonly InputEntry[]): Promise<void> {
        return this._link.withRunner("giveAll", (runner) => runner.queueLive("giveAll", (live) => runner.rewind.giveAll(live, entries)));
    }

    /**
     * The stamp the run never passes (null: none, the default): frames stop exactly there (the edits
     * stamped there applied, no batch at or after it) and rendering goes on, until the horizon is
     * moved on. What a lockstep game sets to the last turn whose inputs every player has sent.
     */
    public get horizon(): InputStamp | null {
        return this._link.runner?.schedule.horizon ?? null;
    }

    public set horizon(stamp: InputStamp | null) {
        if (
            stamp !== null &&
            (typeof stamp !== "object" || !Number.isInteger(stamp.cycle) || !Number.isInteger(stamp.batch) || stamp.cycle < 0 || stamp.batch < 0)
        ) {
            throw new RangeError(`horizon is ${JSON.stringify(stamp)}: it must be null or { cycle, batch }, whole numbers at least 0.`);
        }
        this._link.live("horizon").schedule.horizon = stamp ? { cycle: stamp.cycle, batch: stamp.batch } : null;
    }

    /**
     * A lockstep player's inputs go here instead of being applied (null, the default: applied): each
     * as a request (`PlayerInput`: an edit as its point, radius and depth in grid units, never
     * heights; an undo without a target; a spring under a tag of its own), for the game to send to
     * its host (`serializePlayerInput`; `LockstepHost.submit` shapes it), whose entries come back
     * through `give`. A reset or a restore is the host's: a player's throws.
     */
    public get forwardInputs(): ((input: PlayerInput) => void) | null {
        return this._link.runner?.schedule.inputs.forward ?? null;
    }

    public set forwardInputs(forward: ((input: PlayerInput) => void) | null) {
        if (forward !== null && typeof forward !== "function") throw new RangeError(`forwardInputs is ${typeof forward}: it must be a function or null.`);
        this._link.live("forwardInputs").schedule.inputs.forward = forward;
    }

    /** Runs now, whatever the frame budget, until the schedule stands at `stamp` (the edits stamped there applied). */
    public runUntil(stamp: InputStamp): Promise<void> {
        return this._link.withRunner("runUntil", (runner) =>
            runner.queueLive("runUntil", async (live) => {
                if (compareStamps(stamp, live.schedule.inputs.position) < 0) {
                    throw new RangeError(
                        `runUntil: the stamp (${formatStamp(stamp)}) has passed: the run stands at ${formatStamp(live.schedule.inputs.position)}.`
                    );
                }
                if (live.schedule.horizon && compareStamps(stamp, live.schedule.horizon) > 0) {
                    throw new RangeError(
                        `runUntil: the stamp (${formatStamp(stamp)}) lies past the horizon (${formatStamp(live.schedule.horizon)}); move the horizon on first.`
                    );
                }
                await runner.runTo(live, stamp);
            })
        );
    }

    /**
     * Checksums of the field's square regions of `size` vertices (default 32) after everything issued
     * so far, computed where the state lives (on WebGPU a compute pass; 8 bytes a region come back):
     * compare two peers' with `differingRegions` to find where their terrains part.
     */
    public regionChecksums(size = DEFAULT_CHECKSUM_REGION): Promise<RegionChecksums> {
        try {
            validateRegionSize(size);
        } catch (error) {
            return Promise.reject(error);
        }
        return this._link.withRunner("regionChecksums", (runner) =>
            runner.queueLive("regionChecksums", async ({ backend, field }) => ({
                size,
                ...regionGrid(field.width, field.depth, size),
                lanes: await backend.regionChecksums(size),
            }))
        );
    }

    /**
     * Compares this run's region checksums with a host's (`LockstepHost.checksums`) at the host's
     * stamp, where this run must stand (set the horizon there): resolves with the regions that
     * differ, reported through `onRegionsPartedObservable` with a message naming the first.
     */
    public checkRegions(remote: { readonly stamp: InputStamp; readonly checksums: RegionChecksums }): Promise<number[]> {
        const parted = (event: RegionsPartedEvent) => this.onRegionsPartedObservable.notifyObservers(event);
        return this._link.withRunner("checkRegions", (runner) => checkRegions(runner, remote, parted));
    }

    /**
     * Writes a host's state of some regions (`LockstepHost.regions`, at its stamp, where this run
     * must stand) into this run: equal to the host's there again, to the unit.
     */
    public repairRegions(remote: { readonly stamp: InputStamp; readonly patch: RegionPatch }): Promise<void> {
        return this._link.withRunner("repairRegions", (runner) => repairRegions(runner, remote));
    }
}
