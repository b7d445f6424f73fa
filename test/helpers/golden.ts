/**
 * Golden values: compared with the committed file; when a value is missing it is written (first
 * run) and the test fails so the new value gets reviewed and committed. Mismatches are saved under
 * test-results/ for inspection.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(process.cwd());

/** Checks `actual` against `test/golden/<file>`[key]; see the module comment. */
export function expectGolden(file: string, key: string, actual: string): void {
    const path = join(ROOT, "test/golden", file);
    const golden: Record<string, string> = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : {};
    if (!(key in golden)) {
        golden[key] = actual;
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, JSON.stringify(golden, null, 2) + "\n");
        throw new Error(`Golden value for "${key}" was missing; wrote ${actual} to test/golden/${file}. Review and commit it.`);
    }
    if (golden[key] !== actual) {
        const failed = join(ROOT, "test-results/golden-failures", `${file}.${key.replace(/[^a-z0-9]+/gi, "_")}.txt`);
        mkdirSync(dirname(failed), { recursive: true });
        writeFileSync(failed, actual + "\n");
        throw new Error(`"${key}": got ${actual}, golden ${golden[key]} (saved to ${failed}).`);
    }
}
