/**
 * What a lockstep player sends its host: requests, never results. A player asks for a dig at a
 * point with a radius and a depth, not for heights; the host shapes the edit with the same integer
 * code every peer runs (`shapeGroundEdit`), stamps and numbers it, and broadcasts the entry. A
 * player's undo names no target: the host takes back that player's own last input. A spring is
 * added under a tag the player chose and removed by it, so one player's `remove()` never reaches
 * another's spring. Grid units throughout (cells; heights in fixed point), as the behaviors convert.
 *
 * The wire form (`serializePlayerInput`, `parsePlayerInput`) is JSON with a mask's values as
 * `{ "base64": ... }`; parsing checks the whole request (types, finite numbers, lengths) before
 * returning it, and the host checks what needs its field and its limits.
 */
import { bytesToBase64 } from "../base64.js";
import type { MaskName } from "../erosionState.js";
import type { GridPoint, GroundEditRequest } from "../groundEdits.js";
import type { LocalErosionEvent } from "../localErosion.js";
import type { ErosionOptionsInput } from "../options.js";
import {
    base64Payload, booleanOf, checkLocalEvent, checkMaskName, checkMaskValues, MAX_INPUT_ID, objectOf, oneOf, onlyKeys, refuserFor, shown, type Refuse,
} from "../inputLog/inputChecks.js";

/** A lockstep player's request to its host. */
export type PlayerInput =
    /** A ground edit over a disc (one point) or along a path, `radius` cells around it (a polygon's soft edge with `edit.area`). */
    | { readonly kind: "edit"; readonly edit: GroundEditRequest; readonly points: readonly GridPoint[]; readonly radius: number }
    /** A local erosion event, in grid units (what `createLocalEvent` makes). */
    | { readonly kind: "erodeAt"; readonly event: LocalErosionEvent }
    /** Simulation options over those in force (checked through the options table). */
    | { readonly kind: "options"; readonly options: ErosionOptionsInput }
    /** A mask's Q16 values (one per vertex), or null to clear it. */
    | { readonly kind: "mask"; readonly name: MaskName; readonly values: Int32Array | null }
    /** A spring at (x, y) cells, `radius` cells, `rate` cubic cells a water step, under the player's own `tag`. */
    | { readonly kind: "addSource"; readonly tag: number; readonly x: number; readonly y: number; readonly radius: number; readonly rate: number }
    /** Removes the player's spring added under `tag`. */
    | { readonly kind: "removeSource"; readonly tag: number }
    /** Takes back the player's own last input in force. */
    | { readonly kind: "undo" }
    /** Gives back the player's own last input taken back. */
    | { readonly kind: "redo" };

/** The kinds of request. */
export const PLAYER_INPUT_KINDS: readonly PlayerInput["kind"][] = ["edit", "erodeAt", "options", "mask", "addSource", "removeSource", "undo", "redo"];

/** The input as the wire's JSON text. */
export function serializePlayerInput(input: PlayerInput): string {
    return JSON.stringify(input, (_key, value) =>
        (value instanceof Int32Array ? { base64: bytesToBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) } : value)
    );
}

/** Reads a request written by `serializePlayerInput`, checked whole; throws a `RangeError` naming the field for anything else. */
export function parsePlayerInput(text: unknown, where = "player input"): PlayerInput {
    const refuse = refuserFor(where);
    if (typeof text !== "string") refuse(`it is ${typeof text}, not JSON text`);
    let raw: unknown;
    try {
        raw = JSON.parse(text as string);
    } catch {
        return refuse("it is not JSON");
    }
    const input = objectOf(raw, "it", refuse);
    if (input.kind === "mask" && input.values !== null && typeof input.values === "object") {
        const bytes = base64Payload(input.values, "values", 4, refuse);
        return checkPlayerInput({ ...input, values: new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) }, refuse);
    }
    return checkPlayerInput(input, refuse);
}

/** Finite number check for a request's coordinates and lengths. */
function finite(value: unknown, name: string, refuse: Refuse): number {
    if (typeof value !== "number" || !Number.isFinite(value)) refuse(`${name} is ${shown(value)}: it must be a finite number`);
    return value as number;
}

