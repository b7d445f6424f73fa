import { readFileSync } from "node:fs";
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
});
