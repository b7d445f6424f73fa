/**
 * The WebAssembly kernels' sources (the `*.as.ts` twins in plugin/kernels/) agree with the TypeScript they
 * mirror where a test of results could miss it: every constant a module writes out has its
 * TypeScript module's value (a limit only reached on rare terrain would otherwise drift unseen),
 * and its control block's words are numbered as its glue writes them. The kernels' results are
 * compared in riverWalk.test.ts, riverWindows.test.ts and dropletBatchWasm.test.ts.
 */
import { readFileSync } from "node:fs";
import { DROPLET_BATCH_WASM_CONSTANTS, RIVER_WALK_WASM_CONSTANTS, WASM_MEMORY_BASE } from "../../../plugin/internal.js";

const modules = [
    { name: "river walk", sources: ["fixedPoint.as.ts", "materials.as.ts", "rivers/fast/riverRules.as.ts", "rivers/fast/riverWalk.as.ts"], glue: "rivers/fast/riverWalkWasm.ts", constants: RIVER_WALK_WASM_CONSTANTS },
    { name: "droplet batch", sources: ["fixedPoint.as.ts", "materials.as.ts", "droplets/dropletBatch.as.ts"], glue: "droplets/dropletBatchWasm.ts", constants: DROPLET_BATCH_WASM_CONSTANTS },
];

/** The sources' top-level `const NAME: type = value;` declarations (exported or not). */
function writtenConstants(sources: string[]): Map<string, number> {
    const source = sources.map((name) => readFileSync(`plugin/kernels/${name}`, "utf8")).join("\n");
    const constants = new Map<string, number>();
    for (const match of source.matchAll(/^(?:export )?const (\w+): (?:i32|f64) = ([^;]+);/gm)) constants.set(match[1], Number(match[2]));
    return constants;
}

describe.each(modules)("the WebAssembly $name's source", ({ sources, glue, constants }) => {
    const written = writtenConstants(sources);

    it("writes out every TypeScript constant it uses with its value", () => {
        expect(Object.fromEntries([...written].filter(([name]) => !name.startsWith("C_")))).toEqual(constants);
    });

    it("numbers the control block's words as the glue does, below the module's data", () => {
        const glueSource = readFileSync(`plugin/kernels/${glue}`, "utf8");
        const members = /const enum Control \{([^}]*)\}/.exec(glueSource)?.[1].split(",").map((name) => name.trim()).filter((name) => name !== "") ?? [];
        const snake = (name: string): string => `C_${name.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toUpperCase()}`;
        const words = [...written].filter(([name]) => name.startsWith("C_"));
        // The glue's last member counts the words.
        expect(members.at(-1)).toBe("Words");
        expect(words).toEqual(members.slice(0, -1).map((name, word) => [snake(name), word]));
        expect(members.length * 4).toBeLessThanOrEqual(WASM_MEMORY_BASE);
    });
});

it("builds every module with its data above the control blocks", () => {
    expect(readFileSync("scripts/build-wasm.mjs", "utf8")).toContain(`"--memoryBase", "${WASM_MEMORY_BASE}"`);
});
