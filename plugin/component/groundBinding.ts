/**
 * One ground under erosion and its CPU-side vertex data: the original vertex data (so nothing is
 * ever lost), and keeping the CPU side of the mesh (height quads, picking cache, bounding info) and
 * its GPU vertex buffers in sync with rows a `GroundField` has written.
 *
 * Erosion works in the ground's local space: a parented, moved, rotated or uniformly scaled ground
 * erodes the same (every option is a slope or counted in cells), and Babylon's own queries transform
 * into local space as usual. The world scale (metres per local unit) matters only to the world-unit
 * option `featureSize`; a ground scaled differently along its axes gets an error, since a slope would
 * then depend on its direction.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { heightsToFixed } from "../core/fixedPoint.js";
import {
    ErosionTargetError, takeFloat32VertexData, uniformWorldScale, validateGround, type GeometryInternals, type GroundInternals,
} from "./groundValidation.js";

export { ErosionTargetError, groundGridSize, uniformWorldScale, validateGround } from "./groundValidation.js";

/** World-space bounds whose CPU data (heights, normals) a frame brought up to date on one ground. */
export interface GroundDataUpdate {
    /** The ground whose CPU vertex data changed. */
    readonly ground: GroundMesh;
    /** The vertex rows whose positions or normals changed, `y0 .. y1 - 1` (row 0 at the ground's far, +z, edge). */
    readonly rows: { readonly y0: number; readonly y1: number };
    /** Corner of the changed region's world-space axis-aligned box with the smallest x, y and z. */
    readonly minimumWorld: Vector3;
    /** Corner with the largest x, y and z. */
    readonly maximumWorld: Vector3;
}

/** The ground under erosion and its CPU-side vertex data. */
export class GroundBinding {
    /** Vertices per row. */
    public readonly width: number;
    /** Rows. */
    public readonly depth: number;
    /** Distance between neighbouring vertices in local units. */
    public readonly cellSize: number;
    /** Metres one local unit stands for in the world (the ground's uniform world scale at attach). */
    public readonly worldScale: number;
    /** Positions at attach, for `restoreOriginal`. */
    public readonly originalPositions: Float32Array;
    /** Normals at attach. */
    public readonly originalNormals: Float32Array;
    /** Fixed-point heights at attach (1/65536 of the cell size). */
    public readonly originalHeights: Int32Array;
    private readonly _rowMin: Float64Array;
    private readonly _rowMax: Float64Array;

    constructor(public readonly ground: GroundMesh) {
        validateGround(ground);
        const internals = ground as unknown as GroundInternals;
        this.width = internals._subdivisionsX + 1;
        this.depth = internals._subdivisionsY + 1;
        this.cellSize = internals._width / internals._subdivisionsX;
        this.worldScale = uniformWorldScale(ground);
        // The constructor, not Float32Array.from, whose iteration was 37 ms of a 513² attach.
        // Erosion writes both in place: a number[] (Babylon's ComputeNormals idiom) becomes a Float32Array here.
        this.originalPositions = new Float32Array(takeFloat32VertexData(ground, VertexBuffer.PositionKind));
        this.originalNormals = new Float32Array(takeFloat32VertexData(ground, VertexBuffer.NormalKind));
        const heights = new Float64Array(this.width * this.depth);
        for (let i = 0; i < heights.length; i++) {
            heights[i] = this.originalPositions[i * 3 + 1];
        }
        this.originalHeights = heightsToFixed(heights, `ground "${ground.name}" vertex heights`, undefined, this.cellSize);
        this._rowMin = new Float64Array(this.depth);
        this._rowMax = new Float64Array(this.depth);
        this._measureRows(this.originalPositions, 0, this.depth);
    }

    /** The ground's position vertex buffer (positions are read and written in place on the GPU). */
    public get positionBuffer(): VertexBuffer {
        return this._vertexBuffer(VertexBuffer.PositionKind);
    }

    /** The ground's normal vertex buffer. */
    public get normalBuffer(): VertexBuffer {
        return this._vertexBuffer(VertexBuffer.NormalKind);
    }

