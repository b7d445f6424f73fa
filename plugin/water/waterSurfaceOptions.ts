/**
 * `TerrainWaterSurface`'s options: their defaults and validation. Pure (no Babylon import), so the
 * rules are tested alone. Depths and speeds count in cells of the eroded field (times its cell size
 * in the ground's local units), like the erosion options, so the defaults suit a 1 m-cell ground
 * and a 90 m-cell DEM alike.
 */

/** A linear RGB colour, each channel 0..1 (a Babylon `Color3` fits). */
export interface WaterColor {
    readonly r: number;
    readonly g: number;
    readonly b: number;
}

/** A direction in world space (a Babylon `Vector3` fits); only its direction matters. */
export interface WaterDirection {
    readonly x: number;
    readonly y: number;
    readonly z: number;
}

/** How the water surface looks. Every field has a default (`WATER_SURFACE_DEFAULTS`). */
export interface TerrainWaterSurfaceOptions {
    /** Colour of shallow water, linear RGB 0..1. Default (0.3, 0.55, 0.62). */
    readonly shallowColor: WaterColor;
    /** Colour water reaches at `deepDepth`, linear RGB 0..1. Default (0.02, 0.1, 0.26). */
    readonly deepColor: WaterColor;
    /** Colour of fast water (foam, rapids), linear RGB 0..1. Default (0.86, 0.9, 0.92). */
    readonly foamColor: WaterColor;
    /** Depth (cells: times the cell size, in local units) below which ground counts as dry and shows no water. Default 0.03. */
    readonly minDepth: number;
    /** Depth (cells) over which the water fades in above `minDepth`, so thin films and shores are soft. Default 0.25. */
    readonly fadeDepth: number;
    /** Depth (cells) at which the water is 95% of the way to its deep colour and opacity (light fades exponentially with depth). Default 3. */
    readonly deepDepth: number;
    /** Opacity of shallow water, 0..1 (deep water and foam are more opaque). Default 0.7. */
    readonly opacity: number;
    /** Speed (cells per water step) at which water is fully foam; foam fades in from half of it. Default 1.5. */
    readonly foamSpeed: number;
    /** Direction the light shines (world space), for the shading and highlights. Default (-0.6, -0.55, 0.45). */
    readonly lightDirection: WaterDirection;
}

/** The defaults of every option. */
export const WATER_SURFACE_DEFAULTS: Readonly<TerrainWaterSurfaceOptions> = Object.freeze({
    shallowColor: Object.freeze({ r: 0.3, g: 0.55, b: 0.62 }),
    deepColor: Object.freeze({ r: 0.02, g: 0.1, b: 0.26 }),
    foamColor: Object.freeze({ r: 0.86, g: 0.9, b: 0.92 }),
    minDepth: 0.03,
    fadeDepth: 0.25,
    deepDepth: 3,
    opacity: 0.7,
    foamSpeed: 1.5,
    lightDirection: Object.freeze({ x: -0.6, y: -0.55, z: 0.45 }),
});

/** How each number is bounded: the unit a message names, the least value, the largest. */
const NUMBERS = {
    minDepth: { unit: "cells", min: 0, max: Infinity, exclusiveMin: false },
    fadeDepth: { unit: "cells", min: 0, max: Infinity, exclusiveMin: true },
    deepDepth: { unit: "cells", min: 0, max: Infinity, exclusiveMin: true },
    opacity: { unit: "(a fraction)", min: 0, max: 1, exclusiveMin: false },
    foamSpeed: { unit: "cells per water step", min: 0, max: Infinity, exclusiveMin: true },
} as const;
const COLORS = ["shallowColor", "deepColor", "foamColor"] as const;
const KNOWN = Object.keys(WATER_SURFACE_DEFAULTS) as (keyof TerrainWaterSurfaceOptions)[];

