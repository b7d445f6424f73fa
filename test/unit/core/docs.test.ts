import { existsSync, readFileSync } from "node:fs";
import { withOptionsTable } from "../../../plugin/core/optionsMarkdown.js";

describe("documentation", () => {
    it.each(["README.md", "docs/simulation.md"])("%s carries the current options table (npm run docs)", (file) => {
        const text = readFileSync(file, "utf8");
        expect(withOptionsTable(text)).toBe(text);
    });

    it("names every export of the main entry in the README", () => {
        // The names of plugin/index.ts's `export { ... }` and `export type { ... }` lines.
        const names = Array.from(readFileSync("plugin/index.ts", "utf8").matchAll(/^export (?:type )?\{([^}]*)\}/gm)).flatMap((match) => match[1].split(",").map((name) => name.replace(/^\s*type\s+/, "").trim()));
        expect(names.length).toBeGreaterThan(40);
        const readme = readFileSync("README.md", "utf8");
        expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(readme))).toEqual([]);
    });

    it.each(["README.md", "docs/simulation.md", "bench/README.md", "cli/README.md"])("%s names only files that exist", (file) => {
        const named = Array.from(readFileSync(file, "utf8").matchAll(/\b((?:plugin|shaders|scripts|test|bench|sample-scene)\/[\w./-]+\.(?:ts|wgsl|mjs|js))\b/g)).map((match) => match[1]);
        // Build outputs (bench/.build/, plugin/generated/) are made by commands, not kept in git: a clean clone lacks them.
        const kept = named.filter((path) => !/\/(\.build|generated)\//.test(path));
        expect(kept.filter((path) => !existsSync(path))).toEqual([]);
    });
});
