// The whole test suite: generate the shader and worker modules, build the browser test pages and
// the sample scene (development mode: fast) and the UMD bundle, run jest.
// Extra arguments go to jest (`npm test -- test/unit` runs the unit tests only).
import { spawnSync } from "node:child_process";

function run(command, args) {
    const result = spawnSync(command, args, { stdio: "inherit", shell: process.platform === "win32" });
    if (result.status !== 0) {
        process.exit(result.status ?? 1);
    }
}

run("node", ["scripts/inline-shaders.mjs"]);
run("node", ["scripts/build-wasm.mjs"]);
run("node", ["scripts/build-worker.mjs"]);
// Node-only runs (`npm test -- test/unit`) skip the browser builds.
const browserNeeded = !process.argv.slice(2).some((arg) => arg.startsWith("test/unit"));
if (browserNeeded) {
    run("npx", ["webpack", "--env", "testpages", "--mode", "development"]);
    run("npx", ["webpack", "--env", "sample", "--mode", "development", "--output-path", "test-results/sample"]);
    run("npx", ["webpack", "--env", "umd", "--mode", "production"]);
}
run("npx", ["jest", ...process.argv.slice(2)]);
