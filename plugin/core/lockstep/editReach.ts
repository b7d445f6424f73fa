/**
 * How many vertices an edit request would cover, worked out before it is shaped: shaping costs the
 * rectangle's vertices times the path's points, so a host measures a player's request first.
 */
import type { PlayerInput } from "./playerInputs.js";

/** Radii of a crater's bowl its rim reaches out to (`groundEdits.ts`: RIM_OUTER). */
const CRATER_RIM_REACH = 1.6;

/**
 * Vertices of the rectangle around the request's points, `radius` cells out (a crater's rim
 * farther), clipped to a `width x depth` field: at least the edit's own rectangle. Infinity for a
 * request whose numbers are not finite (the shaping refuses it, naming the field).
 */
export function editReach(input: Extract<PlayerInput, { kind: "edit" }>, width: number, depth: number): number {
    if (input.points.length === 0) return 0;
    const reach = Math.abs(input.radius) * (input.edit.kind === "crater" && input.edit.rim !== false ? CRATER_RIM_REACH : 1);
    const xs = input.points.map((point) => point.x);
    const ys = input.points.map((point) => point.y);
    const columns = Math.min(width, Math.floor(Math.max(...xs) + reach) + 1) - Math.max(0, Math.ceil(Math.min(...xs) - reach));
    const rows = Math.min(depth, Math.floor(Math.max(...ys) + reach) + 1) - Math.max(0, Math.ceil(Math.min(...ys) - reach));
    const vertices = Math.max(0, columns) * Math.max(0, rows);
    return Number.isFinite(vertices) ? vertices : Infinity;
}
