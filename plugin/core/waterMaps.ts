/**
 * The shallow water as maps, for rendering and game logic (floats: not state): depth, velocity and
 * the water surface, from a state. `write_water_map.wgsl`'s twin on the GPU writes the same values into the
 * `shallowWater` texture.
 */
import { fixedUnitLength } from "./fixedPoint.js";
import type { ErosionStateData } from "./erosionState.js";
import { newTexels, type TexelAllocator } from "./texelAllocator.js";

/** The water's maps as arrays, in the ground's local units. */
export interface WaterMaps {
    /** Water depth per vertex, local units (0 where dry or before water has run). */
    readonly waterDepth: Float32Array;
    /**
     * Velocity per vertex, two floats (along local x, along local z), local units per water step: the
     * water's view grids (`WATER_VIEW_GRIDS`), as each vertex's last depth pass left them.
     */
    readonly waterVelocity: Float32Array;
}

/**
 * Texels of rows `y0 .. y1 - 1` of the `shallowWater` texture (RGBA per vertex): r depth, g and b
 * the velocity along local x and z (units per water step, from the water's view grids: the flow
 * through the vertex over max(2 x depth, that flow) as its last depth pass left it, so within a step
 * it stays the last completed one's; field rows run toward -z), a the water surface (ground +
 * water), all in local units (`cellSize` is the ground's cell size in them). Dry vertices have depth
 * and velocity 0 and the surface at the ground. Columns `x0 .. x1 - 1` of each row (the whole row by
 * default), row after row.
 */
export function waterTexels(
    state: Pick<ErosionStateData, "width" | "heights" | "water">, cellSize: number, y0: number, y1: number, alloc: TexelAllocator = newTexels, x0 = 0,
    x1: number = state.width
): Float32Array {
    const { width, heights, water } = state;
    const unit = fixedUnitLength(cellSize);
    const columns = x1 - x0;
    const texels = alloc(columns * (y1 - y0) * 4);
    for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
            const i = y * width + x;
            const k = ((y - y0) * columns + x - x0) * 4;
            const depth = water ? water.waterDepth[i] : 0;
            texels[k] = depth * unit;
            if (water) {
                texels[k + 1] = water.velocityX[i] * unit;
                texels[k + 2] = -water.velocityY[i] * unit;
            }
            texels[k + 3] = (heights[i] + depth) * unit;
        }
    }
    return texels;
}

/** The water's depth and velocity as arrays (local units). */
export function waterMapArrays(state: Pick<ErosionStateData, "width" | "depth" | "heights" | "water">, cellSize: number): WaterMaps {
    const texels = waterTexels(state, cellSize, 0, state.depth);
    const cells = state.width * state.depth;
    const waterDepth = new Float32Array(cells);
    const waterVelocity = new Float32Array(cells * 2);
    for (let i = 0; i < cells; i++) {
        waterDepth[i] = texels[i * 4];
        waterVelocity[i * 2] = texels[i * 4 + 1];
        waterVelocity[i * 2 + 1] = texels[i * 4 + 2];
    }
    return { waterDepth, waterVelocity };
}
