/**
 * The options of `ErosionColliders`, their defaults and ranges (checked before anything is
 * created), and how a ground is cut into square chunks.
 */
import type { PhysicsMaterial } from "@babylonjs/core/Physics/v2/physicsMaterial.js";

/** Options of `ErosionColliders`. */
export interface ErosionCollidersOptions {
    /**
     * Cells a side of one heightfield chunk (chunks are square; on a ground narrower than that, as
     * wide as the ground). A smaller chunk rebuilds less when a little changes. Default 32, 2 to 512.
     */
    readonly chunkCells?: number;
    /** Shortest time between the starts of two refreshes of the changed chunks, milliseconds. Default 250, 0 to 60000. */
    readonly refreshIntervalMs?: number;
    /** Most chunks rebuilt in one frame; a refresh with more goes on over the next frames. Default 16, 1 to 4096. */
    readonly maxChunksPerFrame?: number;
    /** Friction and restitution of the colliders (Babylon's `PhysicsMaterial`). Default: the engine's. */
    readonly material?: PhysicsMaterial;
}

const RANGES = {
    chunkCells: { min: 2, max: 512, integer: true, default: 32, unit: "cells" },
    refreshIntervalMs: { min: 0, max: 60000, integer: false, default: 250, unit: "ms" },
    maxChunksPerFrame: { min: 1, max: 4096, integer: true, default: 16, unit: "chunks" },
} as const;

/** The options with their defaults; a RangeError naming the first option outside its range. */
export function validateColliderOptions(
    options: ErosionCollidersOptions
): Required<Omit<ErosionCollidersOptions, "material">> & { material?: PhysicsMaterial } {
    const resolved = { ...options } as Record<string, unknown>;
    for (const [name, range] of Object.entries(RANGES)) {
        const value = resolved[name] ?? range.default;
        if (typeof value !== "number" || !Number.isFinite(value) || value < range.min || value > range.max || (range.integer && !Number.isInteger(value))) {
            throw new RangeError(
                `ErosionColliders option "${name}" is ${String(value)}: it must be ` +
                    `${range.integer ? "an integer" : "a number"} in [${range.min}, ${range.max}] (${range.unit}).`
            );
        }
        resolved[name] = value;
    }
    return resolved as ReturnType<typeof validateColliderOptions>;
}

/**
 * The first vertex (column, row) of each `side`-cell chunk of a `width` x `depth` ground: every
 * `side` cells, and a last chunk on each axis moved back to end at the edge, so every chunk is
 * whole (it then overlaps its neighbour, with the same heights).
 */
export function chunkOrigins(width: number, depth: number, side: number): [number, number][] {
    const starts = (vertices: number) => {
        const result: number[] = [];
        for (let start = 0; start + side < vertices - 1; start += side) result.push(start);
        result.push(vertices - 1 - side);
        return result;
    };
    return starts(depth).flatMap((y0) => starts(width).map((x0): [number, number] => [x0, y0]));
}
