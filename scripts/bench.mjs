// npm run bench [-- --quick] [-- --only=cpu,dawn,chromium] [-- --update] [-- --out=bench/results.json] [-- --markdown] [-- --bake-large] [-- --skip-world --edits-only ...]
//
// Every benchmark figure, on every backend this machine has: the CPU reference under Node (one
// thread and worker threads), the WebGPU kernels through Dawn for Node and in headless Chromium
// (droplets, masked droplets, thermal, rivers, the erosion maps), and the TerrainErosion component's
// cost per frame (also without rivers, with the maps texture, and of an erodeAt event) in headless Chromium. Each part runs in its
// own Node process from an esbuild bundle (bench/.build); the records are gathered into
// bench/results.json with the machine and adapters, and the table is printed last.
// `--quick` gives the same records with fewer runs (about 100 s on 2 cores).
// `--update` keeps the other parts' records already in the output file (rerun one part, keep the rest;
// the chromium part run with some of its figures, --skip-* or --edits-only, keeps its others);
// `environment.parts` says when and under what load each part ran, and every record carries its own
// `date`, `machine` and `commit`.
// See bench/README.md.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { arch, availableParallelism, cpus, loadavg, platform, release, tmpdir, totalmem } from "node:os";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { BUILD_DIR, ROOT, buildBenchPages, buildNodeBundles, generateSources } from "./bench-build.mjs";
import { stampFresh } from "./lib/buildStamp.mjs";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const only = args.find((arg) => arg.startsWith("--only="))?.slice(7).split(",");
const outPath = resolve(ROOT, args.find((arg) => arg.startsWith("--out="))?.slice(6) ?? "bench/results.json");
const parts = ["cpu", "dawn", "chromium"].filter((part) => !only || only.includes(part));
// --bake-large: the cpu part also bakes 8193² once (in tiles) for the bake's peak memory (minutes, about 3 GB).
const quickArgs = [...(quick ? ["--quick"] : []), ...(args.includes("--bake-large") ? ["--bake-large"] : [])];
const markdown = args.includes("--markdown");
const update = args.includes("--update");
// The chromium part's own switches pass through (--skip-kernels, --skip-component, --skip-world,
// --skip-webgl, --edits-only: a rerun of some of its figures, to an --out file of its own).
const chromiumArgs = args.filter((arg) => /^--(skip-(kernels|component|world|webgl|sample)|edits-only)$/.test(arg));

/** The machine a record was measured on, as every record carries it (`machine`). */
function machineName() {
    const memoryGiB = Math.round((totalmem() / 2 ** 30) * 10) / 10;
    return `${cpus()[0]?.model ?? "unknown"}, ${availableParallelism()} cores, ${memoryGiB} GiB, ${platform()} ${release()} ${arch()}, Node ${process.version}`;
}

/** The commit the figures were measured on (`commit`), "+changes" when the working tree differed from it. */
function commitName() {
    try {
        const hash = execFileSync("git", ["rev-parse", "--short=10", "HEAD"], { cwd: ROOT, encoding: "utf8" }).trim();
        // The code measured: the records and the documents themselves do not count.
        const paths = ["plugin", "shaders", "bench", "scripts", ":(exclude)bench/results.json", ":(exclude)*.md"];
        const status = execFileSync("git", ["status", "--porcelain", "--", ...paths], { cwd: ROOT, encoding: "utf8" });
        const changed = status.trim() !== "";
        return changed ? `${hash}+changes` : hash;
    } catch {
        return "unknown";
    }
}

/** Which record a new one replaces: the same figure (backend, kernel, size, brush, threads, budget). */
const figureKey = (record) => [record.backend, record.kernel, record.size, record.brushRadius, record.threads, record.budgetMs ?? null].join("|");

// Lines a part prints that say nothing about the benchmark (Dawn probing display backends).
const NOISE = [/XDG_RUNTIME_DIR/, /shaderUniform\*ArrayDynamicIndexing/, /While initializing adapter/, /PhysicalDeviceVk\.cpp/, /^\s*$/, /^BJS - /];

