/**
 * CPU mirror of `shaders/thermal/thermal_flux.wgsl`: how much each vertex of the patch sheds toward each
 * lower neighbour in one thermal step. Reads heights, writes only the patch's flux slots.
 *
 * Speed: vertices away from the field's edge, with 8 neighbours and no mask (the defaults), take a
 * straight-line path with the neighbours' offsets written out; every other vertex the general one.
 * Both compute the same integers. Measured on the bench's 1024² thermal, flux and apply together,
 * one thread, on one host: 15.2 M cells/s with the general loop alone, 59 M with this path (and
 * `thermalApply`'s), where the plain-JS yardstick (bench/yardstick/thermal.mjs) ran 34-36 M.
 */
import type { BatchParams } from "../../core/batchParams.js";
import { mulQ16 } from "../../core/fixedPoint.js";
import { FIRST_DIAGONAL_SLOT, THERMAL_DX, THERMAL_DY, THERMAL_SLOTS } from "../../core/thermalDirections.js";
import { HARDNESS_ONE, rockThreshold, thermalMaterialAmount, vertexHardness, type MaterialGrids } from "../../core/materials.js";
import { uniformHardness } from "../fold/soilFold.js";

/** The neighbour in slot k, or the vertex itself past the edge (what an open edge's flux is masked by). */
function neighbourOrSelf(x: number, y: number, k: number, width: number, depth: number): number {
    const nx = x + THERMAL_DX[k];
    const ny = y + THERMAL_DY[k];
    return nx >= 0 && ny >= 0 && nx < width && ny < depth ? ny * width + nx : y * width + x;
}

/** One vertex's flux slots, any vertex, any options (the WGSL kernel's loop). */
function fluxAt(
    params: BatchParams, heights: Int32Array, flux: Int32Array, mask: Int32Array | null, materials: MaterialGrids | null, x: number, y: number, slot: number
): void {
    const { width, depth, neighbours, talus, talusDiagonal, thermalRate, openBoundary } = params;
    const height = heights[y * width + x];
    // With the materials on: the soil this vertex can give each neighbour, and its rock's hardness.
    const soilShare = materials ? Math.floor(materials.soil[y * width + x] / neighbours) : 0;
    const hardness = materials ? vertexHardness(params, heights, materials, y * width + x, x, y) : 0;
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
        let amount: number;
        if (materials) {
            const soilThreshold = k < FIRST_DIAGONAL_SLOT ? params.soilTalus : params.soilTalusDiagonal;
            amount = thermalMaterialAmount(drop, soilThreshold, rockThreshold(soilThreshold, threshold, hardness), thermalRate, soilShare, hardness);
        } else {
            amount = drop > threshold ? mulQ16(drop - threshold, thermalRate) : 0;
        }
        if (mask !== null && amount > 0) {
            const n = neighbourOrSelf(x, y, k, width, depth);
            amount = mulQ16(amount, Math.min(mask[y * width + x], mask[n]));
        }
        flux[slot + k] = amount;
    }
}

/**
 * The straight-line path: `fluxAt`'s integers for the vertices `x0 .. x1 - 1` of row y, each with 8
 * neighbours in the field, no mask and no materials, at the angles `talus` and `talusDiagonal`
 * (the options'; with the materials at hardness 1 everywhere, the soil's: see `thermalFlux`).
 */
