/**
 * `ErosionColliders`: Havok heightfield colliders (Babylon physics v2) that follow the eroded
 * heights, for a `TerrainErosion` or every ground of a `TerrainErosionWorld`.
 *
 * ```ts
 * import { ErosionColliders } from "babylon-terrain-erosion/physics";
 * scene.enablePhysics(new Vector3(0, -9.81, 0), new HavokPlugin(true, await HavokPhysics()));
 * const colliders = new ErosionColliders(erosion, { chunkCells: 32, refreshIntervalMs: 250 });
 * ```
 *
 * `PhysicsShapeHeightField` cannot be updated, so each ground's collider is a static body whose
 * shape is a `PhysicsShapeContainer` of square heightfield chunks, and a chunk whose heights changed
 * is rebuilt: from the ground's CPU vertex data, which the erosion brings up to date from the rows
 * that already come back (`onCpuDataUpdatedObservable` says which), so the colliders never read
 * the GPU themselves and never stall a frame. A refresh starts at most once per
 * `refreshIntervalMs` and rebuilds `maxChunksPerFrame` chunks a frame until the chunks changed
 * before it are done. Its own entry point (`babylon-terrain-erosion/physics`): a game that imports
 * only the erosion component does not bundle physics code, and the package never imports Havok (the
 * game passes its own plugin to `scene.enablePhysics`).
 */
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import { PhysicsBody } from "@babylonjs/core/Physics/v2/physicsBody.js";
import { PhysicsShapeContainer, PhysicsShapeHeightField } from "@babylonjs/core/Physics/v2/physicsShape.js";
import { PhysicsMotionType } from "@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js";
import type { PhysicsMaterial } from "@babylonjs/core/Physics/v2/physicsMaterial.js";
import type { Scene } from "@babylonjs/core/scene.js";
// scene.enablePhysics and scene.getPhysicsEngine: with Babylon's per-file imports they are stubs
// that do nothing until this module is loaded, and a game that imports the colliders needs them.
import "@babylonjs/core/Physics/joinedPhysicsEngineComponent.js";
import type { ErosionController } from "../component/erosionController.js";
import type { GroundDataUpdate } from "../component/groundBinding.js";
import { chunkOrigins, validateColliderOptions, type ErosionCollidersOptions } from "./colliderOptions.js";

export type { ErosionCollidersOptions } from "./colliderOptions.js";

/** One square heightfield chunk of a ground's collider. */
interface Chunk {
    /** First vertex column and row of the chunk in its ground. */
    readonly x0: number;
    readonly y0: number;
    shape: PhysicsShapeHeightField;
}

/** One ground's collider: a static body whose shape is a container of chunks. */
interface GroundCollider {
    readonly ground: GroundMesh;
    readonly node: TransformNode;
    readonly body: PhysicsBody;
    readonly chunks: Chunk[];
    /** Cells a side of every chunk. */
    readonly side: number;
    container: PhysicsShapeContainer;
    /** Chunks whose heights changed since they were built. */
    readonly dirty: Set<Chunk>;
}

/** Heightfield colliders that follow an erosion's grounds. */
export class ErosionColliders {
    private readonly _scene: Scene;
    private readonly _options: Required<Omit<ErosionCollidersOptions, "material">> & { material?: PhysicsMaterial };
    private readonly _colliders: GroundCollider[] = [];
    private readonly _updated: Observer<GroundDataUpdate>;
    private readonly _beforeRender: Observer<Scene>;
    /** Chunks a refresh in progress still has to rebuild. */
    private _refreshing: { collider: GroundCollider; chunk: Chunk }[] = [];
    private _lastRefresh = -Infinity;
    private _rebuilt = 0;
    private _disposed = false;

