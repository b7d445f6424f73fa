/**
 * CPU mirror of `shaders/water/water_erode.wgsl`, the water step's fifth pass, over the batch's patch:
 * what the water cuts from the ground or lays down on it, into `groundChange` (applied by the apply
 * pass, `waterApply`).
 *
 * Capacity = capacity x max(slope, minSlope) x discharge, where the slope is the ground's gradient
 * (central differences, capped at 1) and the discharge the length of the net flow through the vertex
 * (half the sum of its pipes' flows as vectors). Mei et al. use Kc x sin(alpha) x |v|: the speed
 * alone, so a film of water a unit deep carries as much as a river, which peers report as capacity
 * that "ignores water depth"; the discharge is speed x depth, the stream power's measure, and
 * needs no division by the depth (exact in integers, and nothing blows up where the water is thin).
 *
 * Below capacity the water picks up `dissolving` of the deficit, at most a quarter of the drop to the
 * vertex's lowest neighbour (no cut makes a pit); above it, it lays down `deposition` of the
 * surplus, within `fillRoom` (the rule the fold and the rivers share: no deposit dams a
 * neighbour's way down, and the fill levels stay an upper bound).
 */
import { MAX_SHARE_SHIFT, waterParams, type BatchParams } from "../../core/batchParams.js";
import { FIXED_ONE, mulQ16, mulQ16Sat } from "../../core/fixedPoint.js";
import { fillRoom } from "../../core/settling.js";
import { HEIGHT_MAX_FIXED } from "../../core/fixedPoint.js";
import { GRADIENT_COMPONENT_LIMIT, hypotenuse, WATER_SEDIMENT_LIMIT, type WaterGrids } from "../../core/waterModel.js";
import { flowVector } from "../../core/waterVelocity.js";

/** |difference| / run (run 1 or 2 cells), truncated, at most GRADIENT_COMPONENT_LIMIT: the magnitude, so a mirrored ground has the same slope. */
function gradientMagnitude(difference: number, run: number): number {
    const magnitude = difference < 0 ? -difference : difference;
    return (magnitude > GRADIENT_COMPONENT_LIMIT ? GRADIENT_COMPONENT_LIMIT : magnitude) >> (run - 1);
}

const flowScratch = new Int32Array(2);

/** The length of the net flow through vertex (x, y), Q16 cells of depth a step. Mirrors `dischargeAt`. */
export function dischargeAt(grids: WaterGrids, x: number, y: number, width: number): number {
    flowVector(grids, x, y, width, flowScratch);
    return hypotenuse(flowScratch[0], flowScratch[1]) >> 1;
}

/** The ground's slope at (x, y), Q16, from central differences (one-sided at the edges), at most 1. */
export function groundSlopeAt(heights: Int32Array, x: number, y: number, width: number, depth: number): number {
    const i = y * width + x;
    const left = x > 0 ? i - 1 : i;
    const right = x + 1 < width ? i + 1 : i;
    const up = y > 0 ? i - width : i;
    const down = y + 1 < depth ? i + width : i;
    const gx = gradientMagnitude(heights[right] - heights[left], right - left);
    const gy = gradientMagnitude(heights[down] - heights[up], (down - up) / width);
    const slope = hypotenuse(gx, gy);
    return slope > FIXED_ONE ? FIXED_ONE : slope;
}

/** Index offsets of the 8 neighbours of a vertex on a grid `width` wide. */
function neighbourOffsets(width: number): Int32Array {
    return Int32Array.of(-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1);
}

/**
 * Indices of the neighbours of vertex i at (x, y) inside the field, into `into`; returns how many.
 * Interior vertices take the fixed offsets (most of a field), edge vertices the checked loop.
 */
function neighboursOf(i: number, x: number, y: number, width: number, depth: number, offsets: Int32Array, into: Int32Array): number {
    if (x > 0 && y > 0 && x < width - 1 && y < depth - 1) {
        for (let k = 0; k < 8; k++) into[k] = i + offsets[k];
        return 8;
    }
    let count = 0;
    for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= depth) continue;
        for (let dx = -1; dx <= 1; dx++) {
            const nx = x + dx;
            if ((dx === 0 && dy === 0) || nx < 0 || nx >= width) continue;
            into[count++] = ny * width + nx;
        }
    }
    return count;
}

/** Pass 5: groundChange[i] = what vertex i's water lays down (positive) or cuts (negative) this step. */
export function waterErode(params: BatchParams, heights: Int32Array, levels: Int32Array, grids: WaterGrids): void {
    const { width, depth, patchX0, patchY0, patchX1, patchY1 } = params;
    const { waterCapacity, waterMinSlope, waterDissolving, waterDeposition } = waterParams(params);
    const { sedimentNext, groundChange: delta } = grids;
    const offsets = neighbourOffsets(width);
    const around = new Int32Array(8);
    for (let y = patchY0; y < patchY1; y++) {
        for (let x = patchX0; x < patchX1; x++) {
            const i = y * width + x;
            const discharge = dischargeAt(grids, x, y, width);
            const load = sedimentNext[i];
            if (discharge === 0 && load === 0) {
                // Still and clean (dry ground, or a lake at rest): nothing to cut or lay down.
                delta[i] = 0;
                continue;
            }
            const ground = groundSlopeAt(heights, x, y, width, depth);
            const slope = ground > waterMinSlope ? ground : waterMinSlope;
            const capacity = mulQ16Sat(mulQ16Sat(slope, waterCapacity), discharge);
            const height = heights[i];
            const count = neighboursOf(i, x, y, width, depth, offsets, around);
            if (capacity > load) {
                // A cut: at most a quarter of the drop to the lowest neighbour.
                let lowest = HEIGHT_MAX_FIXED;
                for (let k = 0; k < count; k++) {
                    const neighbour = heights[around[k]];
                    if (neighbour < lowest) lowest = neighbour;
                }
                const drop = lowest < height ? (height - lowest) >> MAX_SHARE_SHIFT : 0;
                let cut = mulQ16(capacity - load, waterDissolving);
                if (cut > drop) cut = drop;
                delta[i] = -(cut > WATER_SEDIMENT_LIMIT ? WATER_SEDIMENT_LIMIT : cut);
                continue;
            }
            const laid = mulQ16(load - capacity, waterDeposition);
            if (laid <= 0) {
                delta[i] = 0;
                continue;
            }
            // A deposit: within fillRoom, from the neighbour bounds of `neighbourBounds`
            // (settling.ts), worked out here without an object a vertex.
            const level = levels[i] > height ? levels[i] : height;
            let lowest = HEIGHT_MAX_FIXED;
            let lowestHigher = HEIGHT_MAX_FIXED;
            let lowestHigherLevel = HEIGHT_MAX_FIXED;
            for (let k = 0; k < count; k++) {
                const n = around[k];
                const neighbour = heights[n];
                if (neighbour < lowest) lowest = neighbour;
                if (neighbour > height && neighbour < lowestHigher) lowestHigher = neighbour;
                const neighbourLevel = levels[n] > neighbour ? levels[n] : neighbour;
                if (neighbourLevel > level && neighbourLevel < lowestHigherLevel) lowestHigherLevel = neighbourLevel;
            }
            const room = fillRoom(height, levels[i], lowest, lowestHigher, lowestHigherLevel);
            delta[i] = room <= 0 ? 0 : laid < room ? laid : room;
        }
    }
}
