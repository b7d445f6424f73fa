/**
 * CPU mirror of `shaders/water/water_velocity.wgsl`: the water's velocity (`WATER_VIEW_GRIDS`), worked out
 * in the depth pass's batch right after the depth, over the batch's patch. At that point every pipe
 * holds this step's limited flow and the depth is the one that flow left, so the velocity is the
 * step's; it then stands until the vertex's next depth pass, while the next step's flux, scale and
 * limit passes change the pipes in place (which the maps therefore never read).
 *
 * Velocity = the pipes' flow through the vertex as a vector (`flowVector`, twice its net flow) over
 * max(2 x depth, the flow through it), per axis, Q16 cells a step, 0 where the vertex is dry. Where
 * the water is deep next to what runs through it this is the net flow over the depth; where little
 * is left of what ran through in the step (a vertex draining nearly dry) the flow through bounds the
 * divisor, so no component exceeds 1 cell a step (the flow through a vertex in a step is at most the
 * water it held, `water_limit`, plus what arrived, which is what it holds now: dividing by the depth
 * alone gave hundreds of cells a step there).
 *
 * The one kernel mirror core holds (the others are plugin/kernels/): the velocity is a view of the
 * state (`WATER_VIEW_GRIDS`), and a snapshot's load works it out again (`refreshWaterVelocity`), so
 * the model needs it; the water batch (`kernels/water/waterBatch.ts`) imports it from here.
 */
import type { GridRect } from "./patches.js";
import { fractionQ16, type WaterGrids } from "./waterModel.js";

/**
 * The pipes' flows through vertex (x, y) summed as vectors, along +x and along +y, into `into`: twice
 * its net flow (a diagonal pipe carries (1, 1) or (-1, 1) per unit; pipes past the field's edge are
 * zero). Mirrors `flowVector` in `water_pipes.wgsl`.
 */
export function flowVector(grids: WaterGrids, x: number, y: number, width: number, into: Int32Array): void {
    const { fluxX, fluxY, fluxD1, fluxD2 } = grids;
    const i = y * width + x;
    let along = fluxX[i] + fluxD1[i];
    let across = fluxY[i] + fluxD1[i];
    if (x > 0) {
        along += fluxX[i - 1] - fluxD2[i - 1];
        across += fluxD2[i - 1];
    }
    if (y > 0) {
        along -= fluxD2[i - width];
        across += fluxY[i - width] + fluxD2[i - width];
        if (x > 0) {
            along += fluxD1[i - width - 1];
            across += fluxD1[i - width - 1];
        }
    }
    into[0] = along;
    into[1] = across;
}

const flow = new Int32Array(2);

/** |flow| summed over the 8 pipes through vertex (x, y): what left it plus what reached it in the step. Mirrors `flowThrough` in `water_pipes.wgsl`. */
export function flowThrough(grids: WaterGrids, x: number, y: number, width: number): number {
    const { fluxX, fluxY, fluxD1, fluxD2 } = grids;
    const i = y * width + x;
    let through = Math.abs(fluxX[i]) + Math.abs(fluxY[i]) + Math.abs(fluxD1[i]);
    if (x > 0) through += Math.abs(fluxX[i - 1]) + Math.abs(fluxD2[i - 1]);
    if (y > 0) {
        through += Math.abs(fluxY[i - width]) + Math.abs(fluxD2[i - width]);
        if (x > 0) through += Math.abs(fluxD1[i - width - 1]);
    }
    return through;
}

/** `part` / `whole` in Q16, signed like `part` (|part| <= whole, whole > 0): truncated toward zero, so a mirrored flow gives the mirrored velocity. */
function signedFraction(part: number, whole: number): number {
    return part >= 0 ? fractionQ16(part, whole) : -fractionQ16(-part, whole);
}

/**
 * The velocity of vertex (x, y) from its pipes and depth, into `into` (Q16 cells a step along +x and
 * along +y; zeros where it is dry). Mirrors `waterVelocityAt` in `water_velocity.wgsl`.
 */
export function waterVelocityAt(grids: WaterGrids, x: number, y: number, width: number, into: Int32Array): void {
    const depth = grids.waterDepth[y * width + x];
    if (depth <= 0) {
        into[0] = 0;
        into[1] = 0;
        return;
    }
    flowVector(grids, x, y, width, flow);
    const through = flowThrough(grids, x, y, width);
    // Each component of the vector is at most the flow through (a diagonal counts once per axis).
    const divisor = Math.max(2 * depth, through);
    into[0] = signedFraction(flow[0], divisor);
    into[1] = signedFraction(flow[1], divisor);
}

const velocity = new Int32Array(2);

/** Writes the velocity of every vertex of `rect` (the depth pass's patch) into the view grids. */
export function waterVelocity(rect: GridRect, width: number, grids: WaterGrids): void {
    const { velocityX, velocityY } = grids;
    for (let y = rect.y0; y < rect.y1; y++) {
        for (let x = rect.x0; x < rect.x1; x++) {
            waterVelocityAt(grids, x, y, width, velocity);
            const i = y * width + x;
            velocityX[i] = velocity[0];
            velocityY[i] = velocity[1];
        }
    }
}

/**
 * The velocity of the whole field worked out from the grids as they stand (a state loaded from a
 * snapshot, which leaves the view out). Between water steps that is exactly what the last depth pass
 * wrote; inside a step it is worked out from the pipes as they are then.
 */
export function refreshWaterVelocity(grids: WaterGrids, width: number, depth: number): void {
    waterVelocity({ x0: 0, y0: 0, x1: width, y1: depth }, width, grids);
}
