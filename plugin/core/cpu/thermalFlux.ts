/**
 * CPU mirror of `shaders/thermal_flux.wgsl`: how much each vertex of the patch sheds toward each
 * lower neighbour in one thermal step. Reads heights, writes only the patch's flux slots.
 */
import type { BatchParams } from "../batchParams.js";
import { mulQ16 } from "../fixedPoint.js";
import { FIRST_DIAGONAL_SLOT, THERMAL_DX, THERMAL_DY, THERMAL_SLOTS } from "../thermalDirections.js";

/** The neighbour in slot k, or the vertex itself past the edge (what an open edge's flux is masked by). */
function neighbourOrSelf(x: number, y: number, k: number, width: number, depth: number): number {
    const nx = x + THERMAL_DX[k];
    const ny = y + THERMAL_DY[k];
    return nx >= 0 && ny >= 0 && nx < width && ny < depth ? ny * width + nx : y * width + x;
}

/**
 * Fills `flux` (patch-local, `THERMAL_SLOTS` per vertex) for every vertex of the batch's patch.
 * With a mask (Q16 per vertex), what moves between two vertices is scaled by the smaller of their
 * masks, so a vertex the mask holds out (0) neither gives nor receives.
 */
export function thermalFlux(params: BatchParams, heights: Int32Array, flux: Int32Array, mask: Int32Array | null = null): void {
    const { width, depth, patchX0, patchY0, patchX1, patchY1, neighbours, talus, talusDiagonal, thermalRate, openBoundary } = params;
    const patchWidth = patchX1 - patchX0;
    for (let y = patchY0; y < patchY1; y++) {
        for (let x = patchX0; x < patchX1; x++) {
            const height = heights[y * width + x];
            const slot = ((y - patchY0) * patchWidth + (x - patchX0)) * THERMAL_SLOTS;
            for (let k = 0; k < THERMAL_SLOTS; k++) {
                let drop = 0;
                if (k < neighbours) {
                    const nx = x + THERMAL_DX[k];
                    const ny = y + THERMAL_DY[k];
                    if (nx >= 0 && ny >= 0 && nx < width && ny < depth) {
                        drop = height - heights[ny * width + nx];
                    } else if (openBoundary !== 0) {
                        // Off an open edge the ground continues the slope of the edge vertex.
                        const mx = x - THERMAL_DX[k];
                        const my = y - THERMAL_DY[k];
                        if (mx >= 0 && my >= 0 && mx < width && my < depth) {
                            drop = heights[my * width + mx] - height;
                        }
                    }
                }
                const threshold = k < FIRST_DIAGONAL_SLOT ? talus : talusDiagonal;
                let amount = drop > threshold ? mulQ16(drop - threshold, thermalRate) : 0;
                if (mask !== null && amount > 0) {
                    const n = neighbourOrSelf(x, y, k, width, depth);
                    amount = mulQ16(amount, Math.min(mask[y * width + x], mask[n]));
                }
                flux[slot + k] = amount;
            }
        }
    }
}
