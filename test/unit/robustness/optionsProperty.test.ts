/**
 * Property-based: random option sets, valid and invalid. Valid ones run (and conserve mass),
 * invalid ones throw an ErosionOptionError naming one of the bad options, and nothing in between.
 */
import { CpuErosionSimulation, ErosionOptionError, heightsToFixed, OPTION_SPECS, resolveOptions, type OptionSpec } from "../../../plugin/index.js";
import { generateNoiseTerrain } from "../../../plugin/terrain.js";
import { conservedMass, createInitialState } from "../../../plugin/advanced.js";

/** mulberry32: a small seeded PRNG, so every failure is reproducible from its seed. */
function random(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

/** Upper ends sampled for valid values of the options that set how much work a batch does (the table allows more). */
const WORK_CAPS: Record<string, number> = { "hydraulic.dropletsPerBatch": 2048, "hydraulic.maxSteps": 96, "thermal.iterations": 8, patchSize: 64 };

function validValue(spec: OptionSpec, next: () => number): unknown {
    switch (spec.kind) {
        case "boolean":
            return next() < 0.5;
        case "enum":
            return spec.values![Math.floor(next() * spec.values!.length)];
        case "integer": {
            const max = Math.min(spec.max!, WORK_CAPS[spec.path] ?? spec.max!);
            return spec.min! + Math.floor(next() * (max - spec.min! + 1));
        }
        case "number": {
            const edge = next();
            return edge < 0.1 ? spec.min : edge < 0.2 ? spec.max : spec.min! + next() * (spec.max! - spec.min!);
        }
    }
}

function invalidValue(spec: OptionSpec, next: () => number): unknown {
    const hostile = "0u; } @compute @workgroup_size(1) fn main() { loop {} } //";
    const common = [hostile, null, {}, [], "1"];
    const numeric = [NaN, Infinity, -Infinity, (spec.min ?? 0) - 1, (spec.max ?? 0) + 1, (spec.max ?? 0) * 10 + 1];
    const candidates = spec.kind === "boolean" ? [...common, 0, 1, "true"] : spec.kind === "enum" ? [...common, "nonsense", 5, true] : spec.kind === "integer" ? [...common, ...numeric, (spec.min ?? 0) + 0.5, true] : [...common, ...numeric, true];
    return candidates[Math.floor(next() * candidates.length)];
}

describe("random option sets", () => {
    const width = 23;
    const depth = 17;
    const heights = heightsToFixed(generateNoiseTerrain({ width, depth, relief: 15, seed: 3 }));
    const initialMass = conservedMass(createInitialState(width, depth, heights));

    it.each(Array.from({ length: 60 }, (_, i) => i + 1))("set %i: valid ones run and conserve mass, invalid ones throw naming a bad option", (seed) => {
        const next = random(seed * 7919);
        const input: Record<string, Record<string, unknown> | unknown> = {};
        const bad: string[] = [];
        for (const spec of OPTION_SPECS) {
            const roll = next();
            if (roll < 0.3) continue; // left at its default
            const value = roll < 0.36 ? invalidValue(spec, next) : validValue(spec, next);
            if (roll < 0.36) bad.push(spec.path);
            if (spec.group) {
                input[spec.group] = { ...((input[spec.group] as object) ?? {}), [spec.key]: value };
            } else {
                input[spec.key] = value;
            }
        }
        if (next() < 0.1) {
            input["thermal"] = { ...((input["thermal"] as object) ?? {}), tallus: 1 };
            bad.push("thermal.tallus");
        }
        if (bad.length > 0) {
            let error: unknown;
            try {
                resolveOptions(input as never);
            } catch (caught) {
                error = caught;
            }
            expect(error).toBeInstanceOf(ErosionOptionError);
            expect(bad).toContain((error as ErosionOptionError).option);
            return;
        }
        const simulation = new CpuErosionSimulation(width, depth, heights, resolveOptions(input as never));
        simulation.runCycles(1);
        expect(conservedMass(simulation.state)).toBe(initialMass);
        expect(simulation.state.cycle).toBe(1);
    });

    it("rejects a hostile string anywhere a number, a boolean or a choice is expected, before any work", () => {
        const hostile = '"; } @group(0) @binding(0) var<storage, read_write> x: array<u32>; fn evil() { //';
        for (const spec of OPTION_SPECS) {
            const input = spec.group ? { [spec.group]: { [spec.key]: hostile } } : { [spec.key]: hostile };
            expect(() => resolveOptions(input as never)).toThrow(ErosionOptionError);
        }
    });
});
