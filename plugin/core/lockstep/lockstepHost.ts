/**
 * The authoritative side of a lockstep game, without networking (a server wraps it in its own
 * transport): one CPU simulation that stamps the players' inputs where it stands, runs, and says
 * how far clients may run. Every input is stamped at or after the host's position and every client
 * runs no further than the last position the host announced (`horizon`), so an input always reaches
 * a client before the client reaches its stamp: every player's terrain is the host's, to the unit.
 *
 * A client forwards its inputs (`TerrainErosion.forwardInputs`) instead of applying them; the host
 * `submit`s each and broadcasts the entry it returns; clients `give` the entries and move their
 * `horizon` to the host's. A joining player gets `join()`: a snapshot and the log since it.
 */
import { CpuErosionSimulation } from "../cpuSimulation.js";
import type { InputEntry, InputPayload, InputStamp } from "../inputLog/inputEntries.js";
import { ErosionSnapshot } from "../snapshot.js";
import { readRegions, type RegionPatch } from "../checksums/regionRepair.js";
import { DEFAULT_CHECKSUM_REGION, type RegionChecksums } from "../checksums/regionChecksums.js";
import type { GroundEdit } from "../groundEdits.js";

/** What a joining player needs: the host's state now and the inputs since it that still wait. */
export interface LockstepJoin {
    /** `ErosionSnapshot.toArrayBuffer()` of the host's state. */
    readonly snapshot: Uint8Array;
    /** The entries a replay from it needs (`inputsSince`). */
    readonly entries: readonly InputEntry[];
    /** Where the host stands: the joiner's first horizon. */
    readonly horizon: InputStamp;
}

/** The host of a lockstep game. */
export class LockstepHost {
    /** @param simulation the authoritative simulation (the same start heights, options and seed as every client's) */
    constructor(public readonly simulation: CpuErosionSimulation) {}

    /** Where the host stands: clients may run up to here. */
    public get horizon(): InputStamp {
        return this.simulation.stamp;
    }

    /**
     * Stamps a player's input where the host stands (an edit at this position, options, masks,
     * local events and sources at the next cycle boundary; an undo or redo of the shared log here)
     * and applies it; returns the entry every client must be given. A client's edit is numbered
     * and stamped again here (its own stamp was provisional). Throws a `RangeError` naming what is
     * wrong for an input the host cannot take (a reset or restore: the host's alone).
     */
    public submit(payload: InputPayload): InputEntry {
        const simulation = this.simulation;
        if (payload.kind === "reset" || payload.kind === "restore") {
            throw new RangeError(`LockstepHost.submit: a ${payload.kind} is the host's to make, not a player's.`);
        }
        if (payload.kind === "undo" || payload.kind === "redo") {
            const here = simulation.stamp;
            simulation.give({ ...payload, seq: simulation.log.lastSeq + 1, at: here, stamp: here });
        } else if (payload.kind === "edit") {
            const { cycle, batch, id, ...shape } = payload.edit as GroundEdit;
            void cycle, void batch, void id;
            simulation.schedule.stampEdit(shape);
            simulation.runUntil(simulation.stamp); // stamped here, it applies at once
        } else {
            simulation.schedule.inputs.give(payload);
        }
        return simulation.log.entries.at(-1)!;
    }

    /** Runs `batches` more batches (ground edits due on the way included); returns the new horizon. */
    public advance(batches: number): InputStamp {
        for (let k = 0; k < batches; k++) this.simulation.runBatch();
        return this.horizon;
    }

    /** A joining player's start: the host's snapshot, the log since it, and the horizon. */
    public join(): LockstepJoin {
        const snapshot = this.simulation.snapshot();
        return { snapshot: new Uint8Array(snapshot.toArrayBuffer()), entries: this.simulation.inputsSince(snapshot), horizon: this.horizon };
    }

    /** The region checksums where the host stands, for clients to compare when they stand there too. */
    public checksums(size = DEFAULT_CHECKSUM_REGION): { readonly stamp: InputStamp; readonly checksums: RegionChecksums } {
        return { stamp: this.horizon, checksums: this.simulation.regionChecksums(size) };
    }

    /** The state of some regions where the host stands: what a client that parted there repairs with. */
    public regions(regions: readonly number[], size = DEFAULT_CHECKSUM_REGION): { readonly stamp: InputStamp; readonly patch: RegionPatch } {
        return { stamp: this.horizon, patch: readRegions(this.simulation.getState(), size, regions) };
    }

    /** The snapshot where the host stands (a save of the shared game). */
    public snapshot(): ErosionSnapshot {
        return this.simulation.snapshot();
    }
}