    /**
     * Creates the ground's position, normal and index buffers anew on the engine's current device,
     * from the CPU data (after a WebGPU device loss).
     */
    public recreateGpuBuffers(): void {
        const ground = this.ground;
        for (const kind of [VertexBuffer.PositionKind, VertexBuffer.NormalKind]) {
            ground.setVerticesData(kind, this._cpuData(this._vertexBuffer(kind)), true);
        }
        const indices = ground.getIndices();
        if (indices) {
            ground.setIndices(indices, null, true);
        }
    }

    /**
     * Puts the positions the ground had at attach back, and its original normals unless
     * `keepNormals` (a field of several grounds computes them across its seams instead, then calls
     * `commitRows`). Returns what changed, or null when the caller commits.
     */
    public restoreOriginal(keepNormals: boolean): GroundDataUpdate | null {
        this.cpuPositions.set(this.originalPositions);
        if (keepNormals) {
            return null;
        }
        this.cpuNormals.set(this.originalNormals);
        return this.commitRows(0, this.depth, 0, this.depth, true);
    }

    /** The mesh's CPU position data (live, not a copy). */
    public get cpuPositions(): Float32Array {
        return this._cpuData(this.positionBuffer);
    }

    /** The mesh's CPU normal data (live, not a copy). */
    public get cpuNormals(): Float32Array {
        return this._cpuData(this.normalBuffer);
    }

    /**
     * After positions of rows `y0 .. y1 - 1` and normals of rows `normalY0 .. normalY1 - 1` were
     * written into the CPU data: uploads them (when `uploadToGpu`, i.e. for the CPU backend),
     * refreshes the height quads, the picking cache and the bounding info, and returns the
     * world-space bounds of what changed.
     */
    public commitRows(y0: number, y1: number, normalY0: number, normalY1: number, uploadToGpu: boolean): GroundDataUpdate {
        const positions = this.cpuPositions;
        if (uploadToGpu) {
            const engine = this.ground.getScene().getEngine();
            const positionRange = positions.subarray(y0 * this.width * 3, y1 * this.width * 3);
            engine.updateDynamicVertexBuffer(this.positionBuffer.getBuffer()!, positionRange, y0 * this.width * 12, positionRange.byteLength);
            const normalRange = this.cpuNormals.subarray(normalY0 * this.width * 3, normalY1 * this.width * 3);
            engine.updateDynamicVertexBuffer(this.normalBuffer.getBuffer()!, normalRange, normalY0 * this.width * 12, normalRange.byteLength);
        }
        this._refreshHeightQuads(positions, Math.max(0, y0 - 1), Math.min(this.depth - 1, y1));
        this._refreshPickingCache(positions, y0, y1);
        this._measureRows(positions, y0, y1);
        this._refreshBoundingInfo();
        return this._updateOf(Math.min(y0, normalY0), Math.max(y1, normalY1));
    }

    /** The world-space box of vertex rows `y0 .. y1 - 1` at their current heights. */
    private _updateOf(y0: number, y1: number): GroundDataUpdate {
        let low = Infinity;
        let high = -Infinity;
        for (let y = y0; y < y1; y++) {
            low = Math.min(low, this._rowMin[y]);
            high = Math.max(high, this._rowMax[y]);
        }
        const internals = this.ground as unknown as GroundInternals;
        const world = this.ground.getWorldMatrix();
        const minimumWorld = new Vector3(Infinity, Infinity, Infinity);
        const maximumWorld = new Vector3(-Infinity, -Infinity, -Infinity);
        const zOf = (row: number) => internals._height / 2 - row * this.cellSize;
        for (const x of [internals._minX, internals._maxX]) {
            for (const y of [low, high]) {
                for (const z of [zOf(y0), zOf(y1 - 1)]) {
                    const corner = Vector3.TransformCoordinates(new Vector3(x, y, z), world);
                    minimumWorld.minimizeInPlace(corner);
                    maximumWorld.maximizeInPlace(corner);
                }
            }
        }
        return { ground: this.ground, rows: { y0, y1 }, minimumWorld, maximumWorld };
    }

    private _vertexBuffer(kind: string): VertexBuffer {
        const buffer = this.ground.getVertexBuffer(kind);
        if (!buffer) {
            throw new ErosionTargetError(`The ground "${this.ground.name}" lost its ${kind} vertex buffer.`);
        }
        return buffer;
    }