/** Runs a bench part; its progress lines pass through, its records come back through a JSON file. */
function runPart(name, bundle, partArgs) {
    const directory = mkdtempSync(join(tmpdir(), "erosion-bench-"));
    const json = join(directory, "records.json");
    return new Promise((resolve) => {
        const child = spawn(process.execPath, [join(BUILD_DIR, bundle), ...partArgs, `--json=${json}`], { cwd: ROOT, stdio: ["ignore", "inherit", "pipe"] });
        let pending = "";
        child.stderr.on("data", (chunk) => {
            pending += chunk;
            const lines = pending.split("\n");
            pending = lines.pop();
            for (const line of lines) {
                if (!NOISE.some((pattern) => pattern.test(line))) {
                    process.stderr.write(`${line}\n`);
                }
            }
        });
        child.on("close", (code) => {
            let result = null;
            if (code === 0 && existsSync(json)) {
                result = JSON.parse(readFileSync(json, "utf8"));
            }
            rmSync(directory, { recursive: true, force: true });
            resolve({ name, code, result });
        });
    });
}

async function main() {
    const started = performance.now();
    const load = loadavg();
    process.stderr.write(`Building the benchmarks (${quick ? "quick" : "full"} run: ${parts.join(", ")})...\n`);
    generateSources();
    const bundles = { cpu: ["cpu.mjs", "cpu-worker.mjs", "cpu-walk.mjs", "terrain-erosion.mjs"], dawn: ["dawn.mjs"], chromium: ["chromium.mjs"] };
    await buildNodeBundles(["report.mjs", ...parts.flatMap((part) => bundles[part])]);
    const { formatTable, formatMarkdownTable, cpuScaling, h200Comparison } = await import(pathToFileURL(join(BUILD_DIR, "report.mjs")).href);
    // The chromium part also times the sample's water page (bench/src/samplePage.ts): on the sample
    // build that is current (`npm run build`'s, or the tests' development one), else one made here.
    let sampleDir = null;
    if (parts.includes("chromium")) {
        buildBenchPages();
        if (!args.includes("--skip-sample")) {
            sampleDir = ["dist/sample", "test-results/sample"].find((dir) => stampFresh(ROOT, dir, "sample")) ?? null;
            if (!sampleDir) {
                execFileSync("npx", ["webpack", "--env", "mixed", "--env", "testsample"], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
                sampleDir = "test-results/sample";
            }
        }
    }

    const round = (values) => values.map((value) => Math.round(value * 100) / 100);
    const previous = update && existsSync(outPath) ? JSON.parse(readFileSync(outPath, "utf8")) : null;
    const partOf = (record) => (record.backend === "cpu" ? "cpu" : record.backend === "webgpu-dawn" ? "dawn" : "chromium");
    // Every record says when, on what and on which commit it was measured; a record kept from an
    // earlier run keeps its own (one written before records carried them takes its part's run).
    const machine = machineName();
    const commit = commitName();
    const machineOf = (environment) => `${environment.cpuModel}, ${environment.cores} cores, ${environment.memoryGiB} GiB, ${environment.platform}, Node ${environment.node}`;
    const dated = (record, environment) => ({
        ...record,
        date: record.date ?? environment.parts?.[partOf(record)]?.date ?? environment.date,
        machine: record.machine ?? machineOf(environment),
    });
    // A part rerun replaces its records; the chromium part run with some of its figures only
    // (--skip-*, --edits-only) replaces those and keeps the rest.
    const partial = (part) => part === "chromium" && chromiumArgs.length > 0;
    const keeps = (part) => !parts.includes(part) || partial(part);
    const kept = previous ? previous.records.filter((record) => keeps(partOf(record))).map((record) => dated(record, previous.environment)) : [];
    const records = [];
    const adapters = previous ? Object.fromEntries(Object.entries(previous.environment.adapters ?? {}).filter(([backend]) => keeps(partOf({ backend })))) : {};
    const partRuns = previous ? Object.fromEntries(Object.entries(previous.environment.parts ?? {}).filter(([part]) => keeps(part.split(" ")[0]))) : {};
    const failures = [];
    for (const part of parts) {
        process.stderr.write(`\n== ${part} ==\n`);
        const partStarted = performance.now();
        const partRun = { date: new Date().toISOString(), quick, loadAverageAtStart: round(loadavg()) };
        const { code, result } = await runPart(part, `${part}.mjs`, part === "chromium" ? [...quickArgs, ...chromiumArgs, `--pages=${join(BUILD_DIR, "pages")}`, ...(sampleDir ? [`--sample=${sampleDir}`] : [])] : quickArgs);
        if (!result) {
            failures.push(`${part} (exit code ${code})`);
            process.stderr.write(`The ${part} part failed (exit code ${code}); its figures are missing.\n`);
            continue;
        }
        const measured = (Array.isArray(result) ? result : result.records).map((record) => ({ ...record, date: partRun.date, machine, commit }));
        records.push(...measured);
        if (!Array.isArray(result)) {
            if (result.adapter) adapters[`webgpu-${part}`] = result.adapter;
            Object.assign(adapters, result.adapters ?? {});
        }
        const runName = partial(part) ? `${part} ${chromiumArgs.join(" ")}` : part;
        partRuns[runName] = { ...partRun, loadAverageAtEnd: round(loadavg()), seconds: Math.round((performance.now() - partStarted) / 1000) };
        process.stderr.write(`(${part}: ${partRuns[runName].seconds} s)\n`);
    }
    const replaced = new Set(records.map(figureKey));
    records.push(...kept.filter((record) => !replaced.has(figureKey(record))));
    const order = ["cpu", "dawn", "chromium"];
    records.sort((a, b) => order.indexOf(partOf(a)) - order.indexOf(partOf(b)));

    const scaling = cpuScaling(records);
    const cpuList = cpus();
    const environment = {
        date: new Date().toISOString(),
        node: process.version,
        platform: `${platform()} ${release()} ${process.arch}`,
        cpuModel: cpuList[0]?.model ?? "unknown",
        cores: availableParallelism(),
        memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
        loadAverageAtStart: round(load),
        loadAverageAtEnd: round(loadavg()),
        parts: partRuns,
        quick,
        adapters,
        seconds: Math.round((performance.now() - started) / 1000),
        failures,
    };
    writeFileSync(outPath, JSON.stringify({ environment, records }, null, 2) + "\n");

    console.log(`\nMachine: ${environment.cpuModel}, ${environment.cores} cores, ${environment.memoryGiB} GiB, Node ${environment.node}, load average ${environment.loadAverageAtStart.join(" ")} at start, ${environment.loadAverageAtEnd.join(" ")} at end`);
    for (const [backend, adapter] of Object.entries(adapters)) {
        console.log(`Adapter (${backend}): ${adapter}`);
    }
    if (scaling.length > 0) {
        console.log(`CPU worker threads:\n${scaling.join("\n")}`);
    }
    for (const [backend, adapter] of Object.entries(adapters)) {
        const lines = h200Comparison(records.filter((record) => record.backend === backend), adapter);
        if (lines.length > 0) console.log(`Against the issue's H200 estimate (informs, does not gate):\n${lines.join("\n")}`);
    }
    console.log(`Records: ${relative(ROOT, outPath)} (${records.length} figures, ${environment.seconds} s${failures.length > 0 ? `; failed: ${failures.join(", ")}` : ""})\n`);
    console.log(formatTable(records));
    if (markdown) {
        console.log(`\n${formatMarkdownTable(records)}`);
    }
    if (failures.length > 0) {
        process.exitCode = 1;
    }
}

main().catch((error) => {
    console.error(error);
    process.exit(1);
});
