// Rewrites the generated options table in docs/simulation.md and README.md, and the bench figures
// the README quotes from bench/results.json (scripts/lib/benchFigures.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { withOptionsTable } from "../plugin/advanced.js";
import { withBenchFigures } from "./lib/benchFigures.js";

const records = JSON.parse(readFileSync("bench/results.json", "utf8")).records;
for (const file of ["docs/simulation.md", "README.md"]) {
    const before = readFileSync(file, "utf8");
    const after = withBenchFigures(withOptionsTable(before), records);
    if (after !== before) {
        writeFileSync(file, after);
        console.log(`updated ${file}`);
    }
}
