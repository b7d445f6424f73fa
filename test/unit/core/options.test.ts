import { DEFAULT_OPTIONS, ErosionOptionError, OPTION_SPECS, resolveOptions, RUNTIME_SETTINGS, talusFromAngle, type ErosionOptionsInput } from "../../../plugin/index.js";
import { withOptionValue, getOptionValue, simulationOptions } from "../../../plugin/advanced.js";

function inputFor(path: string, value: unknown): ErosionOptionsInput {
    const [group, key] = path.includes(".") ? path.split(".") : ["", path];
    return (group ? { [group]: { [key]: value } } : { [key]: value }) as ErosionOptionsInput;
}

describe("the options table", () => {
    it("is the single source of the defaults", () => {
        for (const spec of OPTION_SPECS) {
            expect(getOptionValue(DEFAULT_OPTIONS, spec.path)).toBe(spec.defaultValue);
        }
        const keys = (value: object, prefix = ""): string[] => Object.entries(value).flatMap(([key, inner]) => (inner && typeof inner === "object" ? keys(inner, `${key}.`) : [`${prefix}${key}`]));
        expect(keys(DEFAULT_OPTIONS).sort()).toEqual(OPTION_SPECS.map((spec) => spec.path).sort());
    });

    it("marks the runtime settings, which simulationOptions leaves out", () => {
        expect(OPTION_SPECS.filter((spec) => spec.runtime).map((spec) => spec.path)).toEqual([...RUNTIME_SETTINGS]);
        const simulation = simulationOptions(resolveOptions({ frameBudgetMs: 9, seed: 4, thermal: { talus: 0.3 } }));
        expect(Object.keys(simulation).filter((key) => (RUNTIME_SETTINGS as readonly string[]).includes(key))).toEqual([]);
        expect(simulation.seed).toBe(4);
        expect(simulation.thermal.talus).toBe(0.3);
    });

    it("documents every option with a unit field and a description", () => {
        for (const spec of OPTION_SPECS) {
            expect(spec.description.length).toBeGreaterThan(10);
            if (spec.kind === "number" || spec.kind === "integer") {
                expect(spec.min).toBeLessThanOrEqual(spec.defaultValue as number);
                expect(spec.max).toBeGreaterThanOrEqual(spec.defaultValue as number);
            }
        }
    });
});

describe("resolveOptions", () => {
    it("merges groups over the defaults without touching them", () => {
        const options = resolveOptions({ seed: 9, hydraulic: { inertia: 0.5 } });
        expect(options.seed).toBe(9);
        expect(options.hydraulic.inertia).toBe(0.5);
        expect(options.hydraulic.capacity).toBe(DEFAULT_OPTIONS.hydraulic.capacity);
        expect(options.thermal).toEqual(DEFAULT_OPTIONS.thermal);
        expect(DEFAULT_OPTIONS.hydraulic.inertia).toBe(0.3);
    });

    const invalid: [string, unknown][] = [];
    for (const spec of OPTION_SPECS) {
        invalid.push([spec.path, "a string"]);
        if (spec.kind === "number" || spec.kind === "integer") {
            invalid.push([spec.path, NaN], [spec.path, Infinity], [spec.path, -Infinity], [spec.path, (spec.min as number) - 1], [spec.path, (spec.max as number) + 1]);
        }
        if (spec.kind === "integer") {
            invalid.push([spec.path, (spec.min as number) + 0.5]);
        }
        if (spec.kind === "enum") {
            invalid.push([spec.path, "nonsense"]);
        }
        if (spec.kind === "boolean") {
            invalid.push([spec.path, 1]);
        }
    }

    it.each(invalid)("rejects %s = %p with an error naming the option, the value and the range", (path, value) => {
        let error: unknown;
        try {
            resolveOptions(inputFor(path, value));
        } catch (caught) {
            error = caught;
        }
        expect(error).toBeInstanceOf(ErosionOptionError);
        const optionError = error as ErosionOptionError;
        expect(optionError.option).toBe(path);
        expect(optionError.message).toContain(`"${path}"`);
        expect(optionError.message).toContain(String(typeof value === "string" ? JSON.stringify(value) : value));
        expect(optionError.message).toMatch(/must be/);
    });

    it("accepts the ends of every range", () => {
        for (const spec of OPTION_SPECS) {
            if (spec.kind === "number" || spec.kind === "integer") {
                expect(() => resolveOptions(inputFor(spec.path, spec.min))).not.toThrow();
                expect(() => resolveOptions(inputFor(spec.path, spec.max))).not.toThrow();
            }
        }
    });

    it("rejects unknown options and suggests the likely one", () => {
        expect(() => resolveOptions({ hydraulic: { inertai: 0.2 } } as never)).toThrow(/Unknown erosion option "hydraulic.inertai". Did you mean "hydraulic.inertia"\?/);
        expect(() => resolveOptions({ sed: 3 } as never)).toThrow(/Did you mean "seed"\?/);
        expect(() => resolveOptions({ hydraulic: 3 } as never)).toThrow(/"hydraulic" must be an object/);
        expect(() => resolveOptions(null as never)).toThrow(/must be an object/);
    });

    it("changes one option by path", () => {
        expect(withOptionValue(DEFAULT_OPTIONS, "thermal.talus", 2).thermal.talus).toBe(2);
        expect(() => withOptionValue(DEFAULT_OPTIONS, "thermal.talus", -1)).toThrow(ErosionOptionError);
    });
});

describe("talusFromAngle", () => {
    it("turns an angle of repose into a slope (rise over run)", () => {
        expect(talusFromAngle(45)).toBeCloseTo(1, 12);
        expect(talusFromAngle(30)).toBeCloseTo(Math.sqrt(3) / 3, 12);
        expect(talusFromAngle(0)).toBe(0);
        expect(() => talusFromAngle(95)).toThrow(/angleDegrees is 95/);
        expect(() => talusFromAngle(NaN)).toThrow(/angleDegrees/);
    });
});
