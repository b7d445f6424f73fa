/**
 * The water sources a schedule holds: those in force for the current cycle, packed for the
 * kernels, and a new list waiting for the next cycle boundary (`ErosionSchedule.setSources`).
 */
import type { WaterSourceState } from "./erosionState.js";
import type { GridSize } from "./worldScale.js";
import { packWaterSources, type WaterSource } from "./waterSources.js";

/** Water sources in force and pending. */
export class ScheduledSources {
    private _inForce: readonly WaterSource[] = [];
    private _pending: readonly WaterSource[] | null = null;
    private _packed: Int32Array = new Int32Array(1);

    constructor(private readonly _grid: GridSize) {}

    /** The sources in force for the current cycle. */
    public get inForce(): readonly WaterSource[] {
        return this._inForce;
    }

    /** The sources that take force at the next cycle boundary, or null when no change waits. */
    public get pending(): readonly WaterSource[] | null {
        return this._pending;
    }

    /** The sources in force, packed for the kernels (`packWaterSources`; the same object while they do not change). */
    public get packed(): Int32Array {
        return this._packed;
    }

    /** Holds `sources` (copied) for the next cycle boundary. */
    public queue(sources: readonly WaterSource[]): void {
        this._pending = [...sources];
    }

    /** Puts the pending list in force, if one waits (at a cycle boundary). */
    public applyPending(): void {
        if (this._pending) this.set(this._pending, null);
    }

    /** The sources in force and pending, as the state records them (copies). */
    public state(): WaterSourceState {
        return { inForce: [...this._inForce], pending: this._pending ? [...this._pending] : null };
    }

    /** Replaces the sources in force and pending (copied). */
    public set(inForce: readonly WaterSource[], pending: readonly WaterSource[] | null): void {
        this._inForce = [...inForce];
        this._packed = packWaterSources(this._inForce, this._grid.width, this._grid.depth);
        this._pending = pending ? [...pending] : null;
    }
}
