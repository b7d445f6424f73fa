/**
 * The checks of one input of each kind, whatever door it came in by: a parsed log, `give`, a replay,
 * a lockstep host's `submit`, `CpuErosionSimulation.setMasks`, a snapshot's header. An input is
 * plain data that may have come from a file or another machine, so each check takes `unknown`,
 * refuses anything but exactly what the kind allows (types, whole numbers, ranges, lengths, a
 * rectangle inside the field) and returns a clean copy, so nothing of a refused input is ever applied.
 * A refusal is a `RangeError` naming where the input came from, the field and its allowed range.
 */
import { base64ToBytes } from "../base64.js";
import { FIXED_ONE, HEIGHT_MAX_FIXED, HEIGHT_MIN_FIXED } from "../fixedPoint.js";
import { HARDNESS_MAX, HARDNESS_ONE } from "../hardness.js";
import { MASK_NAMES, type MaskName } from "../erosionState.js";
import { MAX_EDIT_AMOUNT, MAX_EDIT_VERTICES, type GroundEdit, type GroundEditKind, type GroundEditMode } from "../groundEdits.js";
import type { LocalErosionEvent } from "../localErosion.js";
import { DEFAULT_OPTIONS, resolveOptions } from "../options.js";
import { MAX_WATER_SOURCES, SOURCE_RADIUS_LIMIT, SOURCE_RATE_LIMIT, type WaterSource } from "../waterSources.js";
import type { InputStamp } from "./inputEntries.js";

/** The grid an input must fit: vertices per row and rows. */
export interface InputField {
    readonly width: number;
    readonly depth: number;
}

/** Refuses an input: throws a `RangeError` saying where it came from and `what` is wrong. */
export type Refuse = (what: string) => never;

/** A `Refuse` that prefixes `where` ("give (seq 4)", "Input log entry 3 (seq 4)"). */
export function refuserFor(where: string): Refuse {
    return (what: string): never => {
        throw new RangeError(`${where}: ${what}.`);
    };
}

/** Largest id an edit, a source or an entry may carry (they travel as 32-bit integers). */
export const MAX_INPUT_ID = 2 ** 31 - 1;

/** Most events in force and pending that a state may carry (each is a batch of droplets in a cycle). */
export const MAX_LOCAL_EVENTS = 1024;

/** Most droplets one local event rains. */
export const MAX_EVENT_DROPLETS = 1048576;

/** `value` as JSON for an error message, cut short when long. */
export function shown(value: unknown): string {
    let text: string;
    try {
        text = typeof value === "number" ? String(value) : (JSON.stringify(value) ?? String(value));
    } catch {
        text = String(value);
    }
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** `value` if it is a whole number in [min, max]; else refused, naming `name` and the range. */
export function wholeIn(value: unknown, name: string, min: number, max: number, refuse: Refuse): number {
    if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
        refuse(`${name} is ${shown(value)}: it must be a whole number in [${min}, ${max}]`);
    }
    return value as number;
}

/** `value` if it is a plain object (not null, not an array); else refused. */
export function objectOf(value: unknown, name: string, refuse: Refuse): Record<string, unknown> {
    if (typeof value !== "object" || value === null || Array.isArray(value) || ArrayBuffer.isView(value))
        refuse(`${name} is ${shown(value)}: it must be an object`);
    return value as Record<string, unknown>;
}

/** `value` if it is one of `allowed`; else refused, listing them. */
export function oneOf<T extends string>(value: unknown, name: string, allowed: readonly T[], refuse: Refuse): T {
    if (!allowed.includes(value as T)) refuse(`${name} is ${shown(value)}: it must be one of ${allowed.map((option) => JSON.stringify(option)).join(", ")}`);
    return value as T;
}

/** `value` if it is true or false; else refused. */
export function booleanOf(value: unknown, name: string, refuse: Refuse): boolean {
    if (typeof value !== "boolean") refuse(`${name} is ${shown(value)}: it must be true or false`);
    return value as boolean;
}

/** Refuses keys of `object` that are not in `known` (a misspelt or smuggled field is not ignored). */
export function onlyKeys(object: Record<string, unknown>, known: readonly string[], name: string, refuse: Refuse): void {
    for (const key of Object.keys(object)) {
        if (!known.includes(key)) refuse(`${name} has an unknown field ${JSON.stringify(key)}: its fields are ${known.join(", ")}`);
    }
}

/**
 * The bytes of a binary payload written as `{ base64 }` (a mask's values, a restore's snapshot), a
 * whole number of `multiple`-byte values; else refused, naming `name`.
 */