    private _cpuData(buffer: VertexBuffer): Float32Array {
        const data = buffer.getData();
        if (!(data instanceof Float32Array)) {
            // Checked at attach: the data was replaced since (e.g. updateVerticesData with a number[]).
            const kind = buffer.getKind();
            const held = data ? `its ${kind} data on the CPU as ${data.constructor.name}` : `no ${kind} data on the CPU`;
            throw new ErosionTargetError(
                `The ground "${this.ground.name}" keeps ${held}, no longer the Float32Array erosion writes in place: ` +
                    `its vertex data was replaced while eroding; pass a Float32Array to updateVerticesData, or detach first.`
            );
        }
        return data;
    }

    /** Babylon's `_computeHeightQuads`, restricted to quad rows `r0 .. r1 - 1`. */
    private _refreshHeightQuads(positions: Float32Array, r0: number, r1: number): void {
        const internals = this.ground as unknown as GroundInternals;
        const quads = internals._heightQuads;
        if (!quads || quads.length === 0) {
            return; // built lazily from the (already updated) positions on the first query
        }
        const columns = internals._subdivisionsX;
        const v1 = new Vector3();
        const v2 = new Vector3();
        const v3 = new Vector3();
        const v4 = new Vector3();
        const v1v2 = new Vector3();
        const v1v3 = new Vector3();
        const v1v4 = new Vector3();
        const norm1 = new Vector3();
        const norm2 = new Vector3();
        for (let row = r0; row < r1; row++) {
            for (let col = 0; col < columns; col++) {
                const i = col * 3;
                const j = row * (columns + 1) * 3;
                const k = (row + 1) * (columns + 1) * 3;
                v1.set(positions[j + i], positions[j + i + 1], positions[j + i + 2]);
                v2.set(positions[j + i + 3], positions[j + i + 4], positions[j + i + 5]);
                v3.set(positions[k + i], positions[k + i + 1], positions[k + i + 2]);
                v4.set(positions[k + i + 3], positions[k + i + 4], positions[k + i + 5]);
                const cd = (v4.z - v1.z) / (v4.x - v1.x);
                const h = v1.z - cd * v1.x;
                v2.subtractToRef(v1, v1v2);
                v3.subtractToRef(v1, v1v3);
                v4.subtractToRef(v1, v1v4);
                Vector3.CrossToRef(v1v4, v1v3, norm1);
                Vector3.CrossToRef(v1v2, v1v4, norm2);
                norm1.normalize();
                norm2.normalize();
                const d1 = -(norm1.x * v1.x + norm1.y * v1.y + norm1.z * v1.z);
                const d2 = -(norm2.x * v2.x + norm2.y * v2.y + norm2.z * v2.z);
                const quad = quads[row * columns + col];
                quad.slope.copyFromFloats(cd, h);
                quad.facet1.copyFromFloats(norm1.x, norm1.y, norm1.z, d1);
                quad.facet2.copyFromFloats(norm2.x, norm2.y, norm2.z, d2);
            }
        }
    }

    /** Updates the geometry's cached Vector3 positions (used by picking) for rows `y0 .. y1 - 1`. */
    private _refreshPickingCache(positions: Float32Array, y0: number, y1: number): void {
        const cache = (this.ground.geometry as unknown as GeometryInternals | null)?._positions;
        if (!cache) {
            return; // regenerated from the positions on the next pick
        }
        for (let i = y0 * this.width; i < y1 * this.width; i++) {
            cache[i].y = positions[i * 3 + 1];
        }
    }

    private _measureRows(positions: Float32Array, y0: number, y1: number): void {
        for (let y = y0; y < y1; y++) {
            let low = Infinity;
            let high = -Infinity;
            for (let i = y * this.width; i < (y + 1) * this.width; i++) {
                const h = positions[i * 3 + 1];
                if (h < low) low = h;
                if (h > high) high = h;
            }
            this._rowMin[y] = low;
            this._rowMax[y] = high;
        }
    }

    private _refreshBoundingInfo(): void {
        let low = Infinity;
        let high = -Infinity;
        for (let y = 0; y < this.depth; y++) {
            low = Math.min(low, this._rowMin[y]);
            high = Math.max(high, this._rowMax[y]);
        }
        const internals = this.ground as unknown as GroundInternals;
        const minimum = new Vector3(internals._minX, low, internals._minZ);
        const maximum = new Vector3(internals._maxX, high, internals._maxZ);
        this.ground.getBoundingInfo().reConstruct(minimum, maximum, this.ground.getWorldMatrix());
    }
}
