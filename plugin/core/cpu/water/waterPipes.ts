/**
 * CPU mirrors of the water step's first three passes (`shaders/water_flux.wgsl`,
 * `water_scale.wgsl`, `water_limit.wgsl`), each over the batch's patch. Each pass writes only its
 * own vertices (or the pipes they own) and reads what the previous pass left everywhere, so the
 * patches of a pass may run in any order: the step is a partition of one Jacobi step.
 *
 * 1. Flux: each pipe keeps (1 - friction) of its flow and gains conductance x the difference of the
 *    water surfaces (ground + water) at its ends, truncated toward zero (at least one unit either way
 *    while the surfaces differ, so a lake always levels), within +-FLUX_LIMIT.
 * 2. Scale: each vertex's outflow over its 8 pipes; where that is more than its water, the Q16
 *    factor floor(water x 2^16 / outflow) that brings it within the water, else 2^16.
 * 3. Limit: each pipe scaled by its source's factor (floor, on the magnitude): a vertex never sends
 *    more than it holds, so water never goes negative.
 */
import { waterParams, type BatchParams } from "../../batchParams.js";
import { mulQ16 } from "../../fixedPoint.js";
import { FLUX_LIMIT, fractionQ16, PIPE_AXIS_Q16, PIPE_DIAGONAL_Q16, SURFACE_DIFFERENCE_LIMIT, truncMulQ16, type WaterGrids } from "../../waterModel.js";

/** The new flow of a pipe from vertex a to vertex b (old flow `flow`). */
function pipeFlow(heights: Int32Array, water: Int32Array, a: number, b: number, flow: number, keep: number, conductance: number): number {
    let ground = heights[a] - heights[b];
    ground = ground > SURFACE_DIFFERENCE_LIMIT ? SURFACE_DIFFERENCE_LIMIT : ground < -SURFACE_DIFFERENCE_LIMIT ? -SURFACE_DIFFERENCE_LIMIT : ground;
    const difference = ground + (water[a] - water[b]);
    let push = truncMulQ16(difference, conductance);
    if (push === 0 && (difference > 1 || difference < -1)) push = difference > 0 ? 1 : -1;
    // Momentum never carries water uphill: a flow against the surfaces' difference keeps nothing.
    const kept = (flow > 0 && difference < 0) || (flow < 0 && difference > 0) ? 0 : truncMulQ16(flow, keep);
    const next = kept + push;
    return next > FLUX_LIMIT ? FLUX_LIMIT : next < -FLUX_LIMIT ? -FLUX_LIMIT : next;
}

/** Pass 1: every pipe the patch's vertices own, from the surfaces and the flows of the previous step. */
export function waterFlux(params: BatchParams, heights: Int32Array, grids: WaterGrids): void {
    const { width, depth, patchX0, patchY0, patchX1, patchY1 } = params;
    const { waterFlowKept: waterKeep } = waterParams(params);
    const { waterDepth, fluxX, fluxY, fluxD1, fluxD2 } = grids;
    for (let y = patchY0; y < patchY1; y++) {
        const lastRow = y + 1 >= depth;
        for (let x = patchX0; x < patchX1; x++) {
            const i = y * width + x;
            const lastColumn = x + 1 >= width;
            fluxX[i] = lastColumn ? 0 : pipeFlow(heights, waterDepth, i, i + 1, fluxX[i], waterKeep, PIPE_AXIS_Q16);
            fluxY[i] = lastRow ? 0 : pipeFlow(heights, waterDepth, i, i + width, fluxY[i], waterKeep, PIPE_AXIS_Q16);
            const inside = !lastColumn && !lastRow;
            fluxD1[i] = inside ? pipeFlow(heights, waterDepth, i, i + width + 1, fluxD1[i], waterKeep, PIPE_DIAGONAL_Q16) : 0;
            fluxD2[i] = inside ? pipeFlow(heights, waterDepth, i + 1, i + width, fluxD2[i], waterKeep, PIPE_DIAGONAL_Q16) : 0;
        }
    }
}

/**
 * What vertex (x, y) sends through its 8 pipes (positive parts only). Pipes past the field's edge
 * are stored as zero, so only the neighbours' indices need the edge checks. Mirrors `outflowAt`.
 */
export function outflowAt(grids: WaterGrids, x: number, y: number, width: number): number {
    const { fluxX, fluxY, fluxD1, fluxD2 } = grids;
    const i = y * width + x;
    let out = 0;
    let f = fluxX[i];
    if (f > 0) out += f;
    f = fluxY[i];
    if (f > 0) out += f;
    f = fluxD1[i];
    if (f > 0) out += f;
    if (x > 0) {
        f = -fluxX[i - 1];
        if (f > 0) out += f;
        // The pipe (x - 1, y) owns runs from here to (x - 1, y + 1): positive leaves this vertex.
        f = fluxD2[i - 1];
        if (f > 0) out += f;
    }
    if (y > 0) {
        f = -fluxY[i - width];
        if (f > 0) out += f;
        // The pipe (x, y - 1) owns runs from (x + 1, y - 1) to here: negative leaves this vertex.
        f = -fluxD2[i - width];
        if (f > 0) out += f;
        if (x > 0) {
            f = -fluxD1[i - width - 1];
            if (f > 0) out += f;
        }
    }
    return out;
}

/** Pass 2: each vertex's limiter factor, into `outflowScale`. */
export function waterScale(params: BatchParams, grids: WaterGrids): void {
    const { width, patchX0, patchY0, patchX1, patchY1 } = params;
    const { waterDepth: water, outflowScale: scale } = grids;
    for (let y = patchY0; y < patchY1; y++) {
        for (let x = patchX0; x < patchX1; x++) {
            const i = y * width + x;
            const out = outflowAt(grids, x, y, width);
            scale[i] = out > water[i] ? fractionQ16(water[i], out) : 65536;
        }
    }
}

/** A pipe from a to b scaled by its source's factor. */
function limited(flow: number, scale: Int32Array, a: number, b: number): number {
    if (flow > 0) return mulQ16(flow, scale[a]);
    if (flow < 0) return -mulQ16(-flow, scale[b]);
    return 0;
}

/** Pass 3: every pipe the patch's vertices own, scaled by its source's factor. */
export function waterLimit(params: BatchParams, grids: WaterGrids): void {
    const { width, depth, patchX0, patchY0, patchX1, patchY1 } = params;
    const { fluxX, fluxY, fluxD1, fluxD2, outflowScale: scale } = grids;
    for (let y = patchY0; y < patchY1; y++) {
        const lastRow = y + 1 >= depth;
        for (let x = patchX0; x < patchX1; x++) {
            const i = y * width + x;
            const lastColumn = x + 1 >= width;
            if (!lastColumn) fluxX[i] = limited(fluxX[i], scale, i, i + 1);
            if (!lastRow) fluxY[i] = limited(fluxY[i], scale, i, i + width);
            if (!lastColumn && !lastRow) {
                fluxD1[i] = limited(fluxD1[i], scale, i, i + width + 1);
                fluxD2[i] = limited(fluxD2[i], scale, i + 1, i + width);
            }
        }
    }
}
