/**
 * Ground edits: a game digs, piles, flattens or blasts the ground while it erodes. An edit is made
 * once, when it is stamped, into integers that apply anywhere: a rectangle of vertices and, per
 * vertex, a fixed-point height change ("add") or a Q16 share of the way to a target height
 * ("level"). Both backends apply those integers (`applyGroundEdit`, `shaders/edits/ground_edit.wgsl`)
 * at the edit's stamp, the point of the schedule after which it applies, so a replay, a peer or the
 * other backend gives the same terrain to the unit.
 *
 * The profiles are worked out in doubles from squared distances with +, -, x, / and rounding only
 * (no sqrt, sin or exp), which IEEE 754 makes the same on every machine; the integers they round to
 * are what the state records.
 */
import { FIXED_ONE, HEIGHT_MAX_FIXED, HEIGHT_MIN_FIXED } from "./fixedPoint.js";
import { HARDNESS_MAX, HARDNESS_ONE, hardnessQ8 } from "./hardness.js";
import type { GridRect } from "./patches.js";
import { CELL_UNITS, type GridUnits } from "./gridUnits.js";

/** What a game asked for. */
export type GroundEditKind = "dig" | "pile" | "flatten" | "crater";

/** How an edit changes a vertex: adds its amount, or moves the height its share of the way to the target. */
export type GroundEditMode = "add" | "level";

/** Most vertices one edit may touch (a 2048 x 2048 rectangle). */
export const MAX_EDIT_VERTICES = 2048 * 2048;

/** Largest height change one vertex of an edit may ask for, fixed point (a quarter of the height range). */
export const MAX_EDIT_AMOUNT = 2 ** 28;

/** One ground edit, in grid units: everything needed to apply it, with no object references. */
export interface GroundEdit {
    /** The stamp: the edit applies after `batch` batches of cycle `cycle` (completed cycles) have run. */
    readonly cycle: number;
    readonly batch: number;
    /** Its number among every edit of the run (1, 2, ...): the handle a game holds, and the order of edits with one stamp. */
    readonly id: number;
    readonly kind: GroundEditKind;
    readonly mode: GroundEditMode;
    /** The vertices it touches: columns x0..x1 - 1, rows y0..y1 - 1. */
    readonly rect: GridRect;
    /** Per vertex of `rect`, row-major: the height change (fixed point) for "add", the Q16 share of the way to `target` for "level". */
    readonly amounts: readonly number[];
    /** The target height for "level", fixed point (0 for "add"). */
    readonly target: number;
    /** True when what it removes becomes the shallow water's loose sediment (the water carries it or lays it down again) rather than leaving the terrain. */
    readonly sediment: boolean;
    /**
     * With the materials on, what a `pile` or a `flatten` raises is rock of this hardness (Q8, 256 =
     * the soil's, up to `HARDNESS_MAX`) rather than loose soil. Present only when set (a soil edit's
     * JSON, which the fingerprint hashes, is as before).
     */
    readonly rock?: number;
}

/** An edit before it is stamped. */
export type GroundEditShape = Omit<GroundEdit, "cycle" | "batch" | "id">;

/** A point of a path or a disc's centre, in cells (x = column, y = row, fractional). */
export interface GridPoint {
    readonly x: number;
    readonly y: number;
}

/** What every shape is measured against: a disc (one point) or a polyline (two or more). */
interface Footprint {
    readonly points: readonly GridPoint[];
    /** Half-width of the path or radius of the disc, cells. */
    readonly radius: number;
    /**
     * A tileable terrain's period (width - 1, depth - 1): the footprint repeats across the seam, so
     * the edit reaches over it and its repeated last column and row get the first's amounts.
     */
    readonly period?: { readonly x: number; readonly y: number } | null;
    /** The units its errors speak in (default: cells). */
    readonly units?: GridUnits;
}

/** The footprint's offsets to try: itself, and on a tileable terrain its images one period away. */
function imagesOf(footprint: Footprint): readonly (readonly [number, number])[] {
    const period = footprint.period;
    if (!period) return [[0, 0]];
    const offsets: [number, number][] = [];
    for (const dy of [-period.y, 0, period.y]) for (const dx of [-period.x, 0, period.x]) offsets.push([dx, dy]);
    return offsets;
}

function fail(operation: string, message: string): never {
    throw new RangeError(`${operation}: ${message}`);
}