function innerRow(
    params: BatchParams, heights: Int32Array, flux: Int32Array, y: number, x0: number, x1: number, rowSlot: number, talus: number, talusDiagonal: number
): void {
    const { width, thermalRate } = params;
    for (let x = x0; x < x1; x++) {
        const i = y * width + x;
        const h = heights[i];
        const s = (rowSlot + x) * THERMAL_SLOTS;
        // Slots in THERMAL_DX/DY order: +x, -x, +y, -y, then (+1,+1), (-1,+1), (+1,-1), (-1,-1).
        let d = h - heights[i + 1];
        flux[s] = d > talus ? mulQ16(d - talus, thermalRate) : 0;
        d = h - heights[i - 1];
        flux[s + 1] = d > talus ? mulQ16(d - talus, thermalRate) : 0;
        d = h - heights[i + width];
        flux[s + 2] = d > talus ? mulQ16(d - talus, thermalRate) : 0;
        d = h - heights[i - width];
        flux[s + 3] = d > talus ? mulQ16(d - talus, thermalRate) : 0;
        d = h - heights[i + width + 1];
        flux[s + 4] = d > talusDiagonal ? mulQ16(d - talusDiagonal, thermalRate) : 0;
        d = h - heights[i + width - 1];
        flux[s + 5] = d > talusDiagonal ? mulQ16(d - talusDiagonal, thermalRate) : 0;
        d = h - heights[i - width + 1];
        flux[s + 6] = d > talusDiagonal ? mulQ16(d - talusDiagonal, thermalRate) : 0;
        d = h - heights[i - width - 1];
        flux[s + 7] = d > talusDiagonal ? mulQ16(d - talusDiagonal, thermalRate) : 0;
    }
}

/**
 * The straight-line path with the materials on: `fluxAt`'s integers for the vertices `x0 .. x1 - 1`
 * of row y, each with 8 neighbours in the field and no mask, its hardness and the rock's two
 * thresholds worked out once a vertex rather than once a neighbour; where the hardness is the same
 * everywhere (`uniform`, not 0), once a row.
 */
function innerMaterialsRow(
    params: BatchParams, heights: Int32Array, flux: Int32Array, materials: MaterialGrids, y: number, x0: number, x1: number, rowSlot: number, uniform: number
): void {
    const { width, talus, talusDiagonal, thermalRate, soilTalus, soilTalusDiagonal } = params;
    const soil = materials.soil;
    // The rock's thresholds of the last hardness seen: a row's vertices have a few hardnesses at
    // most (the rock's, its hard beds', times the factors), and each threshold costs a division.
    let lastHardness = uniform !== 0 ? uniform : HARDNESS_ONE;
    let rock = rockThreshold(soilTalus, talus, lastHardness);
    let rockDiagonal = rockThreshold(soilTalusDiagonal, talusDiagonal, lastHardness);
    for (let x = x0; x < x1; x++) {
        const i = y * width + x;
        const h = heights[i];
        const s = (rowSlot + x) * THERMAL_SLOTS;
        // Slots in THERMAL_DX/DY order, as the path without the materials.
        const d0 = h - heights[i + 1];
        const d1 = h - heights[i - 1];
        const d2 = h - heights[i + width];
        const d3 = h - heights[i - width];
        const d4 = h - heights[i + width + 1];
        const d5 = h - heights[i + width - 1];
        const d6 = h - heights[i - width + 1];
        const d7 = h - heights[i - width - 1];
        // A drop within the soil's angle moves nothing (the rock's is never below it): most
        // vertices of a gentle slope shed nowhere, and need no hardness.
        if (
            d0 <= soilTalus &&
            d1 <= soilTalus &&
            d2 <= soilTalus &&
            d3 <= soilTalus &&
            d4 <= soilTalusDiagonal &&
            d5 <= soilTalusDiagonal &&
            d6 <= soilTalusDiagonal &&
            d7 <= soilTalusDiagonal
        ) {
            flux[s] = flux[s + 1] = flux[s + 2] = flux[s + 3] = flux[s + 4] = flux[s + 5] = flux[s + 6] = flux[s + 7] = 0;
            continue;
        }
        const share = Math.floor(soil[i] / 8);
        const hardness = uniform !== 0 ? uniform : vertexHardness(params, heights, materials, i, x, y);
        if (hardness !== lastHardness) {
            lastHardness = hardness;
            rock = rockThreshold(soilTalus, talus, hardness);
            rockDiagonal = rockThreshold(soilTalusDiagonal, talusDiagonal, hardness);
        }
        // A drop within the soil's angle moves nothing (above): 0 without the call.
        flux[s] = d0 > soilTalus ? thermalMaterialAmount(d0, soilTalus, rock, thermalRate, share, hardness) : 0;
        flux[s + 1] = d1 > soilTalus ? thermalMaterialAmount(d1, soilTalus, rock, thermalRate, share, hardness) : 0;
        flux[s + 2] = d2 > soilTalus ? thermalMaterialAmount(d2, soilTalus, rock, thermalRate, share, hardness) : 0;
        flux[s + 3] = d3 > soilTalus ? thermalMaterialAmount(d3, soilTalus, rock, thermalRate, share, hardness) : 0;
        flux[s + 4] = d4 > soilTalusDiagonal ? thermalMaterialAmount(d4, soilTalusDiagonal, rockDiagonal, thermalRate, share, hardness) : 0;
        flux[s + 5] = d5 > soilTalusDiagonal ? thermalMaterialAmount(d5, soilTalusDiagonal, rockDiagonal, thermalRate, share, hardness) : 0;
        flux[s + 6] = d6 > soilTalusDiagonal ? thermalMaterialAmount(d6, soilTalusDiagonal, rockDiagonal, thermalRate, share, hardness) : 0;
        flux[s + 7] = d7 > soilTalusDiagonal ? thermalMaterialAmount(d7, soilTalusDiagonal, rockDiagonal, thermalRate, share, hardness) : 0;
    }
}

