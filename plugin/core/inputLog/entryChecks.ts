/**
 * The one check of an input-log entry, used wherever entries enter a run: `parseInputLog`,
 * `CpuErosionSimulation.give`, `replayInputLog`, a behavior's `give` and `replay`. An entry is
 * checked whole (its numbering, stamps, player and payload, by the kind's own check in
 * `inputChecks.ts`) before any of it applies, so a refused entry changes nothing: no height, no
 * counter, no log. Errors name the entry's seq, the field and its allowed range.
 */
import { DEFAULT_OPTIONS, simulationOptions, resolveOptions } from "../options.js";
import { ErosionSnapshot } from "../snapshot.js";
import { BOUNDARY_KINDS, compareStamps, INPUT_KINDS, type InputEntry, type InputPayload, type InputStamp } from "./inputEntries.js";
import {
    checkGroundEdit,
    checkLocalEvent,
    checkMaskName,
    checkMaskValues,
    checkStampValue,
    checkWaterSources,
    MAX_INPUT_ID,
    objectOf,
    oneOf,
    refuserFor,
    shown,
    wholeIn,
    type InputField,
    type Refuse,
} from "./inputChecks.js";

/** Longest player name an entry may carry. */
export const MAX_PLAYER_LENGTH = 64;

/** The kinds that apply where they were given (their stamp is their `at`). */
const AT_ONCE_KINDS: readonly InputPayload["kind"][] = ["reset", "restore", "undo", "redo"];

/** The fields every entry has besides its payload's. */
const ENTRY_FIELDS = ["seq", "at", "stamp", "kind", "player"];

/** The payload's fields of each kind. */
const PAYLOAD_FIELDS: Record<InputPayload["kind"], readonly string[]> = {
    options: ["options"],
    mask: ["name", "values"],
    erodeAt: ["event"],
    sources: ["sources"],
    edit: ["edit"],
    reset: ["heights"],
    restore: ["snapshot"],
    undo: ["target"],
    redo: ["target"],
};

/** A player's name on an entry: absent (the run's own input) or a short string. */
export function checkPlayer(value: unknown, refuse: Refuse): string | undefined {
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value.length < 1 || value.length > MAX_PLAYER_LENGTH)
        refuse(`its player is ${shown(value)}: it must be a string of 1 to ${MAX_PLAYER_LENGTH} characters`);
    return value as string;
}

/**
 * Checks an entry (`unknown`: parsed JSON, a peer's message, an object built in code) and returns a
 * clean copy; throws a `RangeError` beginning `where (seq N)` for anything it does not allow.
 * `field` is the grid it will apply to (null: checks that need the grid are left to `give`).
 */
export function checkInputEntry(raw: unknown, field: InputField | null, where: string): InputEntry {
    const entry = objectOf(raw, where, refuserFor(where));
    const seq = wholeIn(entry.seq, "its seq", 1, MAX_INPUT_ID, refuserFor(where));
    const refuse = refuserFor(`${where} (seq ${seq})`);
    const kind = oneOf(entry.kind, "its kind", INPUT_KINDS, refuse);
    for (const key of Object.keys(entry)) {
        if (!ENTRY_FIELDS.includes(key) && !PAYLOAD_FIELDS[kind].includes(key))
            refuse(`it has an unknown field ${JSON.stringify(key)}: a ${kind} entry has ${[...ENTRY_FIELDS, ...PAYLOAD_FIELDS[kind]].join(", ")}`);
    }
    const at = checkStampValue(entry.at, "at", refuse);
    const stamp = checkStampValue(entry.stamp, "stamp", refuse);
    if (compareStamps(stamp, at) < 0)
        refuse(`its stamp (cycle ${stamp.cycle}, batch ${stamp.batch}) is before where it was given (cycle ${at.cycle}, batch ${at.batch})`);
    if (BOUNDARY_KINDS.includes(kind) && stamp.batch !== 0) refuse(`a ${kind} entry applies at a cycle boundary, but its stamp's batch is ${stamp.batch}`);
    if (AT_ONCE_KINDS.includes(kind) && compareStamps(stamp, at) !== 0)
        refuse(
            `a ${kind} entry applies where it was given, but its stamp (cycle ${stamp.cycle}, ` +
                `batch ${stamp.batch}) is not its at (cycle ${at.cycle}, batch ${at.batch})`
        );
    const player = checkPlayer(entry.player, refuse);
    const payload = checkPayloadOf(kind, entry, seq, stamp, field, refuse);
    return { ...payload, seq, at, stamp, ...(player === undefined ? {} : { player }) } as InputEntry;
}