    /**
     * Builds a collider for each ground `erosion` erodes, from their current CPU data. Throws an
     * Error when the scene has no physics v2 engine (`scene.enablePhysics` with a `HavokPlugin`) and
     * a RangeError naming an option out of its range, before creating anything.
     */
    constructor(
        private readonly _erosion: ErosionController,
        options: ErosionCollidersOptions = {}
    ) {
        this._options = validateColliderOptions(options);
        const grounds = _erosion.getGrounds();
        if (grounds.length === 0) {
            throw new Error(`ErosionColliders: the ${_erosion.getClassName()} has no ground (attach it first).`);
        }
        this._scene = grounds[0].getScene();
        if ((this._scene.getPhysicsEngine as { __isSideEffectStub?: boolean }).__isSideEffectStub) {
            // Another copy of @babylonjs/core than the one this package sees (the import above registered it there).
            throw new Error(
                'ErosionColliders: this scene\'s Babylon has no physics engine component, so scene.enablePhysics() ' +
                    'did nothing. Add `import "@babylonjs/core/Physics/joinedPhysicsEngineComponent.js";` before ' +
                    'calling scene.enablePhysics (and make sure the app and this package share one @babylonjs/core).'
            );
        }
        const engine = this._scene.getPhysicsEngine();
        if (!engine || engine.getPluginVersion() !== 2) {
            throw new Error(
                "ErosionColliders needs Babylon's physics v2 in the ground's scene: " +
                    "scene.enablePhysics(gravity, new HavokPlugin(true, await HavokPhysics())) first."
            );
        }
        for (const ground of grounds) {
            this._colliders.push(this._buildCollider(ground));
        }
        this._updated = _erosion.onCpuDataUpdatedObservable.add((update) => this._markDirty(update));
        this._beforeRender = this._scene.onBeforeRenderObservable.add(() => this._onFrame());
    }

    /** The static body of each ground's collider, in `getGrounds()` order. */
    public get bodies(): PhysicsBody[] {
        return this._colliders.map((collider) => collider.body);
    }

    /** Chunks per ground, in `getGrounds()` order. */
    public get chunkCounts(): number[] {
        return this._colliders.map((collider) => collider.chunks.length);
    }

    /** Chunks rebuilt since construction. */
    public get chunksRebuilt(): number {
        return this._rebuilt;
    }

    /** Chunks whose heights changed and are not rebuilt yet. */
    public get pendingChunks(): number {
        return this._colliders.reduce((sum, collider) => sum + collider.dirty.size, 0);
    }

    /**
     * Rebuilds every chunk whose heights changed, now (after `await erosion.flush()`, the colliders
     * then match `maps.readHeights()` exactly).
     */
    public refresh(): void {
        this._refreshing = [];
        for (const collider of this._colliders) {
            this._rebuild(collider, [...collider.dirty]);
        }
        this._lastRefresh = performance.now();
    }

