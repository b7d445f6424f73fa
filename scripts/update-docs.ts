// Rewrites the generated options table in docs/simulation.md and README.md.
import { readFileSync, writeFileSync } from "node:fs";
import { withOptionsTable } from "../plugin/advanced.js";

for (const file of ["docs/simulation.md", "README.md"]) {
    const before = readFileSync(file, "utf8");
    const after = withOptionsTable(before);
    if (after !== before) {
        writeFileSync(file, after);
        console.log(`updated ${file}`);
    }
}
