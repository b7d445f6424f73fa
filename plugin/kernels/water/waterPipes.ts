/**
 * CPU mirrors of the water step's first three passes (`shaders/water/water_flux.wgsl`,
 * `water_scale.wgsl`, `water_limit.wgsl`), each over the batch's patch. Each pass writes only its
 * own vertices (or the pipes they own) and reads what the previous pass left everywhere, so the
 * patches of a pass may run in any order: the step is a partition of one Jacobi step.
 *
 * 1. Flux: each pipe keeps (1 - friction) of its flow and gains conductance x the difference of the
 *    water surfaces (ground + water) at its ends, truncated toward zero, within +-FLUX_LIMIT; where
 *    that is nothing, one unit downhill through the step's set of pipes if the difference is at
 *    least the units its ends could pass and take in that set (so a lake levels and comes to rest).
 *    For its regular push the pipe reads its two ends; only where a unit may go, their neighbours.
 * 2. Scale: each vertex's outflow over its 8 pipes; where that is more than its water, the Q16
 *    factor floor(water x 2^16 / outflow) that brings it within the water, else 2^16.
 * 3. Limit: each pipe scaled by its source's factor (floor, on the magnitude): a vertex never sends
 *    more than it holds, so water never goes negative.
 */
import { waterParams, type BatchParams } from "../../core/batchParams.js";
import { mulQ16 } from "../../core/fixedPoint.js";
import { THERMAL_DX, THERMAL_DY, THERMAL_SLOTS } from "../../core/thermalDirections.js";
import { FLUX_LIMIT, fractionQ16, PIPE_AXIS_Q16, PIPE_DIAGONAL_Q16, SURFACE_DIFFERENCE_LIMIT, truncMulQ16, type WaterGrids } from "../../core/waterModel.js";


/** The difference of the water surfaces of vertices a and b, the ground's part within +-SURFACE_DIFFERENCE_LIMIT. */
function surfaceDifference(heights: Int32Array, water: Int32Array, a: number, b: number): number {
    let ground = heights[a] - heights[b];
    ground = ground > SURFACE_DIFFERENCE_LIMIT ? SURFACE_DIFFERENCE_LIMIT : ground < -SURFACE_DIFFERENCE_LIMIT ? -SURFACE_DIFFERENCE_LIMIT : ground;
    return ground + (water[a] - water[b]);
}

/**
 * Through how many pipes of set `pipes` vertex v could pass a unit (`below`: to neighbours whose
 * surface is 2 or more below its own) or take one (from wet neighbours 2 or more above it). Mirrors
 * `unitPipes` in `water_flux.wgsl`.
 */
function unitPipes(heights: Int32Array, water: Int32Array, width: number, depth: number, v: number, pipes: number, below: boolean): number {
    const x = v % width;
    const y = (v - x) / width;
    // The set's neighbours are slots of THERMAL_DX/DY: x 0 and 1, y 2 and 3, the diagonals 4 to 7.
    const last = pipes === 2 ? THERMAL_SLOTS : 2 * pipes + 2;
    let count = 0;
    for (let k = 2 * pipes; k < last; k++) {
        const nx = x + THERMAL_DX[k];
        const ny = y + THERMAL_DY[k];
        if (nx < 0 || ny < 0 || nx >= width || ny >= depth) continue;
        const n = ny * width + nx;
        if (below ? surfaceDifference(heights, water, v, n) >= 2 : water[n] > 0 && surfaceDifference(heights, water, n, v) >= 2) count++;
    }
    return count;
}

/**
 * The new flow of a pipe of set `pipes` from vertex a to vertex b (old flow `flow`); `unitPipes`: the
 * set that may carry the one-unit push this step.
 */
function pipeFlow(
    heights: Int32Array, water: Int32Array, width: number, depth: number, a: number, b: number, flow: number, keep: number, conductance: number, pipes: number,
    unitPipeSet: number
): number {
    const difference = surfaceDifference(heights, water, a, b);
    let push = truncMulQ16(difference, conductance);
    // The one-unit push where the conductance moves nothing: from the higher end, if it is wet and the
    // difference is at least the units its end could pass plus those the other end could take in
    // this set (so no pair swaps past level, and a lake comes to rest).
    if (push === 0 && pipes === unitPipeSet && (difference > 1 || difference < -1)) {
        const high = difference > 0 ? a : b;
        const low = difference > 0 ? b : a;
        const fall = difference > 0 ? difference : -difference;
        if (water[high] > 0 && fall >= unitPipes(heights, water, width, depth, high, pipes, true) + unitPipes(heights, water, width, depth, low, pipes, false))
            push = difference > 0 ? 1 : -1;
    }
    // Momentum never carries water uphill: a flow against the surfaces' difference keeps nothing.
    const kept = (flow > 0 && difference < 0) || (flow < 0 && difference > 0) ? 0 : truncMulQ16(flow, keep);
    const next = kept + push;
    return next > FLUX_LIMIT ? FLUX_LIMIT : next < -FLUX_LIMIT ? -FLUX_LIMIT : next;
}

/** Pass 1: every pipe the patch's vertices own, from the surfaces and the flows of the previous step. */
export function waterFlux(params: BatchParams, heights: Int32Array, grids: WaterGrids): void {
    const { width, depth, patchX0, patchY0, patchX1, patchY1 } = params;
    const { waterFlowKept: keep, waterUnitPipes: unit } = waterParams(params);
    const { waterDepth: water, fluxX, fluxY, fluxD1, fluxD2 } = grids;
    for (let y = patchY0; y < patchY1; y++) {
        const lastRow = y + 1 >= depth;
        for (let x = patchX0; x < patchX1; x++) {
            const i = y * width + x;
            const lastColumn = x + 1 >= width;
            fluxX[i] = lastColumn ? 0 : pipeFlow(heights, water, width, depth, i, i + 1, fluxX[i], keep, PIPE_AXIS_Q16, 0, unit);
            fluxY[i] = lastRow ? 0 : pipeFlow(heights, water, width, depth, i, i + width, fluxY[i], keep, PIPE_AXIS_Q16, 1, unit);
            const inside = !lastColumn && !lastRow;
            fluxD1[i] = inside ? pipeFlow(heights, water, width, depth, i, i + width + 1, fluxD1[i], keep, PIPE_DIAGONAL_Q16, 2, unit) : 0;
            fluxD2[i] = inside ? pipeFlow(heights, water, width, depth, i + 1, i + width, fluxD2[i], keep, PIPE_DIAGONAL_Q16, 2, unit) : 0;
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