/** Checks a positive, finite length in cells; the error in `units`. */
function checkLength(operation: string, name: string, value: number, smallest: number, largest: number, units: GridUnits = CELL_UNITS): void {
    if (!Number.isFinite(value) || value < smallest || value > largest) {
        fail(operation, `${name} is ${units.length(value)}: it must be a number in [${units.length(smallest)}, ${units.length(largest)}] ${units.name}.`);
    }
}

/**
 * The Q8 hardness of the rock an edit places (`rock`, times the soil's, in [1, 1000]), or undefined
 * for loose soil; a RangeError naming it otherwise.
 */
function rockOf(operation: string, rock: number | undefined): number | undefined {
    if (rock === undefined) return undefined;
    if (typeof rock !== "number" || !Number.isFinite(rock) || rock < 1 || rock > HARDNESS_MAX / HARDNESS_ONE) {
        fail(operation, `rock is ${rock}: it must be a hardness in [1, ${HARDNESS_MAX / HARDNESS_ONE}] (times the soil's), or left out for loose soil.`);
    }
    return hardnessQ8(rock);
}

/** `shape` with `rock` (Q8) after its other fields, where it places rock. */
function withRock(shape: GroundEditShape, rock: number | undefined): GroundEditShape {
    return rock === undefined ? shape : { ...shape, rock };
}

/** Checks a height change, fixed point; the error in `units`. */
function checkAmount(operation: string, name: string, value: number, units: GridUnits = CELL_UNITS): void {
    if (!Number.isFinite(value) || value < 0 || value > MAX_EDIT_AMOUNT) {
        const cells = units === CELL_UNITS ? ` (${MAX_EDIT_AMOUNT} fixed-point units)` : "";
        fail(
            operation,
            `${name} is ${units.length(value / FIXED_ONE)} ${units.name}: it must be a number in ` +
                `[0, ${units.length(MAX_EDIT_AMOUNT / FIXED_ONE)}] ${units.name}${cells}.`
        );
    }
}

/** The rectangle of vertices within `reach` cells of the footprint, clipped to the field; throws when it misses the field. */
function footprintRect(operation: string, footprint: Footprint, reach: number, width: number, depth: number): GridRect {
    const xs = footprint.points.map((p) => p.x);
    const ys = footprint.points.map((p) => p.y);
    const rect = {
        x0: Math.max(0, Math.ceil(Math.min(...xs) - reach)),
        y0: Math.max(0, Math.ceil(Math.min(...ys) - reach)),
        x1: Math.min(width, Math.floor(Math.max(...xs) + reach) + 1),
        y1: Math.min(depth, Math.floor(Math.max(...ys) + reach) + 1),
    };
    // Across a tileable terrain's seam the edit reaches the other side: the whole span then.
    if (footprint.period && rect.x1 > rect.x0 && rect.y1 > rect.y0) {
        if (Math.min(...xs) - reach < 0 || Math.max(...xs) + reach > width - 1) [rect.x0, rect.x1] = [0, width];
        if (Math.min(...ys) - reach < 0 || Math.max(...ys) + reach > depth - 1) [rect.y0, rect.y1] = [0, depth];
    }
    if (rect.x1 <= rect.x0 || rect.y1 <= rect.y0) {
        const units = footprint.units ?? CELL_UNITS;
        fail(operation, `the edit around ${units.position(xs[0], ys[0])} misses the ground (${units.extent(width, depth)}).`);
    }
    if ((rect.x1 - rect.x0) * (rect.y1 - rect.y0) > MAX_EDIT_VERTICES) {
        fail(
            operation,
            `the edit covers ${(rect.x1 - rect.x0) * (rect.y1 - rect.y0)} vertices: at most ${MAX_EDIT_VERTICES} (split a long path into several edits).`
        );
    }
    return rect;
}

/**
 * Squared distance, in units of `radius`, from (x, y) to the footprint (its point, or its
 * polyline's nearest segment; the nearest image of it on a tileable terrain).
 */
function squaredDistance(footprint: Footprint, x: number, y: number): number {
    let best = Infinity;
    for (const [dx, dy] of imagesOf(footprint)) best = Math.min(best, squaredDistanceToImage(footprint, x - dx, y - dy));
    return best;
}

