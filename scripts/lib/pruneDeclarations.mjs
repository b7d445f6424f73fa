// Removes the declaration files (.d.ts) of the ESM build that no public entry's declarations reach
// (build:lib): tsc writes one for every module, but package.json "exports" lets an app import the
// entries only, so TypeScript reads an entry's .d.ts and what it imports, and never the rest (the
// worker's, the pool's, the kernels' own). They were 87 KB of the package. The JavaScript stays.
//   node scripts/lib/pruneDeclarations.mjs dist/esm
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const outDir = resolve(root, process.argv[2] ?? "dist/esm");

/** The declaration files package.json "exports" names ("types"). */
function entryDeclarations() {
    const { exports } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    return Object.values(exports)
        .filter((target) => typeof target === "object" && target.types)
        .map((target) => resolve(root, target.types));
}

/** Every declaration file reachable from `entries` through `from "./x.js"` and `import("./x.js")`. */
function reachable(entries) {
    const seen = new Set();
    const pending = [...entries];
    while (pending.length > 0) {
        const file = pending.pop();
        if (seen.has(file)) continue;
        if (!existsSync(file)) throw new Error(`pruneDeclarations: ${relative(root, file)} is named by the declarations but was not written.`);
        seen.add(file);
        for (const match of readFileSync(file, "utf8").matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g)) {
            pending.push(resolve(dirname(file), match[1].replace(/\.js$/, ".d.ts")));
        }
    }
    return seen;
}

function declarations(directory) {
    return readdirSync(directory).flatMap((name) => {
        const path = join(directory, name);
        if (statSync(path).isDirectory()) return declarations(path);
        return name.endsWith(".d.ts") ? [path] : [];
    });
}

const kept = reachable(entryDeclarations());
let removed = 0;
for (const file of declarations(outDir)) {
    if (kept.has(file)) continue;
    removed += statSync(file).size;
    rmSync(file);
}
console.log(`pruneDeclarations: kept ${kept.size} declaration files, removed ${Math.round(removed / 1024)} KB no entry reaches`);
