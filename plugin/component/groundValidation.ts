/**
 * Whether a mesh can be eroded as a grid: the checks `TerrainErosion` and `TerrainErosionWorld` run
 * before any GPU work, each error saying what is wrong and how to fix it.
 */
import { Quaternion, Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import { MAX_GRID_SIDE } from "../core/gridValidation.js";
import { CELL_SIZE_MAX, CELL_SIZE_MIN } from "../core/worldScale.js";

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
            `The ground "${ground.name}" is scaled differently along its axes in the world (${x}, ${y}, ${z}, ` +
                `parents included). Erosion reads slopes and angles of repose, which would then depend on direction: ` +
                `scale it (and its parents) uniformly, or bake the scaling into its vertices (ground.bakeCurrentTransformIntoVertices()) and create the ` +
                    `ground with the size you want.`
        );
    }
    return (x + y + z) / 3;
}

/** The private parts of Babylon 9's GroundMesh this binding refreshes in place. */
export interface GroundInternals {
    _heightQuads?: {
        slope: { copyFromFloats(x: number, y: number): void };
        facet1: { copyFromFloats(a: number, b: number, c: number, d: number): void };
        facet2: { copyFromFloats(a: number, b: number, c: number, d: number): void }
    }[];
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

export interface GeometryInternals {
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
        throw new ErosionTargetError(
            `TerrainErosion must be attached to a GroundMesh (MeshBuilder.CreateGround or ` +
                `CreateGroundFromHeightMap), but "${candidate.name}" is a ${className}.`
        );
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
        throw new ErosionTargetError(
            `The ground "${ground.name}" has ${vertices} vertices, not the ${width} x ${depth} grid its ` +
                `subdivisions describe; its vertex data was replaced, so it cannot be eroded as a grid.`
        );
    }
    if (width < 2 || depth < 2) {
        throw new ErosionTargetError(`The ground "${ground.name}" is ${width} x ${depth} vertices; erosion needs at least 2 x 2.`);
    }
    if (width > MAX_GRID_SIDE || depth > MAX_GRID_SIDE) {
        throw new ErosionTargetError(`The ground "${ground.name}" is ${width} x ${depth} vertices; erosion supports at most ${MAX_GRID_SIDE} a side.`);
    }
    if (!ground.isVertexBufferUpdatable(VertexBuffer.PositionKind) || !ground.isVertexBufferUpdatable(VertexBuffer.NormalKind)) {
        throw new ErosionTargetError(
            `The ground "${ground.name}" is not updatable: create it with { updatable: true } (MeshBuilder.CreateGround ` +
                `and CreateGroundFromHeightMap both take it), or its positions and normals cannot change.`
        );
    }
    const geometry = ground.geometry as unknown as GeometryInternals | null;
    if (!geometry || geometry.meshes.length > 1) {
        throw new ErosionTargetError(
            `The ground "${ground.name}" shares its geometry with ${geometry ? geometry.meshes.length - 1 : 0} other ` +
                `mesh(es); eroding it would change them too. Give it its own geometry (e.g. ground.makeGeometryUnique()).`
        );
    }
    if (ground.instances.length > 0) {
        throw new ErosionTargetError(
            `The ground "${ground.name}" has ${ground.instances.length} instance(s); instances share its geometry. Erode a ground without instances.`
        );
    }
    const cellX = internals._width / internals._subdivisionsX;
    const cellZ = internals._height / internals._subdivisionsY;
    if (Math.abs(cellX - cellZ) > SQUARE_CELL_TOLERANCE * Math.max(cellX, cellZ)) {
        throw new ErosionTargetError(
            `The ground "${ground.name}" has rectangular cells (${cellX} m along x, ${cellZ} m ` +
                `along z). The kernels measure distance in cells, so cells must be square: ` +
                `choose subdivisionsX / subdivisionsY = width / height (e.g. width ${internals._width}, height ${internals._height}, ` +
                    `subdivisionsX ${internals._subdivisionsX}, subdivisionsY ${Math.round(internals._height / cellX)}).`
        );
    }
    if (!(cellX >= CELL_SIZE_MIN && cellX <= CELL_SIZE_MAX)) {
        throw new ErosionTargetError(
            `The ground "${ground.name}" has cells ${cellX} units wide; erosion supports cells of ${CELL_SIZE_MIN} to ` +
                `${CELL_SIZE_MAX} units (fixed-point heights count 1/65536 of a cell). Change its width or subdivisions.`
        );
    }
    uniformWorldScale(ground);
    checkVertexData(ground, VertexBuffer.PositionKind, vertices);
    checkVertexData(ground, VertexBuffer.NormalKind, vertices);
    const positions = ground.getVertexBuffer(VertexBuffer.PositionKind)!.getData() as ArrayLike<number>;
    const last = (vertices - 1) * 3;
    const expectedFirstX = -internals._width / 2;
    const expectedFirstZ = internals._height / 2;
    const tolerance = 1e-4 * Math.max(internals._width, internals._height);
    if (
        Math.abs(positions[0] - expectedFirstX) > tolerance ||
        Math.abs(positions[2] - expectedFirstZ) > tolerance ||
        Math.abs(positions[last] + expectedFirstX) > tolerance ||
        Math.abs(positions[last + 2] + expectedFirstZ) > tolerance
    ) {
        throw new ErosionTargetError(
            `The ground "${ground.name}" does not have the vertex layout of MeshBuilder.CreateGround ` +
                `(its x/z positions were changed); it cannot be eroded as a grid.`
        );
    }
}