export function base64Payload(value: unknown, name: string, multiple: number, refuse: Refuse): Uint8Array {
    const base64 = (value as { base64?: unknown } | null)?.base64;
    if (typeof base64 !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) refuse(`its ${name} is not { base64 }`);
    let bytes: Uint8Array;
    try {
        bytes = base64ToBytes(base64 as string);
    } catch {
        return refuse(`its ${name} is not valid base64`);
    }
    if (bytes.length % multiple !== 0) refuse(`its ${name} holds ${bytes.length} bytes, not a whole number of ${multiple}-byte values`);
    return bytes;
}

/** A position `{ cycle, batch }`, whole numbers at least 0. */
export function checkStampValue(value: unknown, name: string, refuse: Refuse): InputStamp {
    const stamp = value as { cycle?: unknown; batch?: unknown } | null;
    const whole = (part: unknown) => Number.isInteger(part) && (part as number) >= 0 && (part as number) <= MAX_INPUT_ID;
    if (typeof stamp !== "object" || stamp === null || !whole(stamp.cycle) || !whole(stamp.batch)) {
        refuse(`its ${name} is ${shown(value)}: it must be { cycle, batch }, whole numbers in [0, ${MAX_INPUT_ID}]`);
    }
    return { cycle: stamp!.cycle as number, batch: stamp!.batch as number };
}

const EDIT_KINDS: readonly GroundEditKind[] = ["dig", "pile", "flatten", "crater"];
const EDIT_FIELDS = ["cycle", "batch", "id", "kind", "mode", "rect", "amounts", "target", "sediment", "rock"];

/**
 * A stamped ground edit, checked whole: a known kind with its mode (flatten levels, the others add),
 * a rectangle of at least one vertex inside the field (when known) and at most `MAX_EDIT_VERTICES`,
 * one whole amount per vertex in its kind's range (dig <= 0 <= pile; a crater's rim holds exactly
 * what its bowl removed, so its amounts sum to 0; a level share in [0, 65536]), a target in the
 * height range for a level edit (0 otherwise), sediment kept only by a dig or a crater without a
 * rim, and rock (a Q8 hardness in [HARDNESS_ONE, HARDNESS_MAX], left out for loose soil) placed only
 * by a pile or a flatten. With `stamp`, its cycle and batch must be the entry's.
 */
