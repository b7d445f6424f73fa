import { readFileSync } from "node:fs";
import { withOptionsTable } from "../../../plugin/core/optionsMarkdown.js";

describe("documentation", () => {
    it.each(["README.md", "docs/simulation.md"])("%s carries the current options table (npm run docs)", (file) => {
        const text = readFileSync(file, "utf8");
        expect(withOptionsTable(text)).toBe(text);
    });
});
