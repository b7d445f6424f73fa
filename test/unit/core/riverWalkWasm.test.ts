/**
 * The WebAssembly river walk's source (plugin/core/cpu/wasm/*.as.ts) agrees with the
 * TypeScript it mirrors where a test of results could miss it: every constant it writes out has
 * its TypeScript module's value (a limit only reached on rare terrain would otherwise drift
 * unseen), and its control block's words are numbered as the glue (riverWalkWasm.ts) writes them.
 * The walks' results are compared in riverWalk.test.ts and riverWindows.test.ts.
 */
import { readFileSync } from "node:fs";
import { RIVER_WALK_WASM_CONSTANTS, WASM_MEMORY_BASE } from "../../../plugin/internal.js";

const source = ["riverRules.as.ts", "riverWalk.as.ts"].map((name) => readFileSync(`plugin/core/cpu/wasm/${name}`, "utf8")).join("\n");
const glue = readFileSync("plugin/core/cpu/riverWalkWasm.ts", "utf8");

/** The sources' top-level `const NAME: type = value;` declarations (exported or not). */
function writtenConstants(): Map<string, number> {
    const constants = new Map<string, number>();
    for (const match of source.matchAll(/^(?:export )?const (\w+): (?:i32|f64) = ([^;]+);/gm)) constants.set(match[1], Number(match[2]));
    return constants;
}

describe("the WebAssembly river walk's source", () => {
    const constants = writtenConstants();
    it("writes out every TypeScript constant it uses with its value", () => {
        const written = Object.fromEntries([...constants].filter(([name]) => !name.startsWith("C_")));
        expect(written).toEqual(RIVER_WALK_WASM_CONSTANTS);
    });

    it("numbers the control block's words as the glue does, below the module's data", () => {
        const members = /const enum Control \{([^}]*)\}/.exec(glue)?.[1].split(",").map((name) => name.trim()).filter((name) => name !== "") ?? [];
        const snake = (name: string): string => `C_${name.replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toUpperCase()}`;
        const words = [...constants].filter(([name]) => name.startsWith("C_"));
        // The glue's last member counts the words.
        expect(members.at(-1)).toBe("Words");
        expect(words).toEqual(members.slice(0, -1).map((name, word) => [snake(name), word]));
        expect(members.length * 4).toBeLessThanOrEqual(WASM_MEMORY_BASE);
        expect(readFileSync("scripts/build-wasm.mjs", "utf8")).toContain(`"--memoryBase", "${WASM_MEMORY_BASE}"`);
    });
});
