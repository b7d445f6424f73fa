/**
 * `TerrainErosionWorld`: erodes a grid of grounds that share their edge vertices (the usual tiled
 * open-world terrain) as one field on one runner. Each ground is a window on the simulated field,
 * so nothing happens at a seam that would not happen inside one ground: droplets walk across,
 * rivers drain across, and the fingerprint is `erodeHeightfield`'s on the stitched field.
 *
 * ```ts
 * // grounds[row][column]: row 0 at the far (+z) edge, column 0 at the -x edge; neighbours share
 * // their edge vertices (a 4 x 4 world of 129 x 129 grounds is a 513 x 513 field).
 * const world = new TerrainErosionWorld(grounds, { seed: 7 });
 * world.onCpuDataUpdatedObservable.add(({ ground, minimumWorld, maximumWorld }) => refreshColliders(ground, minimumWorld, maximumWorld));
 * ```
 *
 * Every option, mask, map, `erodeAt` and event works as on one ground, over the field (arrays and
 * masks in field vertex order: rows from the far edge, shared vertices once; `windowOf(ground)` says
 * where a ground sits). Positions and normals are written to every ground's own vertex buffers with
 * normals computed across the whole field, so shared edge vertices are identical on both sides at
 * every frame. The world always simulates every ground: `saveGround` and `restoreGrounds` store and
 * restore tiles at cycle boundaries, not stream them.
 */
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Node } from "@babylonjs/core/node.js";
import type { ErosionOptionsInput } from "../core/options.js";
import { ErosionController } from "./erosionController.js";
import { GroundField } from "./groundField.js";
import type { ErosionGroundSave } from "./groundSave.js";
import { ErosionTargetError } from "./groundValidation.js";
import { installInspectables } from "./inspectables.js";
import { restoreGroundSaves, saveGroundWindow } from "./worldSaves.js";

/** Where a ground sits in its world's field, in field vertices. */
export interface GroundWindow {
    /** The ground's row in the grid of grounds (0 at the far, +z, edge). */
    readonly row: number;
    /** The ground's column (0 at the -x edge). */
    readonly column: number;
    /** The field column of the ground's first vertex. */
    readonly x0: number;
    /** The field row of the ground's first vertex. */
    readonly y0: number;
    /** The ground's vertices per row. */
    readonly width: number;
    /** The ground's rows. */
    readonly depth: number;
}

/** Erodes a grid of grounds as one field, exactly at the seams. */
export class TerrainErosionWorld extends ErosionController {
    private readonly _field: GroundField;
    private readonly _grounds: readonly (readonly GroundMesh[])[];
    private readonly _disposeObservers: { ground: GroundMesh; observer: Observer<Node> }[] = [];
    private readonly _uninstallInspectables: (() => void)[] = [];
    private _disposed = false;

    /**
     * Binds the grounds and starts eroding (from the next frame when `options.autoStart`). Throws
     * `ErosionTargetError` naming the ground or pair that cannot be tiled (and how to fix it), and
     * `ErosionOptionError` for a bad option, before any GPU work.
     * @param grounds `grounds[row][column]`: row 0 at the far (+z) edge, column 0 at the -x edge, in
     * the grounds' own frame; neighbours share their edge vertices (same positions and heights), each
     * column of grounds has one vertex count along x and each row one along z, and all share one
     * cell size, orientation and scale. Grounds may be non-square.
     * @param options erosion options merged over the defaults (`OPTION_SPECS`), as for `TerrainErosion`
     */
    constructor(grounds: readonly (readonly GroundMesh[])[], options: ErosionOptionsInput = {}) {
        super(options);
        const field = new GroundField(grounds);
        for (const { binding } of field.windows) {
            if (binding.ground.behaviors.some((behavior) => behavior.name === "TerrainErosion")) {
                throw new ErosionTargetError(
                    `The ground "${binding.ground.name}" already has a TerrainErosion; remove it ` +
                        `before adding the ground to a world (a ground is eroded by one of them).`
                );
            }
        }
        this._field = field;
        this._grounds = grounds.map((row) => [...row]);
        this._bind(field);
        if (field.windows.length > 1) {
            // Babylon computed each ground's normals alone; across a seam they must agree from the first frame.
            field.computeSeamlessNormals();
        }
        for (const { binding } of field.windows) {
            const ground = binding.ground;
            this._disposeObservers.push({ ground, observer: ground.onDisposeObservable.add(() => this.dispose())! });
            this._uninstallInspectables.push(installInspectables(ground, this, (message, error) => this._report("rejected", message, error)));
        }
    }

    /** Babylon class name. */
    public getClassName(): string {
        return "TerrainErosionWorld";
    }

    protected get _notLiveReason(): string {
        return "the world is disposed.";
    }

    /** The grounds, `grounds[row][column]` as given. */
    public get grounds(): readonly (readonly GroundMesh[])[] {
        return this._grounds;
    }

    /** Every tile, row by row (none once disposed). */
    public getGrounds(): GroundMesh[] {
        return this._disposed ? [] : this._grounds.flat();
    }

    /** The field's size in vertices: `width` per row, `depth` rows (shared edge vertices once). */
    public get fieldSize(): { width: number; depth: number } {
        return { width: this._field.width, depth: this._field.depth };
    }

    /** Where `ground` sits in the field; throws a RangeError for a ground not in this world. */
    public windowOf(ground: GroundMesh): GroundWindow {
        const window = this._field.windowOf(ground);
        if (!window) {
            throw new RangeError(`windowOf: the ground "${ground?.name}" is not one of this world's grounds.`);
        }
        return { row: window.row, column: window.column, x0: window.x0, y0: window.y0, width: window.binding.width, depth: window.binding.depth };
    }

    /**
     * Saves `ground`'s part of the state: its window of the heights, suspended sediment, drainage
     * state, masks and maps, with the cycle and the world's counters, events and options. The world
     * must be at a cycle boundary (after `runCycles`, or `pause()` then `runCycles(1)`), or it rejects
     * with a RangeError saying so.
     */
    public saveGround(ground: GroundMesh): Promise<ErosionGroundSave> {
        const window = this._field.windowOf(ground);
        if (!window) {
            return Promise.reject(new RangeError(`saveGround: the ground "${ground?.name}" is not one of this world's grounds.`));
        }
        return this._withRunner("saveGround", (runner) => saveGroundWindow(runner, window));
    }

    /**
     * Restores grounds from their saves, exactly. With a save for every ground the world moves to
     * their cycle (counters, events and options from the saves): its fingerprint is the saved
     * world's. With some grounds only, the world must be at the saves' cycle boundary and the other
     * grounds keep their state. Saves are matched to grounds by row and column; a save of another
     * size, cell size or cycle is refused with a RangeError before anything changes.
     */
    public restoreGrounds(saves: readonly ErosionGroundSave[]): Promise<void> {
        return this._withRunner("restoreGrounds", (runner) => restoreGroundSaves(runner, saves));
    }

    /**
     * Stops eroding (the grounds keep the eroded terrain; their CPU data is brought up to date
     * asynchronously) and clears every observer. Safe to call twice.
     */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        for (const { ground, observer } of this._disposeObservers.splice(0)) {
            ground.onDisposeObservable.remove(observer);
        }
        for (const uninstall of this._uninstallInspectables.splice(0)) {
            uninstall();
        }
        this._unbind();
        // No attach can follow: whenReady() says so rather than waiting for one.
        this._readiness.failed(new Error("TerrainErosionWorld: disposed (create a new world to erode its grounds again)."));
        this._clearObservers();
    }
}
