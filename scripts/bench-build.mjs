// Builds what the benchmarks run (used by scripts/bench.mjs and scripts/prepare-gpu-kit.mjs):
// the generated shader and worker sources, the Node bundles of bench/src/*Main.ts (esbuild: the
// kernels then run as the CPU backend's worker bundle runs them, not through a per-module
// transform), and the Chromium bench page (the webpack benchpages build, into bench/.build/pages).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Where the bench bundles go (git-ignored by bench/.gitignore). */
export const BUILD_DIR = join(ROOT, "bench/.build");

/** Node bundles: output name -> entry and the packages left to Node's own resolution. */
export const NODE_BUNDLES = {
    // ws (the lockstep figures' sockets) is CommonJS requiring Node's modules: bundled into an ES
    // module its require calls would throw, so Node loads it from node_modules.
    "cpu.mjs": { entry: "bench/src/cpuMain.ts", external: ["ws"] },
    "cpu-worker.mjs": { entry: "scripts/lib/cpuWorker.ts", external: [] },
    "cpu-walk.mjs": { entry: "bench/src/walkProcessMain.ts", external: [] },
    "dawn.mjs": { entry: "bench/src/dawnMain.ts", external: ["webgpu"] },
    "chromium.mjs": { entry: "bench/src/chromiumMain.ts", external: ["playwright-core"] },
    "report.mjs": { entry: "bench/src/records.ts", external: [] },
    // The bake command as users run it, for the bake figures (bench/src/bakeFigures.ts).
    "terrain-erosion.mjs": { entry: "cli/src/cli.ts", external: ["commander", "cli-progress", "webgpu", "bullmq", "ioredis", "geotiff", "parse-exr", "three"] },
};

function run(command, args) {
    const result = spawnSync(command, args, { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"], shell: process.platform === "win32" });
    if (result.status !== 0) {
        throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status}).`);
    }
}

/** The generated sources the plugin imports (shader strings, the CPU worker bundle). */
export function generateSources() {
    run("node", ["scripts/inline-shaders.mjs"]);
    run("node", ["scripts/build-wasm.mjs"]);
    run("node", ["scripts/build-worker.mjs"]);
}

/** Bundles `names` (keys of NODE_BUNDLES) into `outDir`. */
export async function buildNodeBundles(names, outDir = BUILD_DIR) {
    mkdirSync(outDir, { recursive: true });
    await Promise.all(
        names.map((name) => {
            const { entry, external } = NODE_BUNDLES[name];
            return build({
                entryPoints: [join(ROOT, entry)],
                outfile: join(outDir, name),
                bundle: true,
                platform: "node",
                format: "esm",
                target: "node20",
                external,
                logLevel: "warning",
            });
        })
    );
}

/** Builds the Chromium bench page (bench/pages/) into bench/.build/pages. */
export function buildBenchPages() {
    run("npx", ["webpack", "--env", "benchpages", "--mode", "development", "--output-path", join(BUILD_DIR, "pages")]);
}

/** Writes `text` to `path`, creating folders. */
export function writeText(path, text) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
}