function squaredDistanceToImage(footprint: Footprint, x: number, y: number): number {
    const { points, radius } = footprint;
    let best = Infinity;
    if (points.length === 1) {
        best = (x - points[0].x) * (x - points[0].x) + (y - points[0].y) * (y - points[0].y);
    }
    for (let k = 0; k + 1 < points.length; k++) {
        const a = points[k];
        const b = points[k + 1];
        const ex = b.x - a.x;
        const ey = b.y - a.y;
        const length2 = ex * ex + ey * ey;
        const t = length2 > 0 ? Math.min(1, Math.max(0, ((x - a.x) * ex + (y - a.y) * ey) / length2)) : 0;
        const dx = x - (a.x + t * ex);
        const dy = y - (a.y + t * ey);
        best = Math.min(best, dx * dx + dy * dy);
    }
    return best / (radius * radius);
}

/** The smooth bump (1 - s)^2 of a squared distance s (1 at the centre line, 0 at the edge and beyond). */
function bump(s: number): number {
    return s >= 1 ? 0 : (1 - s) * (1 - s);
}

/** Values of `profile(s)` over the rectangle, row-major, s the squared distance in radii. */
function overRect(rect: GridRect, footprint: Footprint, profile: (s: number) => number): number[] {
    const values: number[] = [];
    for (let y = rect.y0; y < rect.y1; y++) {
        for (let x = rect.x0; x < rect.x1; x++) {
            values.push(profile(squaredDistance(footprint, x, y)));
        }
    }
    return values;
}

/** Checks a footprint: finite points, a radius of at least half a cell. */
function checkFootprint(operation: string, footprint: Footprint, width: number, depth: number): void {
    if (footprint.points.length < 1) fail(operation, "the path has no points: it needs at least two.");
    footprint.points.forEach((point, index) => {
        if (!Number.isFinite(point.x) || !Number.isFinite(point.y)) {
            fail(operation, `${footprint.points.length > 1 ? `path point ${index}` : "the centre"} is (${point.x}, ${point.y}): it must be a finite position.`);
        }
    });
    checkLength(operation, footprint.points.length > 1 ? "width / 2" : "radius", footprint.radius, 0.5, Math.max(width, depth), footprint.units);
}

/**
 * Digs (`sign` -1) or piles (+1) over a disc or along a path: `amount` fixed-point units on the
 * centre line, falling smoothly to nothing at `radius` cells ((1 - d^2 / r^2)^2). A pile places
 * rock of hardness `rock` (times the soil's) where given, else loose soil.
 */
export function bumpEdit(
    kind: "dig" | "pile", footprint: Footprint, amount: number, width: number, depth: number, sediment = false, rock?: number
): GroundEditShape {
    checkFootprint(kind, footprint, width, depth);
    checkAmount(kind, kind === "dig" ? "depth" : "height", amount, footprint.units);
    const rockQ8 = kind === "pile" ? rockOf(kind, rock) : undefined;
    const rect = footprintRect(kind, footprint, footprint.radius, width, depth);
    const sign = kind === "dig" ? -1 : 1;
    const amounts = overRect(rect, footprint, (s) => sign * Math.round(amount * bump(s)));
    return withRock({ kind, mode: "add", rect, amounts, target: 0, sediment: kind === "dig" && sediment }, rockQ8);
}

/**
 * Levels a disc or a path toward `target` (fixed point): all the way within `(1 - edge) x radius`,
 * then less and less to nothing at `radius` (the soft edge, a share of the radius in [0, 1]). What
 * it fills is rock of hardness `rock` (times the soil's) where given, else loose soil.
 */
export function flattenEdit(footprint: Footprint, target: number, edge: number, width: number, depth: number, rock?: number): GroundEditShape {
    checkFootprint("flatten", footprint, width, depth);
    checkTarget("flatten", target, footprint.units);
    if (!Number.isFinite(edge) || edge < 0 || edge > 1) {
        fail("flatten", `edge is ${edge}: it must be a share of the radius in [0, 1].`);
    }
    const rockQ8 = rockOf("flatten", rock);
    const rect = footprintRect("flatten", footprint, footprint.radius, width, depth);
    const inner = (1 - edge) * (1 - edge);
    const amounts = overRect(rect, footprint, (s) => (s <= inner ? FIXED_ONE : Math.round(FIXED_ONE * bump((s - inner) / (1 - inner)))));
    return withRock({ kind: "flatten", mode: "level", rect, amounts, target: Math.round(target), sediment: false }, rockQ8);
}

