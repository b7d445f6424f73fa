/**
 * `GroundField`: the field a runner erodes, seen through the grounds that show it. A single
 * `TerrainErosion` ground is a field of one window; a `TerrainErosionWorld` is a grid of grounds
 * that share their edge vertices, each a window on one simulated field. The field turns the
 * simulation's fixed-point rows into every ground's CPU vertex data, with normals computed across
 * the whole field, so a seam has the same positions and normals on both sides.
 */
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { fixedUnitLength } from "../core/fixedPoint.js";
import type { GridRect } from "../core/patches.js";
import { writeNormalRow } from "../core/vertexNormals.js";
import type { GroundDataUpdate } from "./groundBinding.js";
import type { GroundInternals } from "./groundValidation.js";
import { tileGrounds, type FieldWindow } from "./groundTiling.js";

export type { FieldWindow } from "./groundTiling.js";

/** A grid of grounds eroded as one field. */
export class GroundField {
    /** Field vertices per row. */
    public readonly width: number;
    /** Field rows. */
    public readonly depth: number;
    /** Distance between neighbouring vertices in the grounds' local units. */
    public readonly cellSize: number;
    /** Metres one local unit stands for in the world. */
    public readonly worldScale: number;
    /** The grounds and their windows, row by row from the far (+z) edge. */
    public readonly windows: readonly FieldWindow[];
    /** Fixed-point heights of the whole field at attach (1/65536 of the cell size). */
    public readonly originalHeights: Int32Array;
    /** Scratch rows of `_writeNormalRows`: three of heights, one of normals. */
    private readonly _rowBuffers: Float32Array[];
    private readonly _normalRow: Float32Array;
    /** Called for each ground whose CPU data a write brought up to date. */
    public onDataUpdated: ((update: GroundDataUpdate) => void) | null = null;

    /** @param grounds `grounds[row][column]`, row 0 at the far (+z) edge, column 0 at the -x edge */
    constructor(grounds: readonly (readonly GroundMesh[])[]) {
        const tiling = tileGrounds(grounds);
        this.windows = tiling.windows;
        this.width = tiling.width;
        this.depth = tiling.depth;
        const first = this.windows[0].binding;
        this.cellSize = first.cellSize;
        this.worldScale = first.worldScale;
        this._rowBuffers = [0, 1, 2].map(() => new Float32Array(this.width));
        this._normalRow = new Float32Array(this.width * 3);
        this.originalHeights = new Int32Array(this.width * this.depth);
        for (const window of this.windows) {
            const { binding, x0, y0 } = window;
            for (let y = 0; y < binding.depth; y++) {
                this.originalHeights.set(binding.originalHeights.subarray(y * binding.width, (y + 1) * binding.width), (y0 + y) * this.width + x0);
            }
        }
    }

    /** The scene the grounds are in. */
    public get scene(): Scene {
        return this.windows[0].binding.ground.getScene();
    }

    /** True once any of the grounds is disposed. */
    public isDisposed(): boolean {
        return this.windows.some((window) => window.binding.ground.isDisposed());
    }

    /** The window of `ground`, or null if it is not one of the field's grounds. */
    public windowOf(ground: GroundMesh): FieldWindow | null {
        return this.windows.find((window) => window.binding.ground === ground) ?? null;
    }

    /** A window's vertices as a rectangle of field vertices. */
    public rectOf(window: FieldWindow): GridRect {
        return { x0: window.x0, y0: window.y0, x1: window.x0 + window.binding.width, y1: window.y0 + window.binding.depth };
    }

    /**
     * A world position's place in the field: the column and row (fractional, from the field's first
     * vertex) under its x and z, its y as a height in cells (the unit of the fixed-point heights,
     * 65536 to the cell), and how many cells one world unit spans there.
     */
    public toGrid(worldPosition: { x: number; y: number; z: number }): { column: number; row: number; height: number; cellsPerWorldUnit: number } {
        const first = this.windows[0].binding;
        const world = first.ground.getWorldMatrix();
        const local = Vector3.TransformCoordinates(new Vector3(worldPosition.x, worldPosition.y, worldPosition.z), world.clone().invert());
        const scale = Vector3.TransformNormal(new Vector3(1, 0, 0), world).length();
        const internals = first.ground as unknown as GroundInternals;
        return {
            column: (local.x + internals._width / 2) / this.cellSize,
            row: (internals._height / 2 - local.z) / this.cellSize,
            height: local.y / this.cellSize,
            cellsPerWorldUnit: 1 / (scale * this.cellSize),
        };
    }

    /** The world position of grid point (column, row, fractional) at `height` cells: `toGrid`'s inverse. */
    public toWorld(column: number, row: number, height: number): Vector3 {
        const first = this.windows[0].binding;
        const internals = first.ground as unknown as GroundInternals;
        const local = new Vector3(column * this.cellSize - internals._width / 2, height * this.cellSize, internals._height / 2 - row * this.cellSize);
        return Vector3.TransformCoordinates(local, first.ground.getWorldMatrix());
    }