export function checkGroundEdit(raw: unknown, field: InputField | null, refuse: Refuse, stamp?: InputStamp): GroundEdit {
    const edit = objectOf(raw, "edit", refuse);
    onlyKeys(edit, EDIT_FIELDS, "edit", refuse);
    const cycle = wholeIn(edit.cycle, "edit.cycle", 0, MAX_INPUT_ID, refuse);
    const batch = wholeIn(edit.batch, "edit.batch", 0, MAX_INPUT_ID, refuse);
    if (stamp && (cycle !== stamp.cycle || batch !== stamp.batch)) {
        refuse(`its edit is stamped cycle ${cycle}, batch ${batch}, but the entry's stamp is cycle ${stamp.cycle}, batch ${stamp.batch}`);
    }
    const id = wholeIn(edit.id, "edit.id", 1, MAX_INPUT_ID, refuse);
    const kind = oneOf(edit.kind, "edit.kind", EDIT_KINDS, refuse);
    const mode = oneOf<GroundEditMode>(edit.mode, "edit.mode", kind === "flatten" ? ["level"] : ["add"], refuse);
    const rectIn = objectOf(edit.rect, "edit.rect", refuse);
    onlyKeys(rectIn, ["x0", "y0", "x1", "y1"], "edit.rect", refuse);
    const maxX = field ? field.width : MAX_EDIT_VERTICES;
    const maxY = field ? field.depth : MAX_EDIT_VERTICES;
    const x0 = wholeIn(rectIn.x0, "edit.rect.x0", 0, maxX - 1, refuse);
    const y0 = wholeIn(rectIn.y0, "edit.rect.y0", 0, maxY - 1, refuse);
    const x1 = wholeIn(rectIn.x1, "edit.rect.x1", x0 + 1, maxX, refuse);
    const y1 = wholeIn(rectIn.y1, "edit.rect.y1", y0 + 1, maxY, refuse);
    const cells = (x1 - x0) * (y1 - y0);
    if (cells > MAX_EDIT_VERTICES) refuse(`edit.rect covers ${cells} vertices: at most ${MAX_EDIT_VERTICES}`);
    const amountsIn = edit.amounts;
    if (!Array.isArray(amountsIn)) refuse(`edit.amounts is ${shown(amountsIn)}: it must be a list of ${cells} whole numbers (one per vertex of edit.rect)`);
    const list = amountsIn as unknown[];
    if (list.length !== cells) refuse(`edit.amounts has ${list.length} values: it must have ${cells}, one per vertex of edit.rect (${x1 - x0} x ${y1 - y0})`);
    const [low, high] =
        mode === "level"
            ? [0, FIXED_ONE]
            : kind === "dig"
              ? [-MAX_EDIT_AMOUNT, 0]
              : kind === "pile"
                ? [0, MAX_EDIT_AMOUNT]
                : [-MAX_EDIT_AMOUNT, MAX_EDIT_AMOUNT];
    const amounts = new Array<number>(cells);
    let total = 0;
    let raised = false;
    for (let i = 0; i < cells; i++) {
        const value = list[i];
        if (typeof value !== "number" || !Number.isInteger(value) || value < low || value > high) {
            refuse(`edit.amounts[${i}] is ${shown(value)}: a ${kind} edit's amounts must be whole numbers in [${low}, ${high}]`);
        }
        amounts[i] = value as number;
        total += value as number;
        raised ||= (value as number) > 0;
    }
    if (kind === "crater" && raised && total !== 0) {
        refuse(`edit.amounts of a crater with a rim sum to ${total}: the rim holds exactly what the bowl removed, so they must sum to 0`);
    }
    const target =
        mode === "level" ? wholeIn(edit.target, "edit.target", HEIGHT_MIN_FIXED, HEIGHT_MAX_FIXED, refuse) : wholeIn(edit.target, "edit.target", 0, 0, refuse);
    const sediment = booleanOf(edit.sediment, "edit.sediment", refuse);
    if (sediment && !(kind === "dig" || (kind === "crater" && !raised))) {
        refuse(
            `edit.sediment is true for a ${kind}${kind === "crater" ? " with a rim" : ""}: ` +
                `only a dig or a crater without a rim keeps what it removes as sediment`
        );
    }
    const rock = edit.rock === undefined ? undefined : wholeIn(edit.rock, "edit.rock", HARDNESS_ONE, HARDNESS_MAX, refuse);
    if (rock !== undefined && kind !== "pile" && kind !== "flatten") refuse(`edit.rock is ${rock} for a ${kind}: only a pile or a flatten places rock`);
    // In the order the schedule stamps an edit (its shape, then its stamp and id): the fingerprint
    // hashes the JSON, and an edit of loose soil has no rock field (as before there was one).
    return { kind, mode, rect: { x0, y0, x1, y1 }, amounts, target, sediment, ...(rock === undefined ? {} : { rock }), cycle, batch, id };
}

/** A mask's name: one of `MASK_NAMES`. */
export function checkMaskName(value: unknown, refuse: Refuse): MaskName {
    return oneOf(value, "the mask name", MASK_NAMES, refuse);
}

/**
 * A mask's values: null (cleared) or an `Int32Array` of one Q16 value per vertex (`cells` of them,
 * when known), each in [0, 65536] (0 holds the ground out, 65536 is full strength; a hardness or
 * soil map's share). Returns a copy.
 */
export function checkMaskValues(name: MaskName, values: unknown, cells: number | null, refuse: Refuse): Int32Array | null {
    if (values === null) return null;
    if (!(values instanceof Int32Array)) refuse(`the ${name} mask is ${shown(values)}: it must be an Int32Array of Q16 values (one per vertex) or null`);
    const mask = values as Int32Array;
    if (cells !== null && mask.length !== cells) refuse(`the ${name} mask has ${mask.length} values: it must have ${cells}, one per vertex`);
    for (let i = 0; i < mask.length; i++) {
        if (mask[i] < 0 || mask[i] > FIXED_ONE) refuse(`the ${name} mask's value ${i} is ${mask[i]}: Q16 mask values must be in [0, ${FIXED_ONE}] (0 to 1)`);
    }
    return mask.slice();
}

/**
 * A list of water sources: at most `MAX_WATER_SOURCES`, ids whole, unique and at least 1, each
 * centred on a vertex of the field (when known), a whole radius in cells and a whole rate in Q16
 * cubic cells a step within their limits. Returns copies.
 */