/**
 * Fills `flux` (patch-local, `THERMAL_SLOTS` per vertex) for every vertex of the batch's patch.
 * With a mask (Q16 per vertex), what moves between two vertices is scaled by the smaller of their
 * masks, so a vertex the mask holds out (0) neither gives nor receives. With the materials on
 * (`params.materials` and their grids), soil and rock shed by `thermalMaterialAmount`.
 */
export function thermalFlux(
    params: BatchParams, heights: Int32Array, flux: Int32Array, mask: Int32Array | null = null, materialGrids: MaterialGrids | null = null
): void {
    const { width, depth, patchX0, patchY0, patchX1, patchY1 } = params;
    const patchWidth = patchX1 - patchX0;
    const materials = params.materials !== 0 ? materialGrids : null;
    const fast = params.neighbours === 8 && mask === null;
    // With the materials at hardness 1 everywhere (the option's default, without strata or a map),
    // the rock's angle is the soil's (`rockThreshold` at 256) and `thermalMaterialAmount` comes to
    // rate x (drop - the soil's angle): whatever the soil does not give, the rock gives, at 1 /
    // hardness = 1. That is the path without the materials at the soil's angle, the same integers.
    const uniform = materials !== null ? uniformHardness(params, materials) : 0;
    // The columns whose 8 neighbours are all in the field.
    const innerX0 = Math.max(patchX0, 1);
    const innerX1 = Math.min(patchX1, width - 1);
    for (let y = patchY0; y < patchY1; y++) {
        const rowSlot = (y - patchY0) * patchWidth - patchX0;
        if (!fast || y < 1 || y >= depth - 1) {
            for (let x = patchX0; x < patchX1; x++) fluxAt(params, heights, flux, mask, materials, x, y, (rowSlot + x) * THERMAL_SLOTS);
            continue;
        }
        for (let x = patchX0; x < innerX0; x++) fluxAt(params, heights, flux, mask, materials, x, y, (rowSlot + x) * THERMAL_SLOTS);
        if (materials !== null && uniform === HARDNESS_ONE)
            innerRow(params, heights, flux, y, innerX0, innerX1, rowSlot, params.soilTalus, params.soilTalusDiagonal);
        else if (materials !== null) innerMaterialsRow(params, heights, flux, materials, y, innerX0, innerX1, rowSlot, uniform);
        else innerRow(params, heights, flux, y, innerX0, innerX1, rowSlot, params.talus, params.talusDiagonal);
        for (let x = Math.max(innerX1, patchX0); x < patchX1; x++) fluxAt(params, heights, flux, mask, materials, x, y, (rowSlot + x) * THERMAL_SLOTS);
    }
}
