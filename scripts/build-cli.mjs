// Builds the command-line package, babylon-terrain-erosion-cli (cli/): the `terrain-erosion`
// command (its own source, cli/src/cli.ts) and the bake as functions, from plugin/bake/ and the engine code it uses, bundled by
// esbuild into cli/dist (the library's code is inside: the command's fingerprints are the
// library's of the same version), with its declarations from tsc. The heavy parts (Dawn for Node,
// BullMQ, ioredis) and the parser and progress bar stay the CLI package's own dependencies, so a
// browser app that installs the library never gets them. Run by `npm run build:cli` and the CLI
// package's prepack. Output is git-ignored.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "cli");
const manifest = JSON.parse(readFileSync(join(cli, "package.json"), "utf8"));
const library = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
if (manifest.version !== library.version) {
    throw new Error(`cli/package.json is at version ${manifest.version} but the library at ${library.version}: they are released together, at one version.`);
}

rmSync(join(cli, "dist"), { recursive: true, force: true });
await build({
    entryPoints: { cli: join(root, "cli/src/cli.ts"), index: join(root, "plugin/bake/index.ts") },
    outdir: join(cli, "dist"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Linked maps with the sources inside, so a stack trace resolves to plugin/ without the repository.
    sourcemap: true,
    sourcesContent: true,
    // The package's own dependencies (resolved from its node_modules at run time).
    external: [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.optionalDependencies ?? {})],
    logLevel: "warning",
});
execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", join(cli, "tsconfig.json")], { stdio: "inherit" });
copyFileSync(join(root, "LICENSE"), join(cli, "LICENSE"));
