/**
 * Ground edits on a component: world positions and world units in, the schedule's stamped
 * grid-unit edits (`plugin/core/groundEdits.ts`) out, and the handle a game keeps.
 */
import { FIXED_ONE } from "../core/fixedPoint.js";
import { shapeGroundEdit, type GroundEdit, type GroundEditKind, type GroundEditRequest } from "../core/groundEdits.js";
import type { ErosionSchedule } from "../core/schedule.js";
import type { GroundField } from "./groundField.js";
import { worldUnits } from "./worldUnits.js";

/** A position in world space (a `Vector3` will do). */
export type WorldPoint = { readonly x: number; readonly y: number; readonly z: number };

/** What a ground edit does, in world units (what `dig`, `pile`, `flatten`, `crater` and `along` take). */
export type GroundEditInput =
    /**
     * Removes up to `dig` world units (on the centre line), falling smoothly to nothing at the edge;
     * the material is gone (counted in `editRemoved`), or with `keep: "sediment"` becomes the shallow
     * water's loose sediment where it was dug (the water carries it off or lays it down again).
     */
    | { readonly dig: number; readonly keep?: "gone" | "sediment" }
    /**
     * Adds up to `height` world units, falling smoothly to nothing at the edge (counted in
     * `editAdded`). With the materials on it is loose soil, or with `rock` rock of that hardness
     * (times the soil's, in [1, 1000]: a stone levee that holds where a sand bank erodes).
     */
    | { readonly pile: number; readonly rock?: number }
    /**
     * Levels toward the world height `to` (default: the first point's y), fully inside `(1 - edge)`
     * of the radius, softly to the edge (`edge` default 0.3); what it fills is rock of hardness
     * `rock` where given (with the materials on), else loose soil.
     */
    | { readonly flatten: { readonly to?: number; readonly edge?: number; readonly rock?: number } };

/** What `flattenArea` stamps: the polygon's points with `radius` the soft edge's width. */
type AreaInput = { readonly flattenArea: { readonly to?: number; readonly rock?: number } };

/** `request` with the rock it places, where `rock` is given. */
function withRock<T extends GroundEditRequest>(request: T, rock: number | undefined): T {
    return rock === undefined ? request : { ...request, rock };
}

/** An edit a behavior stamped: where in the run it applies, and what it is. */
export interface GroundEditHandle {
    /** The edit's number in the run (1, 2, ...), as the state and the fingerprint record it. */
    readonly id: number;
    readonly kind: GroundEditKind;
    /** Completed cycles and batches of the cycle when it applies: before that batch runs. */
    readonly cycle: number;
    readonly batch: number;
}

/** A world length as a number, or a RangeError naming it. */
function worldLength(operation: string, name: string, value: number): number {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
        throw new RangeError(`${operation}: ${name} is ${value}: it must be a positive number of world units.`);
    }
    return value;
}

/** Checks where removed material goes, or throws a RangeError naming the option. */
function keepOf<T extends string>(operation: string, name: string, value: T, allowed: readonly T[]): T {
    if (!allowed.includes(value)) {
        throw new RangeError(`${operation}: ${name} is ${JSON.stringify(value)}: it must be ${allowed.map((option) => JSON.stringify(option)).join(", ")}.`);
    }
    return value;
}

/** Checks a world position, or throws a RangeError naming it. */
function worldPoint(operation: string, name: string, point: WorldPoint | null | undefined): WorldPoint {
    if (!point || ![point.x, point.y, point.z].every((value) => typeof value === "number" && Number.isFinite(value))) {
        throw new RangeError(
            `${operation}: ${name} is ${point ? `(${point.x}, ${point.y}, ${point.z})` : point}: it must be a world position with finite x, y and z.`
        );
    }
    return point;
}

/**
 * Stamps `input` over the disc of `radius` world units around one point, or along a path of two or
 * more, at the schedule's current position: it applies before the next batch, paused or not.
 */
export function stampEditAt(
    field: GroundField, schedule: ErosionSchedule, operation: string, points: readonly WorldPoint[], radius: number,
    input: GroundEditInput | AreaInput | { readonly crater: number; readonly ejecta: "rim" | "gone" | "sediment" }
): GroundEdit {
    const area = "flattenArea" in input;
    points.forEach((point, index) => worldPoint(operation, area ? `polygon[${index}]` : points.length > 1 ? `path[${index}]` : "position", point));
    if (area) {
        if (typeof radius !== "number" || !Number.isFinite(radius) || radius < 0)
            throw new RangeError(`${operation}: edge is ${radius}: it must be a number of world units, at least 0.`);
    } else {
        worldLength(operation, operation === "along" ? "width" : "radius", operation === "along" ? radius * 2 : radius);
    }
    const grid = points.map((point) => field.toGrid(point));
    const cellsPerWorldUnit = grid[0].cellsPerWorldUnit;
    const fixed = (worldUnits: number) => Math.round(worldUnits * cellsPerWorldUnit * FIXED_ONE);
    let request: GroundEditRequest;
    if ("dig" in input) {
        request = {
            kind: "dig",
            depth: fixed(worldLength(operation, "depth", input.dig)),
            sediment: keepOf(operation, "keep", input.keep ?? "gone", ["gone", "sediment"]) === "sediment",
        };
    } else if ("pile" in input) {
        request = withRock({ kind: "pile", height: fixed(worldLength(operation, "height", input.pile)) }, input.rock);
    } else if ("crater" in input) {
        const ejecta = keepOf(operation, "ejecta", input.ejecta, ["rim", "gone", "sediment"]);
        request = { kind: "crater", depth: fixed(worldLength(operation, "depth", input.crater)), rim: ejecta === "rim", sediment: ejecta === "sediment" };
    } else if ("flatten" in input || "flattenArea" in input) {
        const to = "flatten" in input ? input.flatten.to : input.flattenArea.to;
        if (to !== undefined && (typeof to !== "number" || !Number.isFinite(to))) {
            throw new RangeError(`${operation}: flatten.to is ${to}: it must be a finite world height.`);
        }
        const height = to === undefined ? grid[0].height : field.toGrid({ ...points[0], y: to }).height;
        const rock = "flatten" in input ? input.flatten.rock : input.flattenArea.rock;
        request = withRock({ kind: "flatten", target: Math.round(height * FIXED_ONE), edge: "flatten" in input ? input.flatten.edge : undefined, area }, rock);
    } else {
        throw new RangeError(`${operation}: the edit is ${JSON.stringify(input)}: it must be { dig }, { pile } or { flatten }.`);
    }
    const cells = grid.map((at) => ({ x: at.column, y: at.row }));
    const radiusCells = radius * cellsPerWorldUnit;
    // Shaped here too when a lockstep host shapes it again: a bad request throws for the caller at once.
    let shape: ReturnType<typeof shapeGroundEdit>;
    try {
        shape = shapeGroundEdit(request, cells, radiusCells, field.width, field.depth, schedule.options.tileable, worldUnits(field));
    } catch (error) {
        // The core names the edit's kind; the caller called `operation` (`along` digs, piles or flattens).
        const prefix = `${request.kind}: `;
        if (error instanceof RangeError && error.message.startsWith(prefix)) throw new RangeError(`${operation}: ${error.message.slice(prefix.length)}`);
        throw error;
    }
    return schedule.stampEdit(shape, undefined, undefined, { kind: "edit", edit: request, points: cells, radius: radiusCells });
}
