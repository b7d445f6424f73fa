/**
 * Local erosion events (`erodeAt`): rain on one hill, a storm after an explosion. An event rains
 * droplets uniformly over a disc; it runs as one extra batch at the start of the next cycle, through
 * the same kernels, fold and frame budget as the rest, and changes nothing farther from its disc
 * than a walk can reach (maxSteps + brushRadius + 1 cells).
 *
 * Droplet i of event e in cycle c starts at a distance radius x sqrt(u) and angle 2 pi a / 256
 * from the centre, u (16 bits) and a (8 bits) from hash4(seed, c, LOCAL_PATCH_BASE + e, 2i) and
 * (.., 2i + 1); droplets that would start outside the field are skipped. The angle table is a
 * literal of integers, not Math.cos, so every machine places the same droplets.
 */
import { CELL_UNITS, type GridUnits } from "./gridUnits.js";
import { FIXED_ONE } from "./fixedPoint.js";
import { resolveOptions, type SimulationOptions, type HydraulicOptions } from "./options.js";

/** Patch index a local event's droplet hash uses: events never share a hash stream with a patch. */
export const LOCAL_PATCH_BASE = 0x40000000;

/** Angle steps in a full turn of a local event's disc: a droplet's angle is the top 8 bits of a hash. */
export const ANGLE_STEPS = 256;

/** A quarter turn, in angle steps: `QUARTER_COSINES` covers 0..QUARTER_TURN. */
export const QUARTER_TURN = ANGLE_STEPS / 4;

/** cos(2 pi a / ANGLE_STEPS) x 65536 for a = 0..QUARTER_TURN (a quarter turn); the rest follows by symmetry. */
export const QUARTER_COSINES = [
    65536, 65516, 65457, 65358, 65220, 65043, 64827, 64571, 64277, 63944, 63572, 63162, 62714, 62228, 61705, 61145, 60547, 59914, 59244, 58538, 57798, 57022,
    56212, 55368, 54491, 53581, 52639, 51665, 50660, 49624, 48559, 47464, 46341, 45190, 44011, 42806, 41576, 40320, 39040, 37736, 36410, 35062, 33692, 32303,
    30893, 29466, 28020, 26558, 25080, 23586, 22078, 20557, 19024, 17479, 15924, 14359, 12785, 11204, 9616, 8022, 6424, 4821, 3216, 1608, 0,
] as const;

/** One local erosion event, in grid units. */
export interface LocalErosionEvent {
    /** Disc centre, Q16 cells (x = column, y = row). */
    readonly centreX: number;
    readonly centreY: number;
    /** Disc radius, Q16 cells. */
    readonly radius: number;
    /** Droplets the event rains. */
    readonly droplets: number;
    /** Droplet options of the event (the `enabled` flag is ignored). */
    readonly hydraulic: HydraulicOptions;
}

/** Q16 cosine and sine of angle step a (0..ANGLE_STEPS - 1), from the quarter table. Mirrors `cosineOf` in `erode_droplets.wgsl`. */
export function discDirection(a: number): [number, number] {
    return [cosineOf(a & (ANGLE_STEPS - 1)), cosineOf((a + 3 * QUARTER_TURN) & (ANGLE_STEPS - 1))];
}

function cosineOf(a: number): number {
    if (a <= QUARTER_TURN) return QUARTER_COSINES[a];
    if (a <= 2 * QUARTER_TURN) return -QUARTER_COSINES[2 * QUARTER_TURN - a];
    if (a <= 3 * QUARTER_TURN) return -QUARTER_COSINES[a - 2 * QUARTER_TURN];
    return QUARTER_COSINES[ANGLE_STEPS - a];
}

/** Cells a disc of `radius` (Q16 cells) covers, for the event's share: round(pi r^2), at least 1. */
export function discCells(radius: number): number {
    const cells = radius / FIXED_ONE;
    return Math.max(1, Math.round(Math.PI * cells * cells));
}

/** What `erodeAt` takes besides the disc. */
export interface LocalErosionInput {
    /** Droplets to rain on the disc, 1..1 048 576. Default: two per cell of the disc. */
    droplets?: number;
    /** Droplet options for this event, merged over the options in force (validated like them). */
    hydraulic?: Partial<HydraulicOptions>;
}

/**
 * Validates an `erodeAt` request in grid units and builds its event.
 * @param centreX disc centre, cells (x = column, fractional allowed)
 * @param centreY disc centre, cells (y = row)
 * @param radius disc radius, cells
 * @param units what its errors speak in (the behaviors': world units)
 */
export function createLocalEvent(
    options: Readonly<SimulationOptions>, width: number, depth: number, centreX: number, centreY: number, radius: number, input: LocalErosionInput = {},
    units: GridUnits = CELL_UNITS
): LocalErosionEvent {
    for (const [name, value] of [["centre x", centreX], ["centre z", centreY]] as const) {
        if (!Number.isFinite(value)) {
            throw new RangeError(`erodeAt: the disc's ${name} is ${value}: it must be a finite position.`);
        }
    }
    const side = Math.max(width, depth);
    if (!Number.isFinite(radius) || radius < 0.5 || radius > side) {
        const [name, halfCell] = [units.name, units === CELL_UNITS ? "half a cell" : `half a cell, ${units.length(0.5)} ${units.name},`];
        throw new RangeError(
            `erodeAt: radius is ${units.length(radius)} ${name}: it must be between ${halfCell} and the ground's larger side (${units.length(side)} ${name}).`
        );
    }
    if (centreX + radius < 0 || centreY + radius < 0 || centreX - radius > width - 1 || centreY - radius > depth - 1) {
        throw new RangeError(
            `erodeAt: the disc at ${units.position(centreX, centreY)} with radius ${units.length(radius)} misses the ground (${units.extent(width, depth)}).`
        );
    }
    const droplets = input.droplets ?? Math.min(1048576, Math.max(1, Math.round(2 * Math.PI * radius * radius)));
    if (!Number.isInteger(droplets) || droplets < 1 || droplets > 1048576) {
        throw new RangeError(`erodeAt: droplets is ${droplets}: it must be an integer in [1, 1048576].`);
    }
    const hydraulic = resolveOptions({ hydraulic: input.hydraulic ?? {} }, options).hydraulic;
    return { centreX: Math.round(centreX * FIXED_ONE), centreY: Math.round(centreY * FIXED_ONE), radius: Math.round(radius * FIXED_ONE), droplets, hydraulic };
}
