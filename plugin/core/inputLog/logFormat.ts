/**
 * The input log's serialised form: JSON, `{ "format": "terrain-erosion-log", "version": 1,
 * "entries": [...] }`, each entry its fields as `InputEntry` names them, with binary payloads (a
 * mask's values, a restore's snapshot) as `{ "base64": "..." }` (an `Int32Array`'s bytes little-
 * endian). Reading checks everything before returning anything: the format and version, each entry's
 * kind, numbering (strictly increasing), stamps (whole, `stamp` at or after `at`, `at` never going
 * back except after a reset or a restore) and payload, so a bad log is refused whole with an error
 * naming the entry and what is wrong. Documented in docs/simulation.md ("The input log").
 */
import { MASK_NAMES } from "../erosionState.js";
import { resolveOptions, simulationOptions } from "../options.js";
import { base64ToBytes, bytesToBase64 } from "../base64.js";
import { BOUNDARY_KINDS, compareStamps, INPUT_KINDS, type InputEntry, type InputStamp } from "./inputEntries.js";

/** The format's name and version: a reader refuses others. */
export const INPUT_LOG_FORMAT = "terrain-erosion-log";
export const INPUT_LOG_VERSION = 1;

/** The entries as the format's JSON text. */
export function serializeInputLog(entries: readonly InputEntry[]): string {
    const ordered = entries.map(({ seq, at, stamp, ...payload }) => ({ seq, at, stamp, ...payload }));
    return JSON.stringify({ format: INPUT_LOG_FORMAT, version: INPUT_LOG_VERSION, entries: ordered }, (_key, value) => {
        if (value instanceof Int32Array) return { base64: bytesToBase64(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) };
        if (value instanceof Uint8Array) return { base64: bytesToBase64(value) };
        return value;
    });
}

/** Reads a log written by `serializeInputLog`; throws a `RangeError` naming what is wrong (and returns nothing) for anything else. */
export function parseInputLog(text: string): InputEntry[] {
    let parsed: unknown;
    try {
        parsed = JSON.parse(text);
    } catch (error) {
        throw new RangeError(`The input log is not JSON (${error instanceof Error ? error.message : String(error)}): it may be truncated.`);
    }
    const log = parsed as { format?: unknown; version?: unknown; entries?: unknown };
    if (typeof log !== "object" || log === null || log.format !== INPUT_LOG_FORMAT) {
        throw new RangeError(`This is not an input log: its "format" is ${JSON.stringify(log?.format)}, not "${INPUT_LOG_FORMAT}".`);
    }
    if (log.version !== INPUT_LOG_VERSION) {
        throw new RangeError(`The input log is version ${JSON.stringify(log.version)}; this package reads version ${INPUT_LOG_VERSION} only.`);
    }
    if (!Array.isArray(log.entries)) throw new RangeError(`The input log's "entries" is not a list.`);
    const entries: InputEntry[] = [];
    let previous: InputEntry | null = null;
    for (const [index, raw] of log.entries.entries()) {
        const entry = readEntry(raw, index);
        if (previous) {
            if (entry.seq <= previous.seq) throw new RangeError(`Input log entry ${index} is numbered ${entry.seq}, after ${previous.seq}: entries must be numbered in increasing order.`);
            const restarted = previous.kind === "reset" || previous.kind === "restore";
            if (!restarted && compareStamps(entry.at, previous.at) < 0) {
                throw new RangeError(`Input log entry ${index} (seq ${entry.seq}) was given at cycle ${entry.at.cycle}, batch ${entry.at.batch}, before the entry ahead of it: a log never goes back except after a reset or a restore.`);
            }
        }
        entries.push(entry);
        previous = entry;
    }
    return entries;
}

