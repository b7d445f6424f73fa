/**
 * The GPU passes over the field that change no state: the vertex pass (a ground's positions and
 * normals from the heights), the texture passes (the maps, the drainage area, the shallow water
 * and the materials as Babylon storage textures) and the region checksums. Each records onto a `GpuRecorder`.
 */
import { blankBatchParams, f32Bits, type BatchParams } from "../core/batchParams.js";
import { CHECKSUM_WORKGROUP_SIZE, regionGrid } from "../core/checksums/regionChecksums.js";
import type { GridRect } from "../core/patches.js";
import { gridGroups, record } from "./batchDispatch.js";
import type { ComputeBuffer, KernelBindings } from "./computeDevice.js";
import type { GpuRecorder } from "./gpuRecorder.js";
import type { KernelName } from "./kernelTable.js";
import type { SimulationBuffers } from "./simulationBuffers.js";

/**
 * Records the vertex pass: positions (y) and normals of `rect` (field vertices, inside `window`)
 * regenerated from the heights, written into `positions` and `normals`, the vertex buffers of the
 * ground that is `window` of the field; `cellSize` the distance between neighbouring vertices in
 * local units.
 */
export function recordVertexPass(
    recorder: GpuRecorder, buffers: SimulationBuffers, rect: GridRect, window: GridRect, positions: ComputeBuffer, normals: ComputeBuffer, cellSize: number
): void {
    const params = blankBatchParams(buffers.width, buffers.depth);
    params.patchX0 = window.x0;
    params.patchY0 = window.y0;
    params.patchX1 = window.x1;
    params.patchY1 = window.y1;
    params.regionX0 = rect.x0;
    params.regionY0 = rect.y0;
    params.regionX1 = rect.x1;
    params.regionY1 = rect.y1;
    params.cellSizeBits = f32Bits(cellSize);
    const [rx, ry] = gridGroups(rect.x1 - rect.x0, rect.y1 - rect.y0);
    record(recorder.target([params]), "write_vertices", rx, ry, null, { positions, normals });
    recorder.noteRecorded();
}

/** The rows a texture pass writes (all columns), or all of them. */
export interface TextureRows {
    readonly y0: number;
    readonly y1: number;
}

/**
 * Records a texture pass over `rows` of the field (all of it by default) with `fields` set in
 * otherwise blank params. A frame's texels change only in the rows its batches may change (the
 * changed region is their extent grown by the one ring a drainage direction reads), so a frame
 * writes those rows only; the dispatch may run a few rows past them (whole workgroups), which it
 * writes with the same values they hold.
 */
export function recordTexturePass(
    recorder: GpuRecorder, buffers: SimulationBuffers, kernel: KernelName, texture: unknown, fields: Partial<BatchParams>, extra: KernelBindings = {},
    rows: TextureRows = { y0: 0, y1: buffers.depth }
): void {
    const [gx, gy] = gridGroups(buffers.width, rows.y1 - rows.y0);
    record(recorder.target([{ ...blankBatchParams(buffers.width, buffers.depth), ...fields, dispatchOffset: rows.y0 }]), kernel, gx, gy, null, extra, texture);
    recorder.noteRecorded();
}

/**
 * Records the pass that writes the shallow water into `texture` (RGBA32F; layout in `waterTexels`).
 * Before water has run it writes dry ground, reading stand-ins (creating the water's buffers for
 * it would put water into the state).
 */
export function recordWaterTexture(recorder: GpuRecorder, buffers: SimulationBuffers, texture: unknown, cellSize: number, rows?: TextureRows): void {
    const standIn = buffers.noMask;
    const standIns = buffers.hasWater ? {} : { waterDepth: standIn, velocityX: standIn, velocityY: standIn };
    recordTexturePass(recorder, buffers, "write_water_map", texture, { cellSizeBits: f32Bits(cellSize), waterPass: buffers.hasWater ? 1 : 0 }, standIns, rows);
}

/**
 * Records the pass that writes the soil and rock into `texture` (RGBA32F; layout in
 * `materialTexels`). `waterPass` says here whether the material buffer exists: before the materials
 * have run the stand-in is bound, whose grids the kernel must not read, and it writes bare rock.
 */
export function recordMaterialsTexture(recorder: GpuRecorder, buffers: SimulationBuffers, texture: unknown, cellSize: number, rows?: TextureRows): void {
    recordTexturePass(recorder, buffers, "write_material_map", texture, { cellSizeBits: f32Bits(cellSize), waterPass: buffers.hasMaterials ? 1 : 0 }, {}, rows);
}

/**
 * Records the region checksums of the state (`regionChecksums`: regions of `size` vertices): two
 * kernels with water (a kernel binds at most 8 storage buffers), one without, and one more once the
 * materials have run. Returns the buffer
 * the checksums land in and their bytes (8 a region).
 */
export function recordRegionChecksums(recorder: GpuRecorder, buffers: SimulationBuffers, size: number): { checksums: ComputeBuffer; bytes: number } {
    const { width, depth } = buffers;
    const { regionsX, regionsY } = regionGrid(width, depth, size);
    const regions = regionsX * regionsY;
    const checksums = buffers.checksums(regions * 8);
    const water = buffers.hasWater;
    const standIn = buffers.noMask;
    const params = { ...blankBatchParams(width, depth), regionX0: size, regionX1: regionsX, regionY1: regionsY, waterPass: water ? 1 : 0 };
    const groups = Math.ceil(regions / CHECKSUM_WORKGROUP_SIZE);
    record(
        recorder.target([params]), "region_checksums", groups, 1, null,
        water ? { checksums } : { checksums, waterDepth: standIn, waterSediment: standIn, fluxX: standIn }
    );
    if (water) record(recorder.target([params]), "region_checksums_water", groups, 1, null, { checksums });
    if (buffers.hasMaterials) record(recorder.target([params]), "region_checksums_materials", groups, 1, null, { checksums });
    recorder.noteRecorded();
    return { checksums, bytes: regions * 8 };
}
