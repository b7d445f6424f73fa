// Strips the comments from the ESM build's JavaScript (build:lib): they are the declarations' TSDoc,
// which the .d.ts files keep, and took a third of the package. esbuild prints each module again,
// unminified, without its comments; a second tsc pass with --removeComments cost as long as the first.
//   node scripts/lib/stripComments.mjs dist/esm
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { transformSync } from "esbuild";

function strip(directory) {
    for (const name of readdirSync(directory)) {
        const path = join(directory, name);
        if (statSync(path).isDirectory()) strip(path);
        else if (name.endsWith(".js")) writeFileSync(path, transformSync(readFileSync(path, "utf8"), { loader: "js", format: "esm", target: "es2022", legalComments: "none" }).code);
    }
}

strip(process.argv[2] ?? "dist/esm");