function readEntry(raw: unknown, index: number): InputEntry {
    const fail = (what: string): never => {
        throw new RangeError(`Input log entry ${index}: ${what}.`);
    };
    if (typeof raw !== "object" || raw === null) fail("it is not an object");
    const entry = raw as Record<string, unknown>;
    if (!INPUT_KINDS.includes(entry.kind as never)) fail(`its kind is ${JSON.stringify(entry.kind)}, not one of ${INPUT_KINDS.join(", ")}`);
    if (!Number.isInteger(entry.seq) || (entry.seq as number) < 1) fail(`its seq is ${JSON.stringify(entry.seq)}: it must be a whole number, at least 1`);
    const at = readStamp(entry.at, "at", fail);
    const stamp = readStamp(entry.stamp, "stamp", fail);
    if (compareStamps(stamp, at) < 0) fail(`its stamp (cycle ${stamp.cycle}, batch ${stamp.batch}) is before where it was given (cycle ${at.cycle}, batch ${at.batch})`);
    if (BOUNDARY_KINDS.includes(entry.kind as never) && stamp.batch !== 0) fail(`a ${entry.kind as string} entry applies at a cycle boundary, but its stamp's batch is ${stamp.batch}`);
    const base = { seq: entry.seq as number, at, stamp };
    switch (entry.kind) {
        case "options":
            try {
                return { ...base, kind: "options", options: simulationOptions(resolveOptions(entry.options as object)) };
            } catch (error) {
                return fail(`its options are wrong (${error instanceof Error ? error.message : String(error)})`);
            }
        case "mask":
            if (!MASK_NAMES.includes(entry.name as never)) fail(`its mask name is ${JSON.stringify(entry.name)}, not one of ${MASK_NAMES.join(", ")}`);
            return { ...base, kind: "mask", name: entry.name as (typeof MASK_NAMES)[number], values: entry.values === null ? null : new Int32Array(readBytes(entry.values, "values", fail, 4).buffer) };
        case "erodeAt":
            if (typeof entry.event !== "object" || entry.event === null) fail("its event is missing");
            return { ...base, kind: "erodeAt", event: entry.event as never };
        case "sources":
            if (!Array.isArray(entry.sources)) fail("its sources are not a list");
            return { ...base, kind: "sources", sources: entry.sources as never };
        case "edit": {
            const edit = entry.edit as Record<string, unknown> | null;
            if (typeof edit !== "object" || edit === null || !Array.isArray(edit.amounts) || !Number.isInteger(edit.id)) fail("its edit is missing or has no amounts or id");
            if (edit!.cycle !== stamp.cycle || edit!.batch !== stamp.batch) fail(`its edit is stamped cycle ${edit!.cycle}, batch ${edit!.batch}, but the entry's stamp is cycle ${stamp.cycle}, batch ${stamp.batch}`);
            return { ...base, kind: "edit", edit: edit as never };
        }
        case "reset":
            if (typeof entry.heights !== "string") fail("its heights hash is missing");
            return { ...base, kind: "reset", heights: entry.heights as string };
        case "restore":
            return { ...base, kind: "restore", snapshot: readBytes(entry.snapshot, "snapshot", fail, 1) };
        default:
            if (!Number.isInteger(entry.target) || (entry.target as number) < 1 || (entry.target as number) >= base.seq) fail(`its target is ${JSON.stringify(entry.target)}: it must be the seq of an earlier entry`);
            return { ...base, kind: entry.kind as "undo" | "redo", target: entry.target as number };
    }
}

function readStamp(value: unknown, name: string, fail: (what: string) => never): InputStamp {
    const stamp = value as { cycle?: unknown; batch?: unknown } | null;
    if (typeof stamp !== "object" || stamp === null || !Number.isInteger(stamp.cycle) || !Number.isInteger(stamp.batch) || (stamp.cycle as number) < 0 || (stamp.batch as number) < 0) {
        fail(`its ${name} is ${JSON.stringify(value)}: it must be { cycle, batch }, whole numbers at least 0`);
    }
    return { cycle: stamp!.cycle as number, batch: stamp!.batch as number };
}

function readBytes(value: unknown, name: string, fail: (what: string) => never, multiple: number): Uint8Array {
    const base64 = (value as { base64?: unknown } | null)?.base64;
    if (typeof base64 !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) fail(`its ${name} is not { base64 }`);
    const bytes = base64ToBytes(base64 as string);
    if (bytes.length % multiple !== 0) fail(`its ${name} holds ${bytes.length} bytes, not a whole number of ${multiple}-byte values`);
    return bytes;
}