/**
 * Checks that the ground keeps its `kind` (position or normal) data on the CPU as 3 floats a
 * vertex, a `Float32Array` or a `number[]` (what `VertexData.ComputeNormals` into a plain array
 * and `updateVerticesData` leave; `takeFloat32VertexData` converts it), since erosion writes that
 * data in place every frame.
 */
function checkVertexData(ground: GroundMesh, kind: string, vertices: number): void {
    const buffer = ground.getVertexBuffer(kind);
    const data = buffer?.getData();
    if (!buffer || !data) {
        throw new ErosionTargetError(
            `The ground "${ground.name}" keeps no ${kind} data on the CPU (its vertex ` +
                `buffer was set from a GPU buffer, or written in part with updateDirectly); ` +
                `set it with ground.setVerticesData("${kind}", data, true) before attaching.`
        );
    }
    if (!(data instanceof Float32Array) && !Array.isArray(data)) {
        throw new ErosionTargetError(
            `The ground "${ground.name}" keeps its ${kind} data on the CPU as a ${data.constructor.name}; ` +
                `erosion writes it in place as floats: set it as a Float32Array or a number[].`
        );
    }
    if (buffer.getSize() !== 3 || buffer.byteStride !== 12 || buffer.byteOffset !== 0 || buffer.type !== VertexBuffer.FLOAT) {
        throw new ErosionTargetError(
            `The ground "${ground.name}" has an interleaved or non-float ${kind} vertex buffer; erosion ` +
                `needs 3 floats a vertex, packed: set it with ground.setVerticesData("${kind}", data, true).`
        );
    }
    if (data.length !== vertices * 3) {
        throw new ErosionTargetError(
            `The ground "${ground.name}": its ${kind} data holds ${data.length} numbers, not the ${vertices * 3} of ` +
                `its ${vertices} vertices (3 a vertex); it was replaced with data for another mesh.`
        );
    }
}

/**
 * The ground's `kind` data on the CPU as a `Float32Array`, converting a `number[]` (checked by
 * `validateGround`) in place with `updateVerticesData`: the same values, the same vertex buffer.
 */
export function takeFloat32VertexData(ground: GroundMesh, kind: string): Float32Array {
    const data = ground.getVertexBuffer(kind)!.getData() as Float32Array | number[];
    if (data instanceof Float32Array) {
        return data;
    }
    const floats = new Float32Array(data);
    ground.updateVerticesData(kind, floats);
    return floats;
}
