// The whole test suite: check the system parts the tests need (stop at once, naming the package
// and the install line, when one is missing), generate the shader and worker modules, build the
// browser test pages and the sample scene (development mode: fast) and the UMD bundle, run jest.
// Extra arguments go to jest (`npm test -- test/unit` runs the unit tests only). `--soak` runs the
// soak suite instead (`npm run test:soak`: test/soak/, jest.soak.config.cjs).
import { spawnSync } from "node:child_process";
import { describeMissing, missingPrerequisites } from "./lib/prerequisites.js";

function run(command, args) {
    const result = spawnSync(command, args, { stdio: "inherit", shell: process.platform === "win32" });
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
// Node-only runs (`npm test -- test/unit`) skip the browser builds.
const browserNeeded = !jestArgs.some((arg) => arg.startsWith("test/unit"));
if (browserNeeded) {
    // The soak suite loads the test pages only; the whole suite the sample and the UMD bundle too.
    run("npx", soak ? ["webpack", "--env", "testpages", "--mode", "development"] : ["webpack", "--env", "tests"]);
}
run("npx", ["jest", ...jestArgs]);
