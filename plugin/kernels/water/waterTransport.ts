/**
 * CPU mirror of `shaders/water/water_transport.wgsl`, the water step's fourth pass, over the batch's
 * patch: each vertex's water after the pipes' exchange, and the sediment the water carries with it.
 *
 * Conservative transport (not Mei's semi-Lagrangian advection): a pipe that carries the fraction
 * f / w of its source's water carries floor(s x that fraction in Q16) of the source's sediment, each
 * pipe's share computed from the same integers by both of its ends, so what one vertex loses
 * another gains to the unit. Why: semi-Lagrangian advection interpolates sediment from upstream, so
 * it neither conserves it (Mei's followers report drift and streaks) nor can be exact in integers;
 * this scheme is exact by construction and its diffusion is that of the flow itself. The shares a
 * vertex sends add up to at most its sediment, since the pipes' flows add up to at most its water
 * (the limiter).
 */
import type { BatchParams } from "../../core/batchParams.js";
import { mulQ16 } from "../../core/fixedPoint.js";
import { fractionQ16, type WaterGrids } from "../../core/waterModel.js";

/**
 * The sediment a pipe moves into vertex i (negative: out of it), `flow` leaving i toward n when
 * positive, arriving from n when negative.
 */
function sedimentInto(water: Int32Array, sediment: Int32Array, flow: number, i: number, n: number): number {
    if (flow > 0) return -mulQ16(sediment[i], fractionQ16(flow, water[i]));
    if (flow < 0) return mulQ16(sediment[n], fractionQ16(-flow, water[n]));
    return 0;
}

/**
 * Pass 4: waterNext = water - out + in and sedimentNext = sediment - shares sent + shares received,
 * for every vertex of the patch.
 */
export function waterTransport(params: BatchParams, grids: WaterGrids): void {
    const { width, depth, patchX0, patchY0, patchX1, patchY1 } = params;
    const { waterDepth: water, waterSediment: sediment, fluxX, fluxY, fluxD1, fluxD2, waterNext, sedimentNext } = grids;
    for (let y = patchY0; y < patchY1; y++) {
        const hasDown = y + 1 < depth;
        for (let x = patchX0; x < patchX1; x++) {
            const i = y * width + x;
            const hasRight = x + 1 < width;
            // Every pipe is signed as leaving i. Pipes past the field's edge are zero.
            let out = 0;
            let moved = 0;
            let flow = hasRight ? fluxX[i] : 0;
            out += flow;
            moved += sedimentInto(water, sediment, flow, i, i + 1);
            if (x > 0) {
                flow = -fluxX[i - 1];
                out += flow;
                moved += sedimentInto(water, sediment, flow, i, i - 1);
            }
            if (hasDown) {
                flow = fluxY[i];
                out += flow;
                moved += sedimentInto(water, sediment, flow, i, i + width);
            }
            if (y > 0) {
                flow = -fluxY[i - width];
                out += flow;
                moved += sedimentInto(water, sediment, flow, i, i - width);
            }
            if (hasRight && hasDown) {
                flow = fluxD1[i];
                out += flow;
                moved += sedimentInto(water, sediment, flow, i, i + width + 1);
            }
            if (x > 0 && y > 0) {
                flow = -fluxD1[i - width - 1];
                out += flow;
                moved += sedimentInto(water, sediment, flow, i, i - width - 1);
            }
            if (x > 0 && hasDown) {
                flow = fluxD2[i - 1];
                out += flow;
                moved += sedimentInto(water, sediment, flow, i, i + width - 1);
            }
            if (hasRight && y > 0) {
                flow = -fluxD2[i - width];
                out += flow;
                moved += sedimentInto(water, sediment, flow, i, i - width + 1);
            }
            waterNext[i] = water[i] - out;
            sedimentNext[i] = sediment[i] + moved;
        }
    }
}