export function checkWaterSources(raw: unknown, field: InputField | null, refuse: Refuse, name = "sources"): WaterSource[] {
    if (!Array.isArray(raw)) refuse(`${name} is ${shown(raw)}: it must be a list of water sources`);
    const list = raw as unknown[];
    if (list.length > MAX_WATER_SOURCES) refuse(`${name} has ${list.length} water sources: at most ${MAX_WATER_SOURCES}`);
    const ids = new Set<number>();
    return list.map((item, index) => {
        const label = `${name}[${index}]`;
        const source = objectOf(item, label, refuse);
        onlyKeys(source, ["id", "column", "row", "radius", "rate"], label, refuse);
        const id = wholeIn(source.id, `${label}.id`, 1, MAX_INPUT_ID, refuse);
        if (ids.has(id)) refuse(`${label}.id is ${id}, the id of an earlier source: ids must be unique`);
        ids.add(id);
        return {
            id,
            column: wholeIn(source.column, `${label}.column`, 0, field ? field.width - 1 : MAX_INPUT_ID, refuse),
            row: wholeIn(source.row, `${label}.row`, 0, field ? field.depth - 1 : MAX_INPUT_ID, refuse),
            radius: wholeIn(source.radius, `${label}.radius`, 0, SOURCE_RADIUS_LIMIT, refuse),
            rate: wholeIn(source.rate, `${label}.rate`, 0, SOURCE_RATE_LIMIT, refuse),
        };
    });
}

/** The droplet options' names: a local event carries all of them. */
const HYDRAULIC_KEYS = Object.keys(DEFAULT_OPTIONS.hydraulic);

/**
 * A local erosion event in grid units: a Q16 centre, a Q16 radius from half a cell to the field's
 * larger side, a disc that touches the field (when known), 1 to 1,048,576 droplets, and every
 * droplet option, each checked through the options table. Returns a copy.
 */
export function checkLocalEvent(raw: unknown, field: InputField | null, refuse: Refuse, name = "event"): LocalErosionEvent {
    const event = objectOf(raw, name, refuse);
    onlyKeys(event, ["centreX", "centreY", "radius", "droplets", "hydraulic"], name, refuse);
    const side = field ? Math.max(field.width, field.depth) : 2 ** 14;
    const centreX = wholeIn(event.centreX, `${name}.centreX (Q16 cells)`, -MAX_INPUT_ID, MAX_INPUT_ID, refuse);
    const centreY = wholeIn(event.centreY, `${name}.centreY (Q16 cells)`, -MAX_INPUT_ID, MAX_INPUT_ID, refuse);
    const radius = wholeIn(event.radius, `${name}.radius (Q16 cells)`, FIXED_ONE / 2, side * FIXED_ONE, refuse);
    if (
        field &&
        (centreX + radius < 0 || centreY + radius < 0 || centreX - radius > (field.width - 1) * FIXED_ONE || centreY - radius > (field.depth - 1) * FIXED_ONE)
    ) {
        refuse(
            `${name}'s disc at (${centreX / FIXED_ONE}, ${centreY / FIXED_ONE}) cells with radius ` +
                `${radius / FIXED_ONE} misses the field (0..${field.width - 1} x 0..${field.depth - 1} cells)`
        );
    }
    const droplets = wholeIn(event.droplets, `${name}.droplets`, 1, MAX_EVENT_DROPLETS, refuse);
    const hydraulicIn = objectOf(event.hydraulic, `${name}.hydraulic`, refuse);
    onlyKeys(hydraulicIn, HYDRAULIC_KEYS, `${name}.hydraulic`, refuse);
    const missing = HYDRAULIC_KEYS.filter((key) => !(key in hydraulicIn));
    if (missing.length > 0) refuse(`${name}.hydraulic lacks ${missing.join(", ")}: an event carries every droplet option`);
    let hydraulic: LocalErosionEvent["hydraulic"];
    try {
        hydraulic = resolveOptions({ hydraulic: hydraulicIn }).hydraulic;
    } catch (error) {
        return refuse(`${name}.hydraulic is wrong (${error instanceof Error ? error.message : String(error)})`);
    }
    return { centreX, centreY, radius, droplets, hydraulic };
}

/** Local events in force or pending: at most `MAX_LOCAL_EVENTS` in all, each checked. */
export function checkLocalEvents(raw: unknown, field: InputField | null, refuse: Refuse, name: string): LocalErosionEvent[] {
    if (!Array.isArray(raw)) refuse(`${name} is ${shown(raw)}: it must be a list of local events`);
    const list = raw as unknown[];
    if (list.length > MAX_LOCAL_EVENTS) refuse(`${name} has ${list.length} events: at most ${MAX_LOCAL_EVENTS}`);
    return list.map((event, index) => checkLocalEvent(event, field, refuse, `${name}[${index}]`));
}
