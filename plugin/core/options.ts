/**
 * The defaults object and validation, derived from `OPTION_SPECS`; the types are in `optionTypes.ts`
 * (re-exported here).
 */
import { OPTION_SPECS, describeAllowedValues, findOptionSpec, type OptionSpec } from "./optionsTable.js";
import type { ErosionOptions, ErosionOptionsInput, ErosionSettings, SimulationOptions } from "./optionTypes.js";

export type * from "./optionTypes.js";

/** An option outside its allowed range or of the wrong type, or an unknown option name. */
export class ErosionOptionError extends RangeError {
    /** Dotted path of the offending option, e.g. `"hydraulic.inertia"`. */
    public readonly option: string;
    /** The value that was rejected. */
    public readonly value: unknown;

    constructor(option: string, value: unknown, message: string) {
        super(message);
        this.name = "ErosionOptionError";
        this.option = option;
        this.value = value;
    }
}

const GROUPS = ["hydraulic", "rivers", "thermal", "water", "materials"] as const;

function buildDefaults(): ErosionOptions {
    const result: Record<string, unknown> = {};
    for (const group of GROUPS) {
        result[group] = {};
    }
    for (const spec of OPTION_SPECS) {
        const target = (spec.group ? result[spec.group] : result) as Record<string, unknown>;
        target[spec.key] = spec.defaultValue;
    }
    return result as unknown as ErosionOptions;
}

/** The defaults, built from `OPTION_SPECS`. Frozen; copy it with `resolveOptions()`. */
export const DEFAULT_OPTIONS: Readonly<ErosionOptions> = deepFreeze(buildDefaults());

function deepFreeze<T extends object>(value: T): T {
    for (const inner of Object.values(value)) {
        if (inner && typeof inner === "object") {
            deepFreeze(inner);
        }
    }
    return Object.freeze(value);
}

function formatValue(value: unknown): string {
    if (typeof value === "string") {
        return JSON.stringify(value);
    }
    if (typeof value === "number" || typeof value === "boolean" || value === null || value === undefined) {
        return String(value);
    }
    try {
        return JSON.stringify(value) ?? String(value);
    } catch {
        return Object.prototype.toString.call(value);
    }
}

function editDistance(a: string, b: string): number {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        let previousDiagonal = row[0];
        row[0] = i;
        for (let j = 1; j <= b.length; j++) {
            const saved = row[j];
            const cost = a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1;
            row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previousDiagonal + cost);
            previousDiagonal = saved;
        }
    }
    return row[b.length];
}

/** `candidates` are dotted paths; the error suggests the closest one to `path`. */
function unknownOptionError(path: string, value: unknown, candidates: readonly string[]): ErosionOptionError {
    let best = "";
    let bestDistance = Infinity;
    for (const candidate of candidates) {
        const distance = editDistance(path, candidate);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = candidate;
        }
    }
    const leaf = path.slice(path.lastIndexOf(".") + 1);
    const hint = bestDistance <= Math.max(2, Math.floor(leaf.length / 3)) ? ` Did you mean "${best}"?` : "";
    return new ErosionOptionError(path, value, `Unknown erosion option "${path}".${hint} Known options here: ${candidates.join(", ")}.`);
}

