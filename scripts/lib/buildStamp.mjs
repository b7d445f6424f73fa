// Build stamps: a build's output records a hash of what it was built from (`.build-inputs` in its
// folder), so `npm test` reuses an output that is still current (the sample, the UMD bundle and the
// ESM library that `npm run build` made just before, in CI) instead of building it again. Plain
// Node: webpack's config and scripts/test.mjs load it; `node scripts/lib/buildStamp.mjs <dir>
// <build>` writes the stamp of a build made without webpack (build:lib's tsc). The stamps stay out
// of the package (package.json "files").
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** What each build reads: folders and files relative to the repository root. */
const INPUTS = {
    sample: ["plugin", "shaders", "sample-scene", "webpack.config.js", "tsconfig.json", "package-lock.json"],
    umd: ["plugin", "shaders", "webpack.config.js", "scripts/lib/noSourceMapLoader.cjs", "scripts/lib/stripCommentsLoader.cjs", "tsconfig.json", "package-lock.json"],
    lib: ["plugin", "shaders", "tsconfig.json", "tsconfig.build.json", "package-lock.json", "package.json", "scripts/lib/stripComments.mjs", "scripts/lib/pruneDeclarations.mjs"],
    testpages: ["plugin", "shaders", "test/browser/pages", "test/helpers", "scripts/lib", "webpack.config.js", "tsconfig.json", "package-lock.json"],
};

const STAMP = ".build-inputs";

function files(root, path) {
    const full = join(root, path);
    if (!existsSync(full)) return [];
    if (!statSync(full).isDirectory()) return [path];
    return readdirSync(full)
        .sort()
        .flatMap((name) => files(root, join(path, name)));
}

/** The hash of what build `name` reads, as it is now. */
export function inputsHash(root, name) {
    const hash = createHash("sha256");
    for (const file of INPUTS[name].flatMap((path) => files(root, path))) hash.update(relative(root, join(root, file))).update("\0").update(readFileSync(join(root, file)));
    return hash.digest("hex").slice(0, 20);
}

/** True when `outputDir` holds build `name` made from what it reads now. */
export function stampFresh(root, outputDir, name) {
    try {
        const stamp = JSON.parse(readFileSync(join(root, outputDir, STAMP), "utf8"));
        return stamp.build === name && stamp.inputs === inputsHash(root, name);
    } catch {
        return false;
    }
}

/** A webpack plugin that writes the stamp of build `name` into the output folder after a build without errors. */
export class BuildStampPlugin {
    constructor(root, name) {
        this.root = root;
        this.name = name;
    }

    apply(compiler) {
        compiler.hooks.done.tap("BuildStampPlugin", (stats) => {
            if (stats.hasErrors()) return;
            writeStamp(this.root, relative(this.root, compiler.options.output.path), this.name, compiler.options.mode);
        });
    }
}

/** Writes the stamp of build `name` into `outputDir` (relative to `root`). */
export function writeStamp(root, outputDir, name, mode = "production") {
    writeFileSync(join(root, outputDir, STAMP), JSON.stringify({ build: name, mode, inputs: inputsHash(root, name) }) + "\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
    const [outputDir, name] = process.argv.slice(2);
    if (!outputDir || !(name in INPUTS)) {
        process.stderr.write(`Usage: node scripts/lib/buildStamp.mjs <output folder> <${Object.keys(INPUTS).join("|")}>\n`);
        process.exit(1);
    }
    writeStamp(process.cwd(), outputDir, name);
}