/** Checks a target height, fixed point; the error in `units`. */
function checkTarget(operation: string, target: number, units: GridUnits = CELL_UNITS): void {
    if (!Number.isFinite(target) || target < HEIGHT_MIN_FIXED || target > HEIGHT_MAX_FIXED) {
        const [low, high] = [units.height(HEIGHT_MIN_FIXED / FIXED_ONE), units.height(HEIGHT_MAX_FIXED / FIXED_ONE)];
        fail(
            operation,
            `target is ${units.height(target / FIXED_ONE)} ${units.name}: it must be within the ` +
                `height range [${Math.min(low, high)}, ${Math.max(low, high)}] ${units.name}.`
        );
    }
}

/** Whether (x, y) is inside the closed polygon `points` (even-odd rule, crossings counted to the right). */
function insidePolygon(points: readonly GridPoint[], x: number, y: number): boolean {
    let inside = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
        const a = points[i];
        const b = points[j];
        if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
    }
    return inside;
}

/**
 * Levels a polygon toward `target` (fixed point): all the way inside it, then less and less to
 * nothing `edge` cells outside its border ((1 - d^2 / edge^2)^2 of the way; 0: a hard edge).
 */
export function flattenAreaEdit(
    polygon: readonly GridPoint[], edge: number, target: number, width: number, depth: number, period: Footprint["period"] = null,
    units: GridUnits = CELL_UNITS, rock?: number
): GroundEditShape {
    const operation = "flattenArea";
    const rockQ8 = rockOf(operation, rock);
    if (polygon.length < 3) fail(operation, `the polygon has ${polygon.length} points: it needs at least three.`);
    polygon.forEach((point, index) => {
        if (!Number.isFinite(point.x) || !Number.isFinite(point.y))
            fail(operation, `polygon point ${index} is (${point.x}, ${point.y}): it must be a finite position.`);
    });
    checkLength(operation, "edge", edge, 0, Math.max(width, depth), units);
    checkTarget(operation, target, units);
    const border = { points: [...polygon, polygon[0]], radius: edge, period, units };
    const inside = (x: number, y: number) => imagesOf(border).some(([dx, dy]) => insidePolygon(polygon, x - dx, y - dy));
    const rect = footprintRect(operation, border, edge, width, depth);
    const amounts: number[] = [];
    for (let y = rect.y0; y < rect.y1; y++) {
        for (let x = rect.x0; x < rect.x1; x++) {
            amounts.push(inside(x, y) ? FIXED_ONE : edge > 0 ? Math.round(FIXED_ONE * bump(squaredDistance(border, x, y))) : 0);
        }
    }
    return withRock({ kind: "flatten", mode: "level", rect, amounts, target: Math.round(target), sediment: false }, rockQ8);
}

/** Where a crater's rim stands, in radii of the bowl: a bump from RIM_INNER to RIM_OUTER. */
const RIM_INNER = 0.75;
const RIM_OUTER = 1.6;

/**
 * An explosion: a bowl `amount` fixed-point units deep at the centre ((1 - d^2 / r^2) x depth) and,
 * when `rim`, a raised rim around it made of exactly what the bowl removed: every unit goes to the
 * rim in proportion to a bump between 0.75 and 1.6 radii, the units that proportion leaves over to
 * the rim vertices with the largest remainders (ties to the first in row order). Without a rim the
 * material is gone (counted removed), or loose sediment where it was dug with `sediment`.
 */
export function craterEdit(footprint: Footprint, amount: number, rim: boolean, width: number, depth: number, sediment = false): GroundEditShape {
    checkFootprint("crater", footprint, width, depth);
    checkAmount("crater", "depth", amount, footprint.units);
    const rect = footprintRect("crater", footprint, footprint.radius * (rim ? RIM_OUTER : 1), width, depth);
    const s2 = overRect(rect, footprint, (s) => s);
    const amounts = s2.map((s) => (s < 1 ? -Math.round(amount * (1 - s)) : 0));
    if (rim) {
        const removed = -amounts.reduce((sum, value) => sum + value, 0);
        const middle = (RIM_INNER + RIM_OUTER) / 2;
        // The rim's bump in distance (not its square): the distance's square is compared with the
        // band's squared ends, and the bump taken over (s - middle^2) / (half-band in s), so no sqrt.
        const low = RIM_INNER * RIM_INNER;
        const high = RIM_OUTER * RIM_OUTER;
        const centre = middle * middle;
        const weights = s2.map((s) => (s <= low || s >= high ? 0 : bump(((s - centre) / (s < centre ? centre - low : high - centre)) ** 2)));
        const total = weights.reduce((sum, value) => sum + value, 0);
        if (total > 0 && removed > 0) {
            const shares = weights.map((w) => (removed * w) / total);
            let given = 0;
            shares.forEach((share, i) => {
                const whole = Math.floor(share);
                amounts[i] += whole;
                given += whole;
            });
            const order = shares.map((share, i) => ({ i, rest: share - Math.floor(share) })).filter((entry) => weights[entry.i] > 0);
            order.sort((a, b) => b.rest - a.rest || a.i - b.i);
            for (let k = 0; given < removed; k = (k + 1) % order.length, given++) {
                amounts[order[k].i] += 1;
            }
        }
    }
    return { kind: "crater", mode: "add", rect, amounts, target: 0, sediment: !rim && sediment };
}