    /**
     * The affine maps from a world position to the field's grid: column = column · (x, y, z, 1),
     * row = row · (x, y, z, 1), fractional, from the field's first vertex (what a shader needs to
     * find a fragment's texel in the maps textures).
     */
    public gridTransform(): { column: [number, number, number, number]; row: [number, number, number, number] } {
        const first = this.windows[0].binding;
        const inverse = first.ground.getWorldMatrix().clone().invert().asArray();
        const internals = first.ground as unknown as GroundInternals;
        const c = this.cellSize;
        return {
            column: [inverse[0] / c, inverse[4] / c, inverse[8] / c, inverse[12] / c + internals._width / 2 / c],
            row: [-inverse[2] / c, -inverse[6] / c, -inverse[10] / c, -inverse[14] / c + internals._height / 2 / c],
        };
    }

    /**
     * Rows `y0 .. y1 - 1` of the grounds' CPU heights (their positions' y), full width, as fixed point
     * (rounded from the float32 positions: a preview's input, not the exact state).
     */
    public readRows(y0: number, y1: number): Int32Array {
        const unit = fixedUnitLength(this.cellSize);
        const rows = new Int32Array((y1 - y0) * this.width);
        for (const { binding, x0, y0: wy0 } of this.windows) {
            const positions = binding.cpuPositions;
            for (let y = Math.max(y0, wy0); y < Math.min(y1, wy0 + binding.depth); y++) {
                for (let x = 0; x < binding.width; x++) {
                    rows[(y - y0) * this.width + x0 + x] = Math.round(positions[((y - wy0) * binding.width + x) * 3 + 1] / unit);
                }
            }
        }
        return rows;
    }

    /**
     * Writes fixed-point heights of field rows `y0 .. y1 - 1` into every ground's CPU vertex data,
     * recomputes normals for the rows that changed and one row either side across the whole field,
     * and refreshes each changed ground's height quads, picking cache and bounds (rows whose heights
     * are already there are left alone).
     * @param rows heights of rows y0 .. y1 - 1, `width` values each
     * @param uploadToGpu also upload the changed ranges to the GPU vertex buffers (CPU backend)
     * @param normals the normals of the same region computed from `rows` and the field around
     *   them (`normalRowsFromFixed`, by the CPU backend's worker): copied for the rows whose
     *   neighbours are all among the rows written (the same floats), computed here for the rest
     * @param x0 the first column `rows` (and `normals`) hold, 0 by default: only the region's
     *   vertices are written, and its columns must hold every height that changed
     * @param x1 the column after their last, the field's width by default
     */
    public writeRows(rows: Int32Array, y0: number, y1: number, uploadToGpu: boolean, normals?: Float32Array, x0 = 0, x1 = this.width): void {
        const unit = fixedUnitLength(this.cellSize);
        const columns = x1 - x0;
        const live = this.windows.filter((window) => !window.binding.ground.isDisposed());
        // The grounds holding any of the region's columns: a world's others keep their rows (the
        // normals of the columns beside the region's did not change either: it holds them).
        const touched = live.filter((window) => window.x0 < x1 && window.x0 + window.binding.width > x0);
        // Only rows whose heights differ are reported (a flush of an up-to-date ground changes nothing).
        let changedY0 = y1;
        let changedY1 = y0;
        for (const { binding, x0: wx0, y0: wy0 } of touched) {
            const positions = binding.cpuPositions;
            const first = Math.max(x0, wx0);
            const end = Math.min(x1, wx0 + binding.width);
            for (let y = Math.max(y0, wy0); y < Math.min(y1, wy0 + binding.depth); y++) {
                const from = (y - y0) * columns - x0;
                const to = (y - wy0) * binding.width - wx0;
                for (let x = first; x < end; x++) {
                    const height = rows[from + x] * unit;
                    if (positions[(to + x) * 3 + 1] !== Math.fround(height)) {
                        positions[(to + x) * 3 + 1] = height;
                        changedY0 = Math.min(changedY0, y);
                        changedY1 = Math.max(changedY1, y + 1);
                    }
                }
            }
        }
        if (changedY0 >= changedY1) {
            return;
        }
        const normalY0 = Math.max(0, changedY0 - 1);
        const normalY1 = Math.min(this.depth, changedY1 + 1);
        if (normals) {
            // A row's normal depends on the rows beside it: only the rows with both neighbours (or
            // the field's edge) among those written here take the given normals.
            const inside0 = Math.min(normalY1, Math.max(normalY0, y0 === 0 ? 0 : y0 + 1));
            const inside1 = Math.max(inside0, Math.min(normalY1, y1 === this.depth ? y1 : y1 - 1));
            this._writeNormalRows(live, normalY0, inside0);
            this._copyNormalRows(live, normals, y0, inside0, inside1, x0, x1);
            this._writeNormalRows(live, inside1, normalY1);
        } else {
            this._writeNormalRows(live, normalY0, normalY1);
        }
        for (const { binding, y0: wy0 } of touched) {
            const clip = (y: number) => Math.min(Math.max(y - wy0, 0), binding.depth);
            if (clip(normalY0) < clip(normalY1)) {
                this._report(binding.commitRows(clip(changedY0), Math.max(clip(changedY0), clip(changedY1)), clip(normalY0), clip(normalY1), uploadToGpu));
            }
        }
    }

