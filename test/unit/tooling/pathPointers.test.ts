/**
 * The repository paths the sources' comments name (a header's "see plugin/core/..." or "driven by
 * bench/src/..."), the way test/unit/gpu/kernelMirrors.test.ts holds the shaders' mirrors: each
 * names a file that exists. A moved or renamed file otherwise leaves its pointers stale, and a reader
 * follows them to nothing. Build outputs (bench/.build/, dist/, test-results/) are not checked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

const ROOTS = ["plugin", "shaders", "scripts", "bench", "test", "sample-scene", "packages"];

function sources(directory: string): string[] {
    return readdirSync(directory).flatMap((name) => {
        const path = join(directory, name);
        if (statSync(path).isDirectory()) return name === "node_modules" || name.startsWith(".") || name === "dist" || name === "generated" ? [] : sources(path);
        return /\.(ts|mjs|cjs|wgsl)$/.test(name) ? [path] : [];
    });
}

/** A repository path in a comment: from one of the roots (or docs/) to a file with an extension. */
const POINTER = /(?<![\w./-])((?:plugin|shaders|scripts|bench|test|sample-scene|packages|docs)\/[\w./-]*\w\.(?:ts|mjs|cjs|js|wgsl|md|json|c))\b/g;
const COMMENT = /^\s*(?:\/\/|\/\*|\*)/;
const BUILT = /^(?:bench\/\.build|dist|test-results)\//;

/** A path in backquotes relative to the file's folder or to plugin/ (`kernels/fold/clipDelta.ts` from plugin/). */
const RELATIVE = /`((?:[\w.-]+\/)+[\w.-]*\w\.(?:ts|mjs|wgsl))`/g;

/**
 * The stale pointers of a file's text in `folder`: `line: path` where the path (a .js as its .ts
 * source) does not exist from the repository's root, or, for a relative one, from the folder or plugin/.
 */
function stalePointers(text: string, folder: string, exists: (path: string) => boolean = existsSync): string[] {
    const found = (path: string) => exists(path) || exists(path.replace(/\.js$/, ".ts"));
    return text.split("\n").flatMap((line, index) => {
        if (!COMMENT.test(line)) return [];
        const rooted = Array.from(line.matchAll(POINTER), (match) => match[1]).filter((path) => !BUILT.test(path) && !found(path));
        const relative = Array.from(line.matchAll(RELATIVE), (match) => match[1])
            .filter((path) => !/^(?:plugin|shaders|scripts|bench|test|sample-scene|packages|docs|dist|node_modules|@[\w-]+)\//.test(path) && !path.startsWith("."))
            .filter((path) => !found(join(folder, path)) && !found(join("plugin", path)));
        return [...rooted, ...relative].map((path) => `${index + 1}: ${path}`);
    });
}

describe("the paths the sources' comments name", () => {
    it("all exist", () => {
        const stale = ROOTS.filter((root) => existsSync(root)).flatMap(sources).flatMap((file) => stalePointers(readFileSync(file, "utf8"), dirname(file)).map((pointer) => `${file}:${pointer}`));
        expect(stale).toEqual([]);
    });

    it("finds a pointer planted wrong, and leaves code and build outputs alone", () => {
        const text = ["// see plugin/kernels/erodeDroplets.ts", " * and plugin/index.js, bench/.build/cpu.mjs", 'import { x } from "plugin/nowhere.ts";', " * (`wasm/dropletBatch.as.ts`, `droplets/dropletBatch.as.ts`)"].join("\n");
        const exists = (path: string) => path === "plugin/index.ts" || path === "plugin/kernels/droplets/dropletBatch.as.ts";
        expect(stalePointers(text, "plugin/kernels", exists)).toEqual(["1: plugin/kernels/erodeDroplets.ts", "4: wasm/dropletBatch.as.ts"]);
    });
});
