/**
 * The input log's serialised form: JSON, `{ "format": "terrain-erosion-log", "version": 1,
 * "entries": [...] }`, each entry its fields as `InputEntry` names them, with binary payloads (a
 * mask's values, a restore's snapshot) as `{ "base64": "..." }` (an `Int32Array`'s bytes little-
 * endian). Reading checks everything before returning anything: the format and version, each entry
 * whole (`entryChecks.ts`: kind, stamps, payload), numbering (strictly increasing) and the order of
 * stamps (`at` never going back except after a reset or a restore), so a bad log is refused whole
 * with an error naming the entry and what is wrong. Documented in docs/simulation.md ("The input log").
 */
import { bytesToBase64 } from "../base64.js";
import { compareStamps, type InputEntry } from "./inputEntries.js";
import { checkInputEntry } from "./entryChecks.js";
import { base64Payload, refuserFor, type InputField } from "./inputChecks.js";

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

/**
 * Reads a log written by `serializeInputLog`, checked whole before anything is returned: every entry
 * by `checkInputEntry` (with `field`, the grid it will apply to, also the checks that need it), the
 * numbering and the order of stamps. Throws a `RangeError` naming the entry, its seq, the field and
 * the allowed range for anything else.
 */
export function parseInputLog(text: string, field: InputField | null = null): InputEntry[] {
    if (typeof text !== "string") throw new RangeError(`The input log is ${typeof text}: it must be the log's JSON text.`);
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
        const where = `Input log entry ${index}`;
        const entry = checkInputEntry(decodeBinary(raw, where), field, where);
        if (previous) {
            if (entry.seq <= previous.seq)
                throw new RangeError(`${where} is numbered ${entry.seq}, after ${previous.seq}: entries must be numbered in increasing order.`);
            const restarted = previous.kind === "reset" || previous.kind === "restore";
            if (!restarted && compareStamps(entry.at, previous.at) < 0) {
                throw new RangeError(
                    `${where} (seq ${entry.seq}) was given at cycle ${entry.at.cycle}, batch ${entry.at.batch}, ` +
                        `before the entry ahead of it: a log never goes back except after a reset or a restore.`
                );
            }
        }
        entries.push(entry);
        previous = entry;
    }
    return entries;
}

/** The entry with its `{ base64 }` payloads (a mask's values, a restore's snapshot) as the arrays `checkInputEntry` takes. */
function decodeBinary(raw: unknown, where: string): unknown {
    if (typeof raw !== "object" || raw === null) return raw;
    const entry = raw as Record<string, unknown>;
    const seq = Number.isInteger(entry.seq) ? ` (seq ${entry.seq as number})` : "";
    if (entry.kind === "mask" && entry.values !== null) {
        const bytes = base64Payload(entry.values, "values", 4, refuserFor(`${where}${seq}`));
        return { ...entry, values: new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) };
    }
    if (entry.kind === "restore") return { ...entry, snapshot: base64Payload(entry.snapshot, "snapshot", 1, refuserFor(`${where}${seq}`)) };
    return raw;
}
