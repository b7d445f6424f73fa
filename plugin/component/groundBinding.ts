/**
 * Everything the component knows about the ground it erodes: validation of the target, its grid,
 * the original vertex data (so nothing is ever lost), and keeping the CPU side of the mesh
 * (vertex data, height quads, picking cache, bounding info) in sync with eroded rows.
 *
 * Erosion works in the ground's local space: a parented, moved, rotated or uniformly scaled ground
 * erodes the same (every option is a slope or counted in cells), and Babylon's own queries transform
 * into local space as usual. The world scale (metres per local unit) matters only to the world-unit
 * option `featureSize`; a ground scaled differently along its axes gets an error, since a slope would
 * then depend on its direction.
 */
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { FIXED_ONE, heightsToFixed } from "../core/fixedPoint.js";
import { MAX_GRID_SIDE } from "../core/erodeHeightfield.js";
import { CELL_SIZE_MAX, CELL_SIZE_MIN } from "../core/worldScale.js";
import { computeNormalRows } from "./vertexNormals.js";

/** An error about the mesh a `TerrainErosion` was attached to. */
export class ErosionTargetError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "ErosionTargetError";
    }
}

/** Largest relative difference between a cell's x and z size still treated as square. */
const SQUARE_CELL_TOLERANCE = 1e-6;

/** Largest relative difference between the ground's world scale along two axes still treated as uniform. */
const UNIFORM_SCALE_TOLERANCE = 1e-5;

/** The ground's world scale (metres per local unit), or an `ErosionTargetError` if it differs along its axes. */
export function uniformWorldScale(ground: GroundMesh): number {
    const scale = new Vector3();
    ground.computeWorldMatrix(true).decompose(scale, new Quaternion(), new Vector3());
    const [x, y, z] = [Math.abs(scale.x), Math.abs(scale.y), Math.abs(scale.z)];
    const largest = Math.max(x, y, z);
    if (!(largest > 0) || Math.max(Math.abs(x - y), Math.abs(y - z), Math.abs(x - z)) > UNIFORM_SCALE_TOLERANCE * largest) {
        throw new ErosionTargetError(
            `The ground "${ground.name}" is scaled differently along its axes in the world (${x}, ${y}, ${z}, parents included). Erosion reads slopes and angles of repose, which would then depend on direction: ` +
                `scale it (and its parents) uniformly, or bake the scaling into its vertices (ground.bakeCurrentTransformIntoVertices()) and create the ground with the size you want.`
        );
    }
    return (x + y + z) / 3;
}

/** The private parts of Babylon 9's GroundMesh this binding refreshes in place. */
interface GroundInternals {
    _heightQuads?: { slope: { copyFromFloats(x: number, y: number): void }; facet1: { copyFromFloats(a: number, b: number, c: number, d: number): void }; facet2: { copyFromFloats(a: number, b: number, c: number, d: number): void } }[];
    _subdivisionsX: number;
    _subdivisionsY: number;
    _width: number;
    _height: number;
    _minX: number;
    _maxX: number;
    _minZ: number;
    _maxZ: number;
}

/** A ground's grid: vertices per row and rows (from its subdivisions). */
export function groundGridSize(ground: GroundMesh): { width: number; depth: number } {
    const internals = ground as unknown as GroundInternals;
    return { width: internals._subdivisionsX + 1, depth: internals._subdivisionsY + 1 };
}

interface GeometryInternals {
    _positions: Vector3[] | null;
    meshes: unknown[];
}

/**
 * Checks that `mesh` is a ground the component can erode; throws `ErosionTargetError` saying what
 * is wrong and how to fix it. Does no GPU work.
 */