/** A value as an error message shows it (NaN and Infinity as such, strings quoted). */
function describe(value: unknown): string {
    if (typeof value === "number") return String(value);
    if (typeof value === "string") return JSON.stringify(value);
    if (value === null || value === undefined) return String(value);
    return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

function checkNumber(name: keyof typeof NUMBERS, value: unknown): number {
    const { unit, min, max, exclusiveMin } = NUMBERS[name];
    const below = exclusiveMin ? (value as number) <= min : (value as number) < min;
    if (typeof value !== "number" || !Number.isFinite(value) || below || value > max) {
        const range = max === Infinity ? `${exclusiveMin ? "above" : "at least"} ${min}` : `from ${min} to ${max}`;
        throw new RangeError(
            `TerrainWaterSurface option "${name}" is ${describe(value)}: it must be a finite number ${unit === "(a fraction)" ? "" : `of ${unit}, `}${range}.`
        );
    }
    return value;
}

function checkColor(name: (typeof COLORS)[number], value: unknown): WaterColor {
    const color = value as WaterColor | null;
    const channels = color && typeof color === "object" ? [color.r, color.g, color.b] : [];
    if (channels.length !== 3 || !channels.every((channel) => typeof channel === "number" && Number.isFinite(channel) && channel >= 0 && channel <= 1)) {
        const got = color && typeof color === "object" ? `{ r: ${describe(color.r)}, g: ${describe(color.g)}, b: ${describe(color.b)} }` : describe(value);
        throw new RangeError(
            `TerrainWaterSurface option "${name}" is ${got}: it must be a colour { r, g, b } (a Color3) with each channel a finite number from 0 to 1.`
        );
    }
    return Object.freeze({ r: color!.r, g: color!.g, b: color!.b });
}

function checkDirection(value: unknown): WaterDirection {
    const direction = value as WaterDirection | null;
    const parts = direction && typeof direction === "object" ? [direction.x, direction.y, direction.z] : [];
    if (parts.length !== 3 || !parts.every((part) => typeof part === "number" && Number.isFinite(part)) || parts.every((part) => part === 0)) {
        const got =
            direction && typeof direction === "object"
                ? `{ x: ${describe(direction.x)}, y: ${describe(direction.y)}, z: ${describe(direction.z)} }`
                : describe(value);
        throw new RangeError(
            `TerrainWaterSurface option "lightDirection" is ${got}: it must be a direction { x, y, z } (a Vector3) of finite numbers, not all 0.`
        );
    }
    return Object.freeze({ x: direction!.x, y: direction!.y, z: direction!.z });
}

/**
 * `input` merged over `base` (default: the defaults) and validated: throws a RangeError naming the
 * option for a value out of range, NaN or of the wrong type, and for a name that is not an option.
 */
export function resolveWaterSurfaceOptions(
    input: Partial<TerrainWaterSurfaceOptions> = {},
    base: Readonly<TerrainWaterSurfaceOptions> = WATER_SURFACE_DEFAULTS
): Readonly<TerrainWaterSurfaceOptions> {
    if (input === null || typeof input !== "object") {
        throw new TypeError(`TerrainWaterSurface options are ${describe(input)}: they must be an object (or left out).`);
    }
    const resolved: Record<string, unknown> = { ...base };
    for (const [name, value] of Object.entries(input)) {
        if (!KNOWN.includes(name as keyof TerrainWaterSurfaceOptions)) {
            throw new RangeError(`TerrainWaterSurface has no option "${name}"; its options are ${KNOWN.join(", ")}.`);
        }
        if (value === undefined) {
            continue;
        }
        if (name in NUMBERS) {
            resolved[name] = checkNumber(name as keyof typeof NUMBERS, value);
        } else if ((COLORS as readonly string[]).includes(name)) {
            resolved[name] = checkColor(name as (typeof COLORS)[number], value);
        } else {
            resolved[name] = checkDirection(value);
        }
    }
    return Object.freeze(resolved as unknown as TerrainWaterSurfaceOptions);
}
