// Build stamps: a webpack output records a hash of what it was built from (`.build-inputs` in its
// folder), so `npm test` reuses an output that is still current (the sample and the UMD bundle that
// `npm run build` made just before, in CI) instead of building it again. Plain Node: webpack's
// config and scripts/test.mjs load it.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** What each build reads: folders and files relative to the repository root. */
const INPUTS = {
    sample: ["plugin", "shaders", "sample-scene", "webpack.config.js", "tsconfig.json", "package-lock.json"],
    umd: ["plugin", "shaders", "webpack.config.js", "tsconfig.json", "package-lock.json"],
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
            writeFileSync(join(compiler.options.output.path, STAMP), JSON.stringify({ build: this.name, mode: compiler.options.mode, inputs: inputsHash(this.root, this.name) }) + "\n");
        });
    }
}