/** The request's edit: a known kind with its own fields, each of the right type (ranges are `shapeGroundEdit`'s). */
function checkEditRequest(raw: unknown, refuse: Refuse): GroundEditRequest {
    const edit = objectOf(raw, "edit", refuse);
    const kind = oneOf(edit.kind, "edit.kind", ["dig", "pile", "flatten", "crater"] as const, refuse);
    const optional = (name: string, check: (value: unknown, label: string, refuse: Refuse) => unknown) =>
        (edit[name] === undefined ? {} : { [name]: check(edit[name], `edit.${name}`, refuse) });
    switch (kind) {
        case "dig":
            onlyKeys(edit, ["kind", "depth", "sediment"], "edit", refuse);
            return { kind, depth: finite(edit.depth, "edit.depth", refuse), ...optional("sediment", booleanOf) };
        case "pile":
            onlyKeys(edit, ["kind", "height", "rock"], "edit", refuse);
            return { kind, height: finite(edit.height, "edit.height", refuse), ...optional("rock", finite) };
        case "flatten":
            onlyKeys(edit, ["kind", "target", "edge", "area", "rock"], "edit", refuse);
            return {
                kind,
                target: finite(edit.target, "edit.target", refuse),
                ...optional("edge", finite),
                ...optional("area", booleanOf),
                ...optional("rock", finite),
            };
        case "crater":
            onlyKeys(edit, ["kind", "depth", "rim", "sediment"], "edit", refuse);
            return { kind, depth: finite(edit.depth, "edit.depth", refuse), ...optional("rim", booleanOf), ...optional("sediment", booleanOf) };
    }
}

/** A spring's tag: the player's own handle for it. */
function tagOf(value: unknown, refuse: Refuse): number {
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_INPUT_ID)
        refuse(`its tag is ${shown(value)}: it must be a whole number in [1, ${MAX_INPUT_ID}]`);
    return value as number;
}

/**
 * Checks a request (`unknown`: parsed JSON, an object from code) and returns a clean copy: a known
 * kind with exactly its fields, each of the right type and finite. What needs the host's field and
 * limits (a rectangle inside the field, a mask's length, the largest edit) the host checks.
 */
export function checkPlayerInput(raw: unknown, refuse: Refuse): PlayerInput {
    const input = objectOf(raw, "the input", refuse);
    const kind = oneOf(input.kind, "its kind", PLAYER_INPUT_KINDS, refuse);
    const fields: Record<PlayerInput["kind"], readonly string[]> = {
        edit: ["edit", "points", "radius"],
        erodeAt: ["event"],
        options: ["options"],
        mask: ["name", "values"],
        addSource: ["tag", "x", "y", "radius", "rate"],
        removeSource: ["tag"],
        undo: [],
        redo: [],
    };
    onlyKeys(input, ["kind", ...fields[kind]], `its ${kind} request`, refuse);
    switch (kind) {
        case "edit": {
            if (!Array.isArray(input.points)) refuse(`its points are ${shown(input.points)}: they must be a list of { x, y } cells`);
            const points = (input.points as unknown[]).map((point, index) => {
                const at = objectOf(point, `points[${index}]`, refuse);
                onlyKeys(at, ["x", "y"], `points[${index}]`, refuse);
                return { x: finite(at.x, `points[${index}].x`, refuse), y: finite(at.y, `points[${index}].y`, refuse) };
            });
            return { kind, edit: checkEditRequest(input.edit, refuse), points, radius: finite(input.radius, "radius", refuse) };
        }
        case "erodeAt":
            return { kind, event: checkLocalEvent(input.event, null, refuse, "its event") };
        case "options":
            return { kind, options: objectOf(input.options, "its options", refuse) as ErosionOptionsInput };
        case "mask": {
            const name = checkMaskName(input.name, refuse);
            return { kind, name, values: checkMaskValues(name, input.values, null, refuse) };
        }
        case "addSource":
            return {
                kind,
                tag: tagOf(input.tag, refuse),
                x: finite(input.x, "x", refuse),
                y: finite(input.y, "y", refuse),
                radius: finite(input.radius, "radius", refuse),
                rate: finite(input.rate, "rate", refuse),
            };
        case "removeSource":
            return { kind, tag: tagOf(input.tag, refuse) };
        default:
            return { kind };
    }
}
