// `npm run realism`: the drainage metrics of every terrain before and after erosion, hillshade
// pictures with the drainage network drawn over them (realism-report/, git-ignored), and every
// threshold the repository claims (scripts/realism/claims.ts), at full size. Exits non-zero when a
// claim is missed. `--docs` also writes the README's table and its pictures (docs/images/realism/).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hillshadePng } from "./realism/hillshade.js";
import { CLAIMS, type ClaimResult } from "./realism/claims.js";
import { measureRun, type RealismRun } from "./realism/measure.js";
import { GENERATED_SCALES, generatedTerrain, montBlanc } from "./realism/terrains.js";

const ROOT = process.cwd();
const REPORT = join(ROOT, "realism-report");
const DOC_PICTURES = join(ROOT, "docs/images/realism");
const CYCLES = 20;

const format = (value: number, digits = 2): string => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");
const percent = (value: number): string => `${(100 * value).toFixed(2)}%`;

function slug(name: string): string {
    return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

async function writePictures(run: RealismRun, directory: string): Promise<{ before: string; after: string }> {
    const name = slug(run.terrain.name);
    const before = `${name}-before.png`;
    const after = `${name}-after.png`;
    writeFileSync(join(directory, before), await hillshadePng(run.terrain.heights, run.fieldBefore, run.terrain.cellSize));
    writeFileSync(join(directory, after), await hillshadePng(run.heights, run.fieldAfter, run.terrain.cellSize));
    return { before, after };
}

function metricsRow(run: RealismRun): string {
    const { before, after } = run;
    return `| ${run.terrain.name} | ${percent(before.pitFraction)} → ${percent(after.pitFraction)} | ${before.channelCells} → ${after.channelCells} (${format(after.channelCells / before.channelCells)}×) | ${format(before.theta)} → ${format(after.theta)} | ${format(run.steepChange, 1)} | ${format(run.meanAbsChange, 2)} | ${format(run.lowering)} |`;
}

const METRICS_HEADER = "| Terrain | Pits | Channel cells | θ | Steep channels Δh (m) | Mean \\|Δh\\| (m) | Spearman(lowering, A^0.5 S) |\n| --- | --- | --- | --- | --- | --- | --- |";

function claimLines(results: readonly ClaimResult[]): string[] {
    const lines = ["| Claim | Check | Measured | Bound | |", "| --- | --- | --- | --- | --- |"];
    for (const claim of results) {
        for (const check of claim.checks) {
            const cell = (text: string) => text.replace(/\|/g, "\\|");
            lines.push(`| ${cell(claim.title)} | ${cell(check.what)} | ${format(check.value, 3)} | ${check.bound} | ${check.passed ? "pass" : "**MISSED**"} |`);
        }
    }
    return lines;
}

async function main(): Promise<void> {
    const writeDocs = process.argv.includes("--docs");
    mkdirSync(REPORT, { recursive: true });
    if (writeDocs) mkdirSync(DOC_PICTURES, { recursive: true });
    const terrains = [...GENERATED_SCALES.map(({ cellSize, relief }) => generatedTerrain(257, cellSize, relief)), await montBlanc()];
    const runs: RealismRun[] = [];
    const pictureRows: string[] = [];
    for (const terrain of terrains) {
        const run = measureRun(terrain, {}, CYCLES);
        runs.push(run);
        console.log(`${terrain.name}: ${(run.ms / 1000).toFixed(1)} s`);
        const pictures = await writePictures(run, REPORT);
        if (writeDocs && (terrain.cellSize === 1 || terrain.name.startsWith("Mont Blanc"))) {
            const docPictures = await writePictures(run, DOC_PICTURES);
            pictureRows.push(`| ${terrain.name} | ![before](docs/images/realism/${docPictures.before}) | ![after ${CYCLES} cycles](docs/images/realism/${docPictures.after}) |`);
        }
        void pictures;
    }
    const results: ClaimResult[] = [];
    for (const claim of CLAIMS) {
        const started = Date.now();
        const found = await claim.evaluate("full");
        results.push(found);
        console.log(`${found.passed ? "pass  " : "MISSED"} ${claim.title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
        for (const check of found.checks) console.log(`         ${check.passed ? " " : "!"} ${check.what}: ${format(check.value, 3)} (${check.bound})`);
    }
    const table = [`Defaults, ${CYCLES} cycles, CPU reference (\`npm run realism\`; metrics in \`plugin/analysis/drainageMetrics.ts\`):`, "", METRICS_HEADER, ...runs.map(metricsRow), "", ...claimLines(results)].join("\n");
    writeFileSync(join(REPORT, "report.md"), table + "\n");
    writeFileSync(join(REPORT, "report.json"), JSON.stringify({ runs: runs.map((run) => ({ terrain: run.terrain.name, cycles: run.cycles, before: run.before, after: run.after, steepChange: run.steepChange, meanAbsChange: run.meanAbsChange, lowering: run.lowering, seconds: run.ms / 1000 })), claims: results.map(({ runs: _runs, ...rest }) => rest) }, null, 2));
    console.log(`\n${table}\n\nReport and pictures in ${REPORT}`);
    if (writeDocs) {
        const readmePath = join(ROOT, "README.md");
        const readme = readFileSync(readmePath, "utf8");
        const begin = "<!-- realism:begin (generated by npm run realism -- --docs) -->";
        const end = "<!-- realism:end -->";
        const block = [begin, table, "", "| Terrain (hillshade; channels blue, pits red) | Before | After |", "| --- | --- | --- |", ...pictureRows, end].join("\n");
        const start = readme.indexOf(begin);
        const stop = readme.indexOf(end);
        if (start < 0 || stop < 0) throw new Error(`README.md has no ${begin} ... ${end} block to write the table into.`);
        writeFileSync(readmePath, readme.slice(0, start) + block + readme.slice(stop + end.length));
        console.log("README.md table and docs/images/realism/ updated.");
    }
    if (results.some((claim) => !claim.passed)) {
        console.error("\nSome realism claims were missed (see above).");
        process.exit(1);
    }
}

main().catch((error) => {
    console.error(error);
    process.exit(1);
});
