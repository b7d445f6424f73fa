// The whole test suite: generate the shader module, build the browser test pages, run jest.
// Extra arguments go to jest (`npm test -- test/unit` runs the unit tests only).
import { spawnSync } from "node:child_process";

function run(command, args) {
    const result = spawnSync(command, args, { stdio: "inherit", shell: process.platform === "win32" });
    if (result.status !== 0) {
        process.exit(result.status ?? 1);
    }
}

run("node", ["scripts/inline-shaders.mjs"]);
run("node", ["scripts/build-worker.mjs"]);
run("npx", ["webpack", "--env", "testpages", "--mode", "development"]);
run("npx", ["jest", ...process.argv.slice(2)]);
