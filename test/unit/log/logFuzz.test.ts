/**
 * The input log as a careless or hostile writer leaves it: every field of every entry kind truncated
 * (removed), retyped, resized, out of range, fractional and negative, and every edit's rectangle at
 * and past each edge of the field. Each damaged log is refused whole by `parseInputLog`, naming the
 * entry's seq and the field; the same damage given in memory (with NaN too) to `give` changes
 * nothing; and the untouched log still replays to the live run's fingerprint.
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { parseInputLog, replayInputLog, serializeInputLog } from "../../../plugin/lockstep.js";
import { findOptionSpec } from "../../../plugin/advanced.js";

const size = 17;
const field = { width: size, depth: size };
const metres = (value: number) => Math.round(value * 65536);

/** A run that gives every kind of entry once or more. */
function recordedRun() {
    const sim = new CpuErosionSimulation(size, size, heightsToFixed(generateNoiseTerrain({ width: size, depth: size, seed: 9, relief: 8 })), resolveOptions({ patchSize: 16, hydraulic: { dropletsPerBatch: 16 }, water: { enabled: true, stepsPerCycle: 1 } }));
    const first = sim.snapshot();
    sim.runBatch();
    sim.schedule.setOptions(resolveOptions({ ...sim.schedule.latestOptions, thermal: { talus: 0.7 } }));
    sim.erodeAt(8, 8, 3, { droplets: 40 });
    sim.addWaterSource(4, 12, 1, 0.05);
    sim.setMasks({ ...sim.schedule.latestMasks, rivers: new Int32Array(size * size).fill(40000) });
    sim.runCycles(1);
    const saved = sim.snapshot();
    sim.edit({ kind: "dig", depth: metres(1) }, [{ x: 3, y: 3 }], 2.5);
    sim.edit({ kind: "crater", depth: metres(1.5) }, [{ x: 11, y: 10 }], 2);
    sim.runBatch();
    sim.edit({ kind: "pile", height: metres(0.5), rock: 10 }, [{ x: 0, y: 16 }, { x: 16, y: 16 }], 1.5); // along the field's last row, of rock
    sim.edit({ kind: "flatten", target: metres(3) }, [{ x: 16, y: 0 }], 3); // at its corner
    sim.restore(saved);
    sim.runBatch();
    sim.edit({ kind: "dig", depth: metres(0.5) }, [{ x: 8, y: 8 }], 2);
    sim.undo();
    sim.redo();
    sim.reset();
    sim.runBatch();
    return { sim, first };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path into an entry (objects' fields, a list's first, middle and last item), with its value. */
function paths(value: Json, at: (string | number)[] = []): { path: (string | number)[]; value: Json }[] {
    const found = at.length > 0 ? [{ path: at, value }] : [];
    if (Array.isArray(value)) {
        const picks = [...new Set([0, value.length >> 1, value.length - 1])].filter((index) => index >= 0 && index < value.length);
        return [...found, ...picks.flatMap((index) => paths(value[index], [...at, index]))];
    }
    if (value !== null && typeof value === "object") return [...found, ...Object.entries(value).flatMap(([key, inner]) => paths(inner, [...at, key]))];
    return found;
}

/** The damages of one value: [name, new value, or undefined to remove it]. */
function damages(value: Json): [string, Json | undefined][] {
    const out: [string, Json | undefined][] = [["removed", undefined], ["retyped as an object", { x: 1 }], ["retyped as a list", [1]]];
    if (typeof value === "number") out.push(["retyped as a string", String(value)], ["out of range", 1e15], ["negative", -1 - Math.abs(value) * 2 - 2 ** 31], ["fractional", value + 0.5], ["null", null]);
    if (typeof value === "string") out.push(["retyped as a number", 7], ["changed", `${value}x`]);
    if (typeof value === "boolean") out.push(["retyped as a number", 1]);
    if (Array.isArray(value)) out.push(["truncated", value.slice(0, value.length >> 1)], ["resized", [...value, value[0] ?? 0]], ["emptied", []]);
    return out;
}

function damaged(text: string, index: number, path: (string | number)[], replacement: Json | undefined): string {
    const log = JSON.parse(text);
    let parent = log.entries[index];
    for (const key of path.slice(0, -1)) parent = parent[key];
    const last = path.at(-1)!;
    if (replacement === undefined) {
        if (Array.isArray(parent)) parent.splice(last as number, 1);
        else delete parent[last];
    } else parent[last] = replacement;
    return JSON.stringify(log);
}

/**
 * Whether a damage leaves a value the kind allows: a real-valued option made fractional is another
 * option, a water-source list of any length is a list of sources (its items are checked), and a
 * pile without its rock is a pile of loose soil.
 */
function stillAllowed(path: (string | number)[], damage: string): boolean {
    if (path.join(".") === "edit.rock" && damage === "removed") return true;
    const optionPath = path[0] === "options" ? path.slice(1).join(".") : path[0] === "event" && path[1] === "hydraulic" ? path.slice(1).join(".") : null;
    if (optionPath !== null && damage === "fractional") return findOptionSpec(optionPath)?.kind === "number";
    return path[0] === "sources" && (path.length === 1 ? ["truncated", "emptied"].includes(damage) : path.length === 2 && damage === "removed");
}

/** The field's name in a message: the path's last named part (a list item names its list). */
function fieldName(path: (string | number)[]): string {
    const named = path.filter((part) => typeof part === "string") as string[];
    return named.at(-1) ?? "";
}

describe("the input log against damage", () => {
    const { sim, first } = recordedRun();
    const text = serializeInputLog(sim.log.entries);
    const entries = JSON.parse(text).entries as { [key: string]: Json }[];

    it("gives every kind of entry", () => {
        expect(new Set(entries.map((entry) => entry.kind))).toEqual(new Set(["options", "mask", "erodeAt", "sources", "edit", "restore", "undo", "redo", "reset"]));
    });

    it("refuses every damaged field of every entry whole, naming the entry's seq and the field", () => {
        let tried = 0;
        const accepted: string[] = [];
        const unnamed: string[] = [];
        entries.forEach((entry, index) => {
            for (const { path, value } of paths(entry)) {
                // A field's own name changing is not a damage of its value; `kind` changes are covered below by retyping.
                for (const [damage, replacement] of damages(value)) {
                    const broken = damaged(text, index, path, replacement);
                    if (broken === text || stillAllowed(path, damage)) continue;
                    tried++;
                    const where = `entry ${index} (${entry.kind as string}) ${path.join(".")} ${damage}`;
                    try {
                        parseInputLog(broken, field);
                        accepted.push(where);
                    } catch (error) {
                        const message = (error as Error).message;
                        expect(error).toBeInstanceOf(RangeError);
                        const named = path[0] === "seq" ? message.includes(`entry ${index}`) : message.includes(`seq ${entry.seq as number}`);
                        if (!named || !message.includes(fieldName(path).replace(/^(at|stamp)$/, "$1"))) unnamed.push(`${where}: ${message}`);
                    }
                }
            }
        });
        console.log(`${tried} damaged logs, each refused whole`);
        expect(accepted).toEqual([]);
        expect(unnamed).toEqual([]);
        expect(tried).toBeGreaterThan(500);
    });

    it("refuses an edit's rectangle past each edge of the field, and takes one at the edge", () => {
        const index = entries.findIndex((entry) => entry.kind === "edit" && (entry.edit as { kind: string }).kind === "pile");
        const edit = entries[index].edit as { rect: { x0: number; y0: number; x1: number; y1: number }; amounts: number[] };
        expect(edit.rect.x1).toBe(size); // the pile along the last row touches the east and south edges
        expect(edit.rect.y1).toBe(size);
        expect(() => parseInputLog(text, field)).not.toThrow();
        const moved = (rect: object, cells: number) => {
            const log = JSON.parse(text);
            Object.assign(log.entries[index].edit, { rect: { ...edit.rect, ...rect }, amounts: Array.from({ length: cells }, () => 1) });
            return JSON.stringify(log);
        };
        const { x0, y0, x1, y1 } = edit.rect;
        const cases: [object, string][] = [
            [{ x0: x0 + 1, x1: x1 + 1 }, "x1"],
            [{ y0: y0 + 1, y1: y1 + 1 }, "y1"],
            [{ x0: -1, x1: x1 - x0 - 1 }, "x0"],
            [{ y0: -1, y1: y1 - y0 - 1 }, "y0"],
        ];
        for (const [rect, name] of cases) {
            const shifted = { ...edit.rect, ...rect };
            expect(() => parseInputLog(moved(rect, (shifted.x1 - shifted.x0) * (shifted.y1 - shifted.y0)), field)).toThrow(new RegExp(`seq ${entries[index].seq as number}\\): edit\\.rect\\.${name} is`));
        }
        // At the west and north edges, the same size: taken.
        expect(() => parseInputLog(moved({ x0: 0, x1: x1 - x0, y0: 0, y1: y1 - y0 }, (x1 - x0) * (y1 - y0)), field)).not.toThrow();
    });

    it("changes nothing when a damaged entry is given in memory (NaN, strings, short amounts)", () => {
        const parsed = parseInputLog(text, field);
        const digIndex = parsed.findIndex((entry) => entry.kind === "edit");
        const dig = parsed[digIndex] as Extract<(typeof parsed)[number], { kind: "edit" }>;
        const replay = replayInputLog(first, parsed.slice(0, digIndex), { until: dig.at });
        const before = { fingerprint: replay.fingerprint(), entries: replay.log.entries.length };
        const bad = [
            { ...dig, edit: { ...dig.edit, amounts: dig.edit.amounts.slice(0, dig.edit.amounts.length >> 1) } },
            { ...dig, edit: { ...dig.edit, amounts: dig.edit.amounts.map((amount) => String(amount)) } },
            { ...dig, edit: { ...dig.edit, amounts: dig.edit.amounts.map((amount, i) => (i === 3 ? NaN : amount)) } },
            { ...dig, edit: { ...dig.edit, mode: "sculpt" } },
            { ...dig, edit: { ...dig.edit, rect: { ...dig.edit.rect, x1: size + 1 } } },
            { ...dig, stamp: { cycle: NaN, batch: 0 } },
        ];
        for (const entry of bad) {
            expect(() => replay.give(entry as never)).toThrow(new RegExp(`give \\(seq ${dig.seq}\\)`));
            expect({ fingerprint: replay.fingerprint(), entries: replay.log.entries.length }).toEqual(before);
        }
        expect(replay.state.counters.every((value) => Number.isFinite(value))).toBe(true);
    });

    it("refuses a restore of a state that does not fit (a short grid, a mask past 65536) before logging it", () => {
        const replay = replayInputLog(first, [], { until: { cycle: 0, batch: 2 } });
        const before = { fingerprint: replay.fingerprint(), entries: replay.log.entries.length };
        const state = replay.getState();
        expect(() => replay.setState({ ...state, heights: state.heights.slice(0, 100) })).toThrow(/restore \(seq 1\): its snapshot cannot be read/);
        expect(() => replay.setState({ ...state, masks: { ...state.masks, thermal: new Int32Array(size * size).fill(70000) } })).toThrow(/the thermal mask's value 0 is 70000/);
        expect({ fingerprint: replay.fingerprint(), entries: replay.log.entries.length }).toEqual(before);
    });

    it("still replays the untouched log to the live fingerprint", () => {
        const replay = replayInputLog(first, parseInputLog(text, field), { until: sim.stamp });
        expect(replay.fingerprint()).toBe(sim.fingerprint());
    });
});