export function validateGround(mesh: unknown): asserts mesh is GroundMesh {
    const candidate = mesh as { getClassName?: () => string; isDisposed?: () => boolean; name?: string } | null;
    if (!candidate || typeof candidate.getClassName !== "function") {
        throw new ErosionTargetError(`TerrainErosion must be attached to a GroundMesh, got ${mesh === null ? "null" : typeof mesh}.`);
    }
    const className = candidate.getClassName();
    if (className !== "GroundMesh") {
        throw new ErosionTargetError(`TerrainErosion must be attached to a GroundMesh (MeshBuilder.CreateGround or CreateGroundFromHeightMap), but "${candidate.name}" is a ${className}.`);
    }
    const ground = mesh as GroundMesh;
    if (ground.isDisposed()) {
        throw new ErosionTargetError(`The ground "${ground.name}" is disposed.`);
    }
    if (ground.getScene().isDisposed) {
        throw new ErosionTargetError(`The scene of the ground "${ground.name}" is disposed.`);
    }
    const internals = ground as unknown as GroundInternals;
    const width = internals._subdivisionsX + 1;
    const depth = internals._subdivisionsY + 1;
    const vertices = ground.getTotalVertices();
    if (vertices === 0) {
        throw new ErosionTargetError(`The ground "${ground.name}" has no vertices yet. For CreateGroundFromHeightMap, attach in its onReady callback.`);
    }
    if (!Number.isInteger(width) || !Number.isInteger(depth) || vertices !== width * depth) {
        throw new ErosionTargetError(`The ground "${ground.name}" has ${vertices} vertices, not the ${width} x ${depth} grid its subdivisions describe; its vertex data was replaced, so it cannot be eroded as a grid.`);
    }
    if (width < 2 || depth < 2) {
        throw new ErosionTargetError(`The ground "${ground.name}" is ${width} x ${depth} vertices; erosion needs at least 2 x 2.`);
    }
    if (width > MAX_GRID_SIDE || depth > MAX_GRID_SIDE) {
        throw new ErosionTargetError(`The ground "${ground.name}" is ${width} x ${depth} vertices; erosion supports at most ${MAX_GRID_SIDE} a side.`);
    }
    if (!ground.isVertexBufferUpdatable(VertexBuffer.PositionKind) || !ground.isVertexBufferUpdatable(VertexBuffer.NormalKind)) {
        throw new ErosionTargetError(`The ground "${ground.name}" is not updatable: create it with { updatable: true } (MeshBuilder.CreateGround and CreateGroundFromHeightMap both take it), or its positions and normals cannot change.`);
    }
    const geometry = ground.geometry as unknown as GeometryInternals | null;
    if (!geometry || geometry.meshes.length > 1) {
        throw new ErosionTargetError(`The ground "${ground.name}" shares its geometry with ${geometry ? geometry.meshes.length - 1 : 0} other mesh(es); eroding it would change them too. Give it its own geometry (e.g. ground.makeGeometryUnique()).`);
    }
    if (ground.instances.length > 0) {
        throw new ErosionTargetError(`The ground "${ground.name}" has ${ground.instances.length} instance(s); instances share its geometry. Erode a ground without instances.`);
    }
    const cellX = internals._width / internals._subdivisionsX;
    const cellZ = internals._height / internals._subdivisionsY;
    if (Math.abs(cellX - cellZ) > SQUARE_CELL_TOLERANCE * Math.max(cellX, cellZ)) {
        throw new ErosionTargetError(
            `The ground "${ground.name}" has rectangular cells (${cellX} m along x, ${cellZ} m along z). The kernels measure distance in cells, so cells must be square: ` +
                `choose subdivisionsX / subdivisionsY = width / height (e.g. width ${internals._width}, height ${internals._height}, subdivisionsX ${internals._subdivisionsX}, subdivisionsY ${Math.round(internals._height / cellX)}).`
        );
    }
    if (!(cellX >= CELL_SIZE_MIN && cellX <= CELL_SIZE_MAX)) {
        throw new ErosionTargetError(`The ground "${ground.name}" has cells ${cellX} units wide; erosion supports cells of ${CELL_SIZE_MIN} to ${CELL_SIZE_MAX} units (fixed-point heights count 1/65536 of a cell). Change its width or subdivisions.`);
    }
    uniformWorldScale(ground);
    const positions = ground.getVerticesData(VertexBuffer.PositionKind);
    if (!positions) {
        throw new ErosionTargetError(`The ground "${ground.name}" has no position data on the CPU.`);
    }
    const last = (vertices - 1) * 3;
    const expectedFirstX = -internals._width / 2;
    const expectedFirstZ = internals._height / 2;
    const tolerance = 1e-4 * Math.max(internals._width, internals._height);
    if (Math.abs(positions[0] - expectedFirstX) > tolerance || Math.abs(positions[2] - expectedFirstZ) > tolerance || Math.abs(positions[last] + expectedFirstX) > tolerance || Math.abs(positions[last + 2] + expectedFirstZ) > tolerance) {
        throw new ErosionTargetError(`The ground "${ground.name}" does not have the vertex layout of MeshBuilder.CreateGround (its x/z positions were changed); it cannot be eroded as a grid.`);
    }
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
        this.originalPositions = Float32Array.from(ground.getVerticesData(VertexBuffer.PositionKind)!);
        const normals = ground.getVerticesData(VertexBuffer.NormalKind);
        this.originalNormals = normals ? Float32Array.from(normals) : new Float32Array(this.originalPositions.length);
        const heights = new Float64Array(this.width * this.depth);
        for (let i = 0; i < heights.length; i++) {
            heights[i] = this.originalPositions[i * 3 + 1];
        }
        this.originalHeights = heightsToFixed(heights, `ground "${ground.name}" vertex heights`, undefined, this.cellSize);
        this._rowMin = new Float64Array(this.depth);
        this._rowMax = new Float64Array(this.depth);
        this._measureRows(this.originalPositions, 0, this.depth);
    }

    /**
     * The grid coordinates (columns and rows from vertex 0, fractional) of a point in the ground's
     * local space (its x and z).
     */
    public toGrid(local: { x: number; z: number }): { column: number; row: number } {
        const internals = this.ground as unknown as GroundInternals;
        return { column: (local.x + internals._width / 2) / this.cellSize, row: (internals._height / 2 - local.z) / this.cellSize };
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
     * Writes fixed-point heights for vertex rows `y0 .. y1 - 1` into the mesh's CPU vertex data,
     * recomputes normals for those rows and one row either side, refreshes the height quads and
     * the picking cache they touch, and the bounding info.
     * @param rows heights of rows y0 .. y1 - 1, `width` values each
     * @param uploadToGpu also upload the changed ranges to the GPU vertex buffers (CPU backend)
     */
    public writeRows(rows: Int32Array, y0: number, y1: number, uploadToGpu: boolean): void {
        const positions = this._cpuData(this.positionBuffer);
        const normals = this._cpuData(this.normalBuffer);
        const width = this.width;
        const unit = this.cellSize / FIXED_ONE;
        for (let y = y0; y < y1; y++) {
            for (let x = 0; x < width; x++) {
                positions[(y * width + x) * 3 + 1] = rows[(y - y0) * width + x] * unit;
            }
        }
        const normalY0 = Math.max(0, y0 - 1);
        const normalY1 = Math.min(this.depth, y1 + 1);
        computeNormalRows(positions, normals, width, this.depth, this.cellSize, normalY0, normalY1);
        this._afterCpuChange(positions, y0, y1, normalY0, normalY1, uploadToGpu);
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

    /** Puts the positions and normals the ground had at attach back, on the CPU and the GPU. */
    public restoreOriginal(): void {
        const positions = this._cpuData(this.positionBuffer);
        const normals = this._cpuData(this.normalBuffer);
        positions.set(this.originalPositions);
        normals.set(this.originalNormals);
        this._afterCpuChange(positions, 0, this.depth, 0, this.depth, true);
    }

    /** The mesh's CPU position data (live, not a copy). */
    public get cpuPositions(): Float32Array {
        return this._cpuData(this.positionBuffer);
    }

    private _afterCpuChange(positions: Float32Array, y0: number, y1: number, normalY0: number, normalY1: number, uploadToGpu: boolean): void {
        if (uploadToGpu) {
            const engine = this.ground.getScene().getEngine();
            const positionRange = positions.subarray(y0 * this.width * 3, y1 * this.width * 3);
            engine.updateDynamicVertexBuffer(this.positionBuffer.getBuffer()!, positionRange, y0 * this.width * 12, positionRange.byteLength);
            const normals = this._cpuData(this.normalBuffer);
            const normalRange = normals.subarray(normalY0 * this.width * 3, normalY1 * this.width * 3);
            engine.updateDynamicVertexBuffer(this.normalBuffer.getBuffer()!, normalRange, normalY0 * this.width * 12, normalRange.byteLength);
        }
        this._refreshHeightQuads(positions, Math.max(0, y0 - 1), Math.min(this.depth - 1, y1));
        this._refreshPickingCache(positions, y0, y1);
        this._measureRows(positions, y0, y1);
        this._refreshBoundingInfo();
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
            throw new ErosionTargetError(`The ground "${this.ground.name}" keeps no Float32Array ${buffer.getKind()} data on the CPU; create it with { updatable: true }.`);
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