/** Checks every entry of a list, in order, before any is used; returns the clean copies. */
export function checkInputEntries(raw: readonly unknown[], field: InputField | null, where: string): InputEntry[] {
    return raw.map((entry, index) => checkInputEntry(entry, field, `${where} ${index}`));
}

/** The payload of an entry of `kind`, checked. */
function checkPayloadOf(
    kind: InputPayload["kind"], entry: Record<string, unknown>, seq: number, stamp: InputStamp, field: InputField | null, refuse: Refuse
): InputPayload {
    switch (kind) {
        case "options": {
            const options = objectOf(entry.options, "its options", refuse);
            // An options entry carries every simulation option: one left out would silently become its default.
            const missing = missingOptions(options, simulationOptions(DEFAULT_OPTIONS) as unknown as Record<string, unknown>, "");
            if (missing.length > 0)
                refuse(
                    `its options lack ${missing.slice(0, 5).join(", ")}${missing.length > 5 ? ` and ${missing.length - 5} more` : ""}: an options entry ` +
                        `carries every simulation option`
                );
            try {
                return { kind, options: simulationOptions(resolveOptions(options)) };
            } catch (error) {
                return refuse(`its options are wrong (${error instanceof Error ? error.message : String(error)})`);
            }
        }
        case "mask": {
            const name = checkMaskName(entry.name, refuse);
            return { kind, name, values: checkMaskValues(name, entry.values, field ? field.width * field.depth : null, refuse) };
        }
        case "erodeAt":
            return { kind, event: checkLocalEvent(entry.event, field, refuse, "its event") };
        case "sources":
            return { kind, sources: checkWaterSources(entry.sources, field, refuse, "its sources") };
        case "edit":
            return { kind, edit: checkGroundEdit(entry.edit, field, refuse, stamp) };
        case "reset":
            if (typeof entry.heights !== "string" || !/^[0-9a-f]{16}$/.test(entry.heights))
                refuse(`its heights hash is ${shown(entry.heights)}: it must be 16 hexadecimal digits (FNV-1a 64)`);
            return { kind, heights: entry.heights as string };
        case "restore":
            return { kind, snapshot: checkRestoreBytes(entry.snapshot, field, refuse) };
        case "undo":
        case "redo":
            return { kind, target: wholeIn(entry.target, "its target", 1, seq - 1, refuse) };
    }
}

/** The dotted paths of `reference`'s options that `options` lacks. */
function missingOptions(options: Record<string, unknown>, reference: Record<string, unknown>, prefix: string): string[] {
    return Object.entries(reference).flatMap(([key, value]) => {
        if (!(key in options)) return [`${prefix}${key}`];
        const given = options[key];
        return typeof value === "object" && value !== null && typeof given === "object" && given !== null
            ? missingOptions(given as Record<string, unknown>, value as Record<string, unknown>, `${prefix}${key}.`)
            : [];
    });
}

/** A restore's bytes: a snapshot this build reads whole, of the field's size. Returns a copy. */
function checkRestoreBytes(value: unknown, field: InputField | null, refuse: Refuse): Uint8Array {
    if (!(value instanceof Uint8Array)) refuse(`its snapshot is ${shown(value)}: it must be a snapshot's bytes`);
    const bytes = (value as Uint8Array).slice();
    let snapshot: ErosionSnapshot;
    try {
        snapshot = ErosionSnapshot.fromArrayBuffer(bytes.buffer);
    } catch (error) {
        return refuse(`its snapshot cannot be read (${error instanceof Error ? error.message : String(error)})`);
    }
    if (field && (snapshot.state.width !== field.width || snapshot.state.depth !== field.depth)) {
        refuse(`its snapshot is of a ${snapshot.state.width} x ${snapshot.state.depth} field, not this ${field.width} x ${field.depth} one`);
    }
    return bytes;
}
