// The whole test suite: check the system parts the tests need (stop at once, naming the package
// and the install line, when one is missing), generate the shader and worker modules, build the
// browser test pages and the sample scene (development mode: fast) and the UMD bundle, run jest.
// Extra arguments go to jest (`npm test -- test/unit` runs the unit tests only). `--soak` runs the
// soak suite instead (`npm run test:soak`: test/soak/, jest.soak.config.cjs).
import { spawnSync } from "node:child_process";
import { stampFresh } from "./lib/buildStamp.mjs";
import { describeMissing, missingPrerequisites } from "./lib/prerequisites.js";

function run(command, args, env = process.env) {
    const result = spawnSync(command, args, { stdio: "inherit", shell: process.platform === "win32", env });
    if (result.status !== 0) {
        process.exit(result.status ?? 1);
    }
}

const soak = process.argv.includes("--soak");
const jestArgs = soak ? ["--config", "jest.soak.config.cjs", ...process.argv.slice(2).filter((arg) => arg !== "--soak")] : process.argv.slice(2);
// A chosen part of the suite (`npm test -- test/unit/core`) may not need every package: say what
// is missing and go on. The whole suite (or the soak suite) stops here.
const wholeSuite = soak || !jestArgs.some((arg) => !arg.startsWith("-"));
const missing = missingPrerequisites();
if (missing.length > 0) {
    process.stderr.write(`${describeMissing(missing)}\n`);
    if (wholeSuite) process.exit(1);
    process.stderr.write("Running the tests you chose anyway; those that need a missing part will fail.\n");
}

run("node", ["scripts/inline-shaders.mjs"]);
run("node", ["scripts/build-wasm.mjs"]);
run("node", ["scripts/build-worker.mjs"]);
// Node-only runs (`npm test -- test/unit`) skip the browser builds. The others build what is not
// current (scripts/lib/buildStamp.mjs): the test pages, the sample (the production build
// `npm run build` made, or a development one here) and the UMD bundle, in one webpack run.
const browserNeeded = !jestArgs.some((arg) => arg.startsWith("test/unit"));
const root = process.cwd();
const env = { ...process.env };
if (browserNeeded) {
    const builds = [];
    if (!stampFresh(root, "test-results/pages", "testpages")) builds.push("testpages");
    // Both suites open the sample and load the UMD bundle (the soak: the sample's world and lockstep
    // tabs, the Playground's script tags).
    const sampleDir = ["dist/sample", "test-results/sample"].find((dir) => stampFresh(root, dir, "sample"));
    if (!sampleDir) builds.push("testsample");
    env.TERRAIN_EROSION_SAMPLE_DIR = sampleDir ?? "test-results/sample";
    if (!stampFresh(root, "dist/umd", "umd")) builds.push("umd");
    process.stdout.write(builds.length > 0 ? `Building ${builds.join(", ")} (the rest is current).\n` : "The test pages, the sample and the UMD bundle are current.\n");
    if (builds.length > 0) run("npx", ["webpack", "--env", "mixed", ...builds.flatMap((name) => ["--env", name])]);
}
// The whole soak suite runs one suite alone, after the rest: the smooth frames (a ratio of frame
// times, which another suite's work on the other core would skew). The lockstep tabs run with the
// rest: a wait on the device that never settles is now a stall with a deadline (the tabs set it to a
// minute) and a way back, not a frame in flight for ever.
const ALONE = ["test/soak/smoothFrames.test.ts"];
if (soak && !process.argv.slice(2).some((arg) => !arg.startsWith("-"))) {
    run("npx", ["jest", ...jestArgs, "--testPathIgnorePatterns", "/node_modules/", ...ALONE.flatMap((path) => ["--testPathIgnorePatterns", path.replace(/^.*\//, "").replace(/\./g, "\\.")])], env);
    for (const path of ALONE) run("npx", ["jest", ...jestArgs, path], env);
} else {
    run("npx", ["jest", ...jestArgs], env);
}
