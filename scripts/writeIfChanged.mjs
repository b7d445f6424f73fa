// Writes a generated file only when its text changes, so watchers and incremental builds
// (webpack, tsc, jest's cache) do not rebuild after every generator run.
import { readFileSync, writeFileSync } from "node:fs";

/** Writes `text` to `path` unless the file already holds exactly that. */
export function writeIfChanged(path, text) {
    let previous = "";
    try {
        previous = readFileSync(path, "utf8");
    } catch {
        // first run
    }
    if (previous !== text) {
        writeFileSync(path, text);
    }
}