/** Checks one value against its row of the table; throws `ErosionOptionError` if it does not fit. */
export function validateOptionValue(spec: OptionSpec, value: unknown): void {
    const fail = (): never => {
        throw new ErosionOptionError(
            spec.path, value,
            `Erosion option "${spec.path}" is ${formatValue(value)}: it must be ${describeAllowedValues(spec)}${spec.unit ? ` (${spec.unit})` : ""}.`
        );
    };
    switch (spec.kind) {
        case "boolean":
            if (typeof value !== "boolean") fail();
            return;
        case "enum":
            if (!(spec.values ?? []).includes(value as string | number)) fail();
            return;
        case "integer":
            if (typeof value !== "number" || !Number.isInteger(value) || value < (spec.min as number) || value > (spec.max as number)) fail();
            return;
        case "number":
            if (typeof value !== "number" || !Number.isFinite(value) || value < (spec.min as number) || value > (spec.max as number)) fail();
            return;
    }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Merges user options over a base (the defaults unless given; simulation options alone take the
 * default runtime settings) and validates every field: the result is both types, the runtime
 * settings (`erosionSettings`) and the simulation options (`simulationOptions`).
 * Throws `ErosionOptionError` naming the option, the value and the allowed range, or the
 * unknown option name with the closest known one. Never mutates its inputs.
 */
export function resolveOptions(
    input: ErosionOptionsInput = {}, base: Readonly<SimulationOptions & Partial<ErosionSettings>> = DEFAULT_OPTIONS
): ErosionOptions {
    if (!isPlainObject(input)) {
        throw new ErosionOptionError("options", input, `Erosion options must be an object, got ${formatValue(input)}.`);
    }
    // A base of simulation options alone (the schedule's) takes the default runtime settings.
    const result = cloneOptions({ ...erosionSettings(DEFAULT_OPTIONS), ...base });
    const topLevelKeys = OPTION_SPECS.filter((spec) => spec.group === "").map((spec) => spec.key);
    for (const [key, value] of Object.entries(input)) {
        if (value === undefined) {
            continue;
        }
        if ((GROUPS as readonly string[]).includes(key)) {
            if (!isPlainObject(value)) {
                throw new ErosionOptionError(key, value, `Erosion option "${key}" must be an object of ${key} options, got ${formatValue(value)}.`);
            }
            const groupPaths = OPTION_SPECS.filter((spec) => spec.group === key).map((spec) => spec.path);
            const target = result[key as (typeof GROUPS)[number]] as unknown as Record<string, unknown>;
            for (const [innerKey, innerValue] of Object.entries(value)) {
                if (innerValue === undefined) {
                    continue;
                }
                const spec = findOptionSpec(`${key}.${innerKey}`);
                if (!spec) {
                    throw unknownOptionError(`${key}.${innerKey}`, innerValue, groupPaths);
                }
                validateOptionValue(spec, innerValue);
                target[innerKey] = innerValue;
            }
            continue;
        }
        const spec = findOptionSpec(key);
        if (!spec || spec.group !== "") {
            throw unknownOptionError(key, value, [...topLevelKeys, ...GROUPS]);
        }
        validateOptionValue(spec, value);
        (result as unknown as Record<string, unknown>)[key] = value;
    }
    return result;
}

/** A deep copy of a resolved options object. */
export function cloneOptions<T extends SimulationOptions = ErosionOptions>(options: Readonly<T>): T {
    return {
        ...options,
        hydraulic: { ...options.hydraulic },
        thermal: { ...options.thermal },
        rivers: { ...options.rivers },
        water: { ...options.water },
        materials: { ...options.materials },
    };
}

/**
 * The runtime settings: where and when erosion runs (the backend, the CPU workers, starting on
 * attach, the frame budget, the cycle limit, undo's memory, the stall deadline and retries), never
 * what it makes. They are options a behavior takes like any other, but snapshots, checkpoints and
 * saves carry only the simulation options (`SimulationOptions`): restoring one keeps the runtime
 * settings in force. `OPTION_SPECS` marks them `runtime`.
 */
export const RUNTIME_SETTINGS = [
    "backend", "cpuWorkers", "autoStart", "frameBudgetMs", "maxCycles", "undoMemoryMB", "stallTimeoutMs", "stallRetries",
] as const satisfies readonly (keyof ErosionSettings)[];

/** A runtime setting's name. */
export type RuntimeSettingName = (typeof RUNTIME_SETTINGS)[number];

/** The runtime settings of `options` (a copy): every field of `ErosionSettings`, so one added there must be added here. */
export function erosionSettings(options: Readonly<ErosionSettings>): ErosionSettings {
    const { backend, cpuWorkers, autoStart, frameBudgetMs, maxCycles, undoMemoryMB, stallTimeoutMs, stallRetries } = options;
    const settings: { [name in keyof ErosionSettings]: ErosionSettings[name] } = {
        backend, cpuWorkers, autoStart, frameBudgetMs, maxCycles, undoMemoryMB, stallTimeoutMs, stallRetries,
    };
    return settings;
}

/** The simulation options of `options` (a copy, without the runtime settings). */
export function simulationOptions(options: Readonly<SimulationOptions>): SimulationOptions {
    // The runtime settings are named to leave them out of the rest.
    const { backend, cpuWorkers, autoStart, frameBudgetMs, maxCycles, undoMemoryMB, stallTimeoutMs, stallRetries, ...simulation } =
        options as Readonly<ErosionOptions>;
    return {
        ...simulation,
        hydraulic: { ...simulation.hydraulic },
        thermal: { ...simulation.thermal },
        rivers: { ...simulation.rivers },
        water: { ...simulation.water },
        materials: { ...simulation.materials },
    };
}

/** Reads an option by dotted path. */
export function getOptionValue(options: Readonly<ErosionOptions>, path: string): unknown {
    const spec = findOptionSpec(path);
    if (!spec) {
        throw unknownOptionError(path, undefined, OPTION_SPECS.map((row) => row.path));
    }
    const container = (spec.group ? options[spec.group] : options) as unknown as Record<string, unknown>;
    return container[spec.key];
}

/** Returns a copy of `options` with one option changed (validated). */
export function withOptionValue(options: Readonly<ErosionOptions>, path: string, value: unknown): ErosionOptions {
    const spec = findOptionSpec(path);
    if (!spec) {
        throw unknownOptionError(path, value, OPTION_SPECS.map((row) => row.path));
    }
    const input = spec.group ? { [spec.group]: { [spec.key]: value } } : { [spec.key]: value };
    return resolveOptions(input as ErosionOptionsInput, options);
}

/**
 * `thermal.talus` (a slope, rise over run) for an angle of repose.
 * @param angleDegrees angle of repose in degrees, in [0, 89]
 */
export function talusFromAngle(angleDegrees: number): number {
    if (typeof angleDegrees !== "number" || !Number.isFinite(angleDegrees) || angleDegrees < 0 || angleDegrees > 89) {
        throw new RangeError(`talusFromAngle: angleDegrees is ${angleDegrees}: it must be a number of degrees in [0, 89].`);
    }
    return Math.tan((angleDegrees * Math.PI) / 180);
}
