/**
 * `TerrainErosion`: a Babylon behavior that erodes a `GroundMesh` a few patches per frame.
 *
 * ```ts
 * const ground = MeshBuilder.CreateGround("ground", { width: 200, height: 200, subdivisions: 512, updatable: true }, scene);
 * const erosion = new TerrainErosion({ seed: 7, hydraulic: { brushRadius: 3 } });
 * ground.addBehavior(erosion); // starts eroding a few patches per frame
 * ```
 *
 * Each frame, inside `frameBudgetMs`, it runs the next batches of the cycle schedule, regenerates
 * the changed region's positions and normals (on the GPU with the WebGPU backend, writing the
 * ground's own vertex buffers), and brings the mesh's CPU data (vertex data, height quads, picking,
 * bounds) up to date for those rows asynchronously, without a stall. The behavior holds the options
 * and the observables and checks what it is attached to; an `ErosionRunner` does the work.
 */
import type { Behavior } from "@babylonjs/core/Behaviors/behavior.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Node } from "@babylonjs/core/node.js";
import type { Nullable } from "@babylonjs/core/types.js";
import { ErosionController } from "./erosionController.js";
import { GroundField } from "./groundField.js";
import { ErosionTargetError, validateGround } from "./groundValidation.js";
import { installInspectables } from "./inspectables.js";

export { MAX_FRAMES_IN_FLIGHT } from "./erosionEvents.js";
export type { CycleCompletedEvent, ErosionErrorEvent, ErosionFrameStats, ErosionStall, ErosionStatus, PatchErodedEvent } from "./erosionEvents.js";

/** Erodes a GroundMesh in staggered patches per frame. */
export class TerrainErosion extends ErosionController implements Behavior<GroundMesh> {
    /** Behavior name. */
    public readonly name = "TerrainErosion";

    private _ground: Nullable<GroundMesh> = null;
    private _disposeObserver: Nullable<Observer<Node>> = null;
    private _uninstallInspectables: (() => void) | null = null;
    private _disposed = false;

    /** Babylon class name. */
    public getClassName(): string {
        return "TerrainErosion";
    }

    /** Part of the Behavior contract; nothing to prepare before attach. */
    public init(): void {}

    /** The ground being eroded, or null when detached. */
    public get ground(): Nullable<GroundMesh> {
        return this._ground;
    }

    /** Behavior contract: the node this behavior is attached to. */
    public get attachedNode(): Nullable<GroundMesh> {
        return this._ground;
    }

    /** The ground while attached (none detached). */
    public getGrounds(): GroundMesh[] {
        return this._ground ? [this._ground] : [];
    }

    protected get _notLiveReason(): string {
        return "not attached to a ground: attach it first (ground.addBehavior(erosion); while the scene is still " +
            "loading, Babylon attaches behaviors only once it has loaded, unless you pass addBehavior(erosion, true)).";
    }

    /**
     * Attaches to a ground (called by `ground.addBehavior(erosion)`). Throws `ErosionTargetError`
     * for a target that cannot be eroded and `ErosionOptionError` for `backend: "webgpu"` on an
     * engine without compute shaders, before any GPU work.
     */
    public attach(ground: GroundMesh): void {
        if (this._disposed) {
            throw new Error("TerrainErosion: attach() after dispose().");
        }
        if (this._ground) {
            throw new ErosionTargetError(`This TerrainErosion is already attached to "${this._ground.name}"; detach it first.`);
        }
        try {
            validateGround(ground);
            const other = ground.behaviors.find((behavior) => (behavior as unknown) !== this && behavior.name === "TerrainErosion");
            if (other) {
                throw new ErosionTargetError(`The ground "${ground.name}" already has a TerrainErosion; a ground takes one.`);
            }
            const field = new GroundField([[ground]]);
            // Set first: onAttachedObservable's observers (the water surface) ask for the grounds.
            this._ground = ground;
            this._bind(field);
        } catch (error) {
            this._ground = null;
            // Babylon may attach later (a loading scene), where nobody catches this: whenReady() says it.
            this._readiness.failed(error instanceof Error ? error : new Error(String(error)));
            throw error;
        }
        this._disposeObserver = ground.onDisposeObservable.add(() => this.detach());
        this._uninstallInspectables = installInspectables(ground, this, (message, error) => this._report("rejected", message, error));
    }

    /**
     * Detaches: erosion stops, every GPU buffer and observer the component created is released, and
     * the eroded terrain stays on the mesh. The GPU backend brings the mesh's CPU data fully up to
     * date asynchronously first (`await erosion.whenIdle()`, or `await erosion.flush()` before
     * detaching, when you need it at once). Call `history.reset()` before detaching to restore the original.
     * It leaves the ground's behaviors, so `ground.addBehavior(erosion)` attaches it again (from the
     * ground's current heights, at cycle 0). Safe to call twice.
     */
    public detach(): void {
        const ground = this._ground;
        if (!ground) {
            return;
        }
        ground.onDisposeObservable.remove(this._disposeObserver);
        this._disposeObserver = null;
        this._uninstallInspectables?.();
        this._uninstallInspectables = null;
        this._unbind();
        this._ground = null;
        // Off the ground's list too (removeBehavior calls detach() again, which returns at once), so
        // `ground.addBehavior(erosion)` attaches it again: Babylon skips a behavior already listed.
        if (ground.behaviors.includes(this as unknown as Behavior<Node>)) {
            ground.removeBehavior(this as unknown as Behavior<Node>);
        }
    }

    /** Detaches (if attached) and clears every observer. Safe to call twice. */
    public dispose(): void {
        if (this._ground) {
            this._ground.removeBehavior(this as unknown as Behavior<Node>);
            this.detach();
        }
        this._disposed = true;
        this._readiness.failed(new Error("TerrainErosion: disposed (a disposed behavior cannot be attached again; create a new one)."));
        this._clearObservers();
    }
}
