/**
 * The bake command's figures: `terrain-erosion bake` of a generated 2049² 16-bit PNG, one cycle at
 * the default options, on one CPU worker and on every core, on the worker pool or in tiles on local
 * threads (`BakeMode`), each bake its own process (the command
 * bundled as users run it, bench/.build/terrain-erosion.mjs), so each reports its own peak resident
 * memory. Time is the bake's own (its report's `seconds`: the cycles, not reading and writing).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateNoiseTerrain, encodeGray16Png, heightsToSamples } from "../../plugin/terrain.js";
import { summarize, type BenchRecord } from "./records.js";

/** How the bakes run: the records' kernel names and the flags that ask for it. */
export interface BakeMode {
    /** "bake" (the worker pool) or "bake-tiled" (tiles on local threads, rivers in windows). */
    readonly kernel: "bake" | "bake-tiled";
    /** The command's flags for it (none: its default at the size). */
    readonly flags: readonly string[];
    /** What the records' details say of it. */
    readonly detail: string;
}

/** The worker pool over the whole field. */
export const POOL_BAKE: BakeMode = { kernel: "bake", flags: ["--tiles", "0"], detail: "the worker pool over the whole field (--tiles 0)" };

/** In tiles on local threads, `tiles` per side (null: the command's own choice, which is in tiles above 4096²). */
export function tiledBake(tiles: number | null): BakeMode {
    return { kernel: "bake-tiled", flags: tiles === null ? [] : ["--tiles", String(tiles)], detail: `in tiles on local threads${tiles === null ? " (the command's default at this size)" : ` (--tiles ${tiles})`}, rivers in windows of rows` };
}

/** One bake in its own process: its report. */
function bakeOnce(cli: string, input: string, out: string, workers: number, cycles: number, mode: BakeMode): { seconds: number; peakResidentMB: number; fingerprint: string; device: string } {
    const run = spawnSync(process.execPath, [cli, "bake", input, "--cycles", String(cycles), "--workers", String(workers), ...mode.flags, "--out", out], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`terrain-erosion bake failed (${run.status}): ${run.stderr}`);
    return JSON.parse(readFileSync(out.replace(/\.png$/, ".report.json"), "utf8"));
}

/**
 * Bake figures at `size`² on 1 worker and on `workers`, `runs` bakes each (with `allCoresOnly`, on
 * `workers` only: the large bake's memory figure).
 */
export async function runBakeFigures(cli: string, size: number, workers: number, runs: number, cycles = 1, allCoresOnly = false, mode: BakeMode = POOL_BAKE): Promise<BenchRecord[]> {
    const dir = mkdtempSync(join(tmpdir(), "bench-bake-"));
    try {
        const input = join(dir, "in.png");
        writeFileSync(input, await encodeGray16Png(heightsToSamples(generateNoiseTerrain({ width: size, depth: size, relief: 100, seed: 1 })).samples, size, size));
        const records: BenchRecord[] = [];
        const budgetMB = Math.round((10 * size * size * 4) / 2 ** 20 + 300);
        const seconds = new Map<number, number>();
        const fingerprints = new Set<string>();
        for (const threads of allCoresOnly ? [workers] : [1, workers]) {
            const reports = Array.from({ length: runs }, (_, run) => bakeOnce(cli, input, join(dir, `out-${threads}-${run}.png`), threads, cycles, mode));
            reports.forEach((report) => fingerprints.add(report.fingerprint));
            const time = summarize(reports.map((report) => report.seconds));
            seconds.set(threads, time.median);
            const detail = `terrain-erosion bake of a generated ${size}² 16-bit PNG, ${cycles} cycle${cycles === 1 ? "" : "s"} at the default options, --workers ${threads}, ${mode.detail} (${reports[0].device}), each bake its own process; the bake's own seconds (not reading or writing files)`;
            records.push({ backend: "cpu", kernel: mode.kernel, size, brushRadius: null, threads, unit: "s", ...time, runs, detail });
            const memory = summarize(reports.map((report) => report.peakResidentMB));
            records.push({ backend: "cpu", kernel: `${mode.kernel}-peak-memory`, size, brushRadius: null, threads, unit: "MB", ...memory, runs, detail: `the same bakes' peak resident memory (process.resourceUsage().maxRSS, files read and written included); issue 18's bound at this size: 10 x cells x 4 bytes + 300 MB = ${budgetMB} MB` });
        }
        if (fingerprints.size !== 1) throw new Error(`The bakes disagree: ${[...fingerprints].join(", ")}.`);
        if (allCoresOnly) return records;
        const one = seconds.get(1)!;
        const all = seconds.get(workers)!;
        records.push({ backend: "cpu", kernel: `${mode.kernel}-speedup`, size, brushRadius: null, threads: workers, unit: "x", median: one / all, min: one / all, max: one / all, runs, detail: `one-worker bake time over the ${workers}-worker time, medians` });
        return records;
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
