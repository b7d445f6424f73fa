// Writes a generated file only when its text changes, so watchers and incremental builds
// (webpack, tsc, jest's cache) do not rebuild after every generator run.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/** Writes `text` to `path` unless the file already holds exactly that (making its folder: plugin/generated/ is not in a fresh clone). */
export function writeIfChanged(path, text) {
    let previous = "";
    try {
        previous = readFileSync(path, "utf8");
    } catch {
        // first run
    }
    if (previous !== text) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
    }
}