    /**
     * Puts the grounds' original positions back: for a single ground its original normals too; for
     * a world, normals computed across the seams.
     */
    public restoreOriginal(): void {
        if (this.windows.length === 1) {
            this._report(this.windows[0].binding.restoreOriginal(false)!);
            return;
        }
        for (const { binding } of this.windows) {
            binding.restoreOriginal(true);
        }
        this.computeSeamlessNormals();
    }

    /** Recomputes every ground's normals across the whole field (a world does this at attach, so seams never show). */
    public computeSeamlessNormals(): void {
        this._writeNormalRows(this.windows, 0, this.depth);
        for (const { binding } of this.windows) {
            this._report(binding.commitRows(0, binding.depth, 0, binding.depth, true));
        }
    }

    /** Creates every ground's vertex buffers anew on the engine's current device (after a WebGPU device loss). */
    public recreateGpuBuffers(): void {
        for (const { binding } of this.windows) {
            binding.recreateGpuBuffers();
        }
    }

    private _report(update: GroundDataUpdate): void {
        this.onDataUpdated?.(update);
    }

    /**
     * Normals of field rows `y0 .. y1 - 1` by central differences over the whole field (one-sided
     * only at its edges), from the heights already in the grounds' positions, written into every
     * ground that holds the row (`writeNormalRow`, the CPU form of `shaders/scene/write_vertices.wgsl`).
     */
    private _writeNormalRows(windows: readonly FieldWindow[], y0: number, y1: number): void {
        const width = this.width;
        // Three height rows turn (up, here, down) and one row of normals, reused from frame to frame.
        const [first, second, third] = this._rowBuffers;
        let up = this._gatherRow(windows, Math.max(0, y0 - 1), first);
        let here = this._gatherRow(windows, y0, second);
        let spare = third;
        const normals = this._normalRow;
        for (let y = y0; y < y1; y++) {
            const down = y + 1 < this.depth ? this._gatherRow(windows, y + 1, spare) : here;
            writeNormalRow(up, here, down, (y > 0 ? 1 : 0) + (y < this.depth - 1 ? 1 : 0), width, this.cellSize, normals);
            for (const { binding, x0, y0: wy0 } of windows) {
                if (y >= wy0 && y < wy0 + binding.depth) {
                    binding.cpuNormals.set(normals.subarray(x0 * 3, (x0 + binding.width) * 3), (y - wy0) * binding.width * 3);
                }
            }
            if (down !== here) {
                spare = up;
                up = here;
                here = down;
            }
        }
    }

    /**
     * Copies field rows `y0 .. y1 - 1` of `normals` (columns `x0 .. x1 - 1`, whose first row is
     * field row `from`) into every ground that holds them.
     */
    private _copyNormalRows(windows: readonly FieldWindow[], normals: Float32Array, from: number, y0: number, y1: number, x0: number, x1: number): void {
        const columns = x1 - x0;
        for (const { binding, x0: wx0, y0: wy0 } of windows) {
            const target = binding.cpuNormals;
            const first = Math.max(x0, wx0);
            const end = Math.min(x1, wx0 + binding.width);
            if (first >= end) continue;
            for (let y = Math.max(y0, wy0); y < Math.min(y1, wy0 + binding.depth); y++) {
                const row = ((y - from) * columns + first - x0) * 3;
                target.set(normals.subarray(row, row + (end - first) * 3), ((y - wy0) * binding.width + first - wx0) * 3);
            }
        }
    }

    /** Field row `y`'s heights (local units) from the positions of the grounds that hold it, into `row`. */
    private _gatherRow(windows: readonly FieldWindow[], y: number, row: Float32Array): Float32Array {
        for (const { binding, x0, y0 } of windows) {
            if (y >= y0 && y < y0 + binding.depth) {
                const positions = binding.cpuPositions;
                const offset = (y - y0) * binding.width;
                for (let x = 0; x < binding.width; x++) {
                    row[x0 + x] = positions[(offset + x) * 3 + 1];
                }
            }
        }
        return row;
    }
}