/** The height an "add" edit gives a vertex, kept inside the fixed-point height range. */
export function addedHeight(height: number, amount: number): number {
    const next = height + amount;
    return next > HEIGHT_MAX_FIXED ? HEIGHT_MAX_FIXED : next < HEIGHT_MIN_FIXED ? HEIGHT_MIN_FIXED : next;
}

/** Whether `edit`'s stamp is before (cycle, batch). */
export function stampBefore(edit: Pick<GroundEdit, "cycle" | "batch">, cycle: number, batch: number): boolean {
    return edit.cycle < cycle || (edit.cycle === cycle && edit.batch < batch);
}

/**
 * What an edit does, with its heights in fixed-point units (the behaviors convert world units). A
 * pile's or a flatten's `rock` (a hardness, times the soil's, in [1, 1000]) makes what it raises rock
 * of that hardness where the materials are on; left out, loose soil.
 */
export type GroundEditRequest =
    /** `sediment`: what it removes becomes the water's loose sediment (default: gone). */
    | { readonly kind: "dig"; readonly depth: number; readonly sediment?: boolean }
    | { readonly kind: "pile"; readonly height: number; readonly rock?: number }
    /**
     * Over a disc or along a path, `edge` the soft edge's share of the radius; with `area`, inside
     * the polygon of the points, the radius the soft edge's width in cells.
     */
    | { readonly kind: "flatten"; readonly target: number; readonly edge?: number; readonly area?: boolean; readonly rock?: number }
    /** Without a rim, `sediment` keeps the bowl's material as the water's loose sediment. */
    | { readonly kind: "crater"; readonly depth: number; readonly rim?: boolean; readonly sediment?: boolean };

/** Default soft edge of `flatten`, a share of its radius. */
export const DEFAULT_FLATTEN_EDGE = 0.3;

/**
 * The edit `request` makes over a disc (one point) or along a path (two or more points), `radius`
 * cells around it, on a `width x depth` field; on a tileable one (`tileable`, at least 3 x 3) it
 * reaches across the seam. Throws a `RangeError` naming the bad argument, its value and range in
 * `units` (cells, or the behaviors' world units).
 */
export function shapeGroundEdit(
    request: GroundEditRequest, points: readonly GridPoint[], radius: number, width: number, depth: number, tileable = false, units: GridUnits = CELL_UNITS
): GroundEditShape {
    const period = tileable && width > 2 && depth > 2 ? { x: width - 1, y: depth - 1 } : null;
    const footprint = { points, radius, period, units };
    switch (request.kind) {
        case "dig":
        case "pile":
            return request.kind === "dig"
                ? bumpEdit("dig", footprint, request.depth, width, depth, request.sediment ?? false)
                : bumpEdit("pile", footprint, request.height, width, depth, false, request.rock);
        case "flatten":
            if (request.area) return flattenAreaEdit(points, radius, request.target, width, depth, period, units, request.rock);
            return flattenEdit(footprint, request.target, request.edge ?? DEFAULT_FLATTEN_EDGE, width, depth, request.rock);
        case "crater":
            if (points.length !== 1) fail("crater", `a crater has one centre, not a path of ${points.length} points.`);
            return craterEdit(footprint, request.depth, request.rim ?? true, width, depth, request.sediment ?? false);
        default:
            return fail("edit", `kind is ${JSON.stringify((request as { kind: unknown }).kind)}: it must be "dig", "pile", "flatten" or "crater".`);
    }
}
