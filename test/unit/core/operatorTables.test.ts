/**
 * An operator is a row in a table on each backend (issue 59): the CPU's kernels and pool
 * (`CPU_OPERATORS`), the GPU's recording and cuts (`GPU_OPERATORS`), the frame budget's work
 * units and the batch's shape (`OPERATOR_BATCHES`) each hold one row per operator. The compiler
 * checks each row against the operator type (`satisfies`); this checks the rows against the lists
 * of operators the schedule plans, and that no if-chain on an operator's name grows back beside
 * the tables.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { OPERATOR_ORDER } from "../../../plugin/advanced.js";
import { CPU_OPERATORS, GPU_OPERATORS, OPERATOR_BATCHES, OPERATOR_WORK_UNITS, PLANNED_OPERATORS } from "../../../plugin/internal.js";

const sorted = (names: Iterable<string>) => [...names].sort();

function sources(directory: string): string[] {
    return readdirSync(directory).flatMap((name) => {
        const path = join(directory, name);
        if (statSync(path).isDirectory()) return sources(path);
        return path.endsWith(".ts") ? [path] : [];
    });
}

/**
 * The comparisons with an operator's name left in the plugin, by file, and why each is not a
 * per-operator decision a table should hold.
 */
const ALLOWED: Readonly<Record<string, number>> = {
    // A frame of ground edits only (counted apart: an edit reaches the mesh when its frame lands).
    "plugin/component/runnerFrames.ts": 1,
    // An edit's frame is never filled past the budget: "is an edit", not a dispatch.
    "plugin/component/framePlan.ts": 2,
    // A maps texture's name ("water"), not an operator's.
    "plugin/component/cpuMapsTextures.ts": 1,
};

describe("operator tables", () => {
    it("lists every operator the schedule plans once", () => {
        expect(new Set(PLANNED_OPERATORS).size).toBe(PLANNED_OPERATORS.length);
        expect(sorted(PLANNED_OPERATORS)).toEqual(sorted([...OPERATOR_ORDER, "local", "edit"]));
    });

    it.each([
        ["CPU_OPERATORS", CPU_OPERATORS],
        ["GPU_OPERATORS", GPU_OPERATORS],
        ["OPERATOR_WORK_UNITS", OPERATOR_WORK_UNITS],
    ])("has a row in %s for every planned operator", (_name, table) => {
        expect(sorted(Object.keys(table))).toEqual(sorted(PLANNED_OPERATORS));
    });

    it("has a row in OPERATOR_BATCHES for every erosion operator", () => {
        expect(sorted(Object.keys(OPERATOR_BATCHES))).toEqual(sorted(OPERATOR_ORDER));
    });

    it("runs a local erosion event with the hydraulic operator's droplet rows", () => {
        expect(CPU_OPERATORS.local).toBe(CPU_OPERATORS.hydraulic);
        expect(GPU_OPERATORS.local).toBe(GPU_OPERATORS.hydraulic);
        expect(OPERATOR_WORK_UNITS.local).toBe(OPERATOR_WORK_UNITS.hydraulic);
    });

    it("keeps if-chains on an operator's name out of the plugin beyond the ones allowed", () => {
        const comparison = /[!=]==\s*["'](hydraulic|water|rivers|thermal|local|edit)["']|["'](hydraulic|water|rivers|thermal|local|edit)["']\s*[!=]==/g;
        const found: Record<string, number> = {};
        for (const file of sources("plugin")) {
            if (file.includes("generated")) continue;
            const count = readFileSync(file, "utf8").match(comparison)?.length ?? 0;
            if (count > 0) found[file.split("\\").join("/")] = count;
        }
        expect(found).toEqual(ALLOWED);
    });
});