    /** Removes the bodies and shapes (the grounds stay). Safe to call twice. */
    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        this._erosion.onCpuDataUpdatedObservable.remove(this._updated);
        this._scene.onBeforeRenderObservable.remove(this._beforeRender);
        for (const collider of this._colliders) {
            collider.body.dispose();
            collider.container.dispose();
            collider.chunks.forEach((chunk) => chunk.shape.dispose());
            collider.node.dispose();
        }
        this._colliders.length = 0;
    }

    private _buildCollider(ground: GroundMesh): GroundCollider {
        const node = new TransformNode(`${ground.name}.erosionCollider`, this._scene);
        node.parent = ground;
        node.computeWorldMatrix(true);
        const body = new PhysicsBody(node, PhysicsMotionType.STATIC, false, this._scene);
        const { width, depth } = gridOf(ground);
        const side = Math.min(this._options.chunkCells, width - 1, depth - 1);
        const chunks = chunkOrigins(width, depth, side).map(([x0, y0]) => ({ x0, y0, shape: this._chunkShape(ground, x0, y0, side) }));
        const collider: GroundCollider = { ground, node, body, chunks, side, container: this._container(ground, chunks, side), dirty: new Set() };
        body.shape = collider.container;
        return collider;
    }

    /** A heightfield of `side` cells a side from the ground's CPU heights, vertex (x0, y0) at its far-left corner. */
    private _chunkShape(ground: GroundMesh, x0: number, y0: number, side: number): PhysicsShapeHeightField {
        const { width, cellSize } = gridOf(ground);
        const positions = ground.getVerticesData("position")!;
        const samples = side + 1;
        // Havok's square heightfield takes samples in a ground's own order: row 0 at the far (+z) edge.
        const heights = new Float32Array(samples * samples);
        for (let row = 0; row < samples; row++) {
            for (let column = 0; column < samples; column++) {
                heights[row * samples + column] = positions[((y0 + row) * width + x0 + column) * 3 + 1];
            }
        }
        const shape = new PhysicsShapeHeightField(side * cellSize, side * cellSize, samples, samples, heights, this._scene);
        if (this._options.material) {
            shape.material = this._options.material;
        }
        return shape;
    }

    private _container(ground: GroundMesh, chunks: readonly Chunk[], side: number): PhysicsShapeContainer {
        const { width, depth, cellSize } = gridOf(ground);
        const container = new PhysicsShapeContainer(this._scene);
        for (const chunk of chunks) {
            // A heightfield is centred on its origin.
            const centre = new Vector3(
                -((width - 1) * cellSize) / 2 + (chunk.x0 + side / 2) * cellSize, 0, ((depth - 1) * cellSize) / 2 - (chunk.y0 + side / 2) * cellSize
            );
            container.addChild(chunk.shape, centre);
        }
        if (this._options.material) {
            container.material = this._options.material;
        }
        return container;
    }

    private _markDirty(update: GroundDataUpdate): void {
        const collider = this._colliders.find((candidate) => candidate.ground === update.ground);
        if (!collider) {
            return;
        }
        const side = collider.side;
        for (const chunk of collider.chunks) {
            if (chunk.y0 < update.rows.y1 && chunk.y0 + side >= update.rows.y0) {
                collider.dirty.add(chunk);
            }
        }
    }

    private _onFrame(): void {
        if (this._refreshing.length === 0) {
            if (this.pendingChunks === 0 || performance.now() - this._lastRefresh < this._options.refreshIntervalMs) {
                return;
            }
            this._lastRefresh = performance.now();
            this._refreshing = this._colliders.flatMap((collider) => [...collider.dirty].map((chunk) => ({ collider, chunk })));
        }
        const now = this._refreshing.splice(0, this._options.maxChunksPerFrame);
        for (const collider of this._colliders) {
            const chunks = now.filter((entry) => entry.collider === collider).map((entry) => entry.chunk);
            if (chunks.length > 0) {
                this._rebuild(collider, chunks);
            }
        }
    }

    /** Rebuilds `chunks` of one collider from the ground's CPU data and swaps in a new container. */
    private _rebuild(collider: GroundCollider, chunks: readonly Chunk[]): void {
        if (chunks.length === 0 || collider.ground.isDisposed()) {
            return;
        }
        const side = collider.side;
        const retired = [collider.container];
        for (const chunk of chunks) {
            retired.push(chunk.shape);
            chunk.shape = this._chunkShape(collider.ground, chunk.x0, chunk.y0, side);
            collider.dirty.delete(chunk);
        }
        collider.container = this._container(collider.ground, collider.chunks, side);
        collider.body.shape = collider.container;
        retired.forEach((shape) => shape.dispose());
        this._rebuilt += chunks.length;
    }
}

/** A ground's vertices per row and rows, and its cell size in local units. */
function gridOf(ground: GroundMesh): { width: number; depth: number; cellSize: number } {
    const internals = ground as unknown as { _width: number };
    return { width: ground.subdivisionsX + 1, depth: ground.subdivisionsY + 1, cellSize: internals._width / ground.subdivisionsX };
}
