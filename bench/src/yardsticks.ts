/**
 * The yardsticks (bench/yardstick/, unchanged copies of the reference implementations in
 * ../shared/yardstick/): a C float droplet walk, the same walk in plain JavaScript, and a plain
 * JavaScript two-pass thermal. Hosts of this machine class differ by a third from one day to the
 * next, so the CPU figures are stated as ratios to these, measured in the same run, each yardstick
 * in its own process (as its README runs it) between the project's figures.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { summarize, type BenchRecord } from "./records.js";

const DIRECTORY = "bench/yardstick";
const BINARY = "bench/.build/yardstick-erode";

/** One yardstick figure: what ran, its unit, and how to run it once (its rate, per second). */
interface Yardstick {
    readonly kernel: string;
    readonly unit: string;
    readonly detail: string;
    run(): number;
}

/** The yardstick's own JSON output line. */
function lastJson(output: string): Record<string, number> {
    return JSON.parse(output.trim().split("\n").pop()!);
}

/** Compiles the C walk (`gcc -O3 -march=native`), or returns why it cannot. */
function compileC(): string | null {
    if (existsSync(BINARY)) return null;
    mkdirSync("bench/.build", { recursive: true });
    const result = spawnSync("gcc", ["-O3", "-march=native", "-o", BINARY, join(DIRECTORY, "erode.c"), "-lm"], { encoding: "utf8" });
    return result.status === 0 ? null : `gcc failed: ${result.error?.message ?? result.stderr}`;
}

/** The yardsticks this machine can run (the C walk needs gcc). */
export function yardsticks(quick: boolean): { sticks: Yardstick[]; skipped: string[] } {
    const droplets = quick ? 150000 : 300000;
    const sticks: Yardstick[] = [];
    const skipped: string[] = [];
    const problem = compileC();
    if (problem) {
        skipped.push(`yardstick-c-walk (${problem})`);
    } else {
        sticks.push({ kernel: "yardstick-c-walk", unit: "steps/s", detail: `bench/yardstick/erode.c (gcc -O3 -march=native), 512² radius 3, ${droplets} droplets`, run: () => lastJson(execFileSync(BINARY, ["512", String(droplets), "3"], { encoding: "utf8" })).stepsPerSec });
    }
    sticks.push({ kernel: "yardstick-js-walk", unit: "steps/s", detail: `bench/yardstick/erode.mjs (Float32Array), 512² radius 3, ${droplets} droplets`, run: () => lastJson(execFileSync(process.execPath, [join(DIRECTORY, "erode.mjs"), "512", String(droplets), "3"], { encoding: "utf8" })).stepsPerSec });
    sticks.push({ kernel: "yardstick-js-thermal", unit: "cells/s", detail: "bench/yardstick/thermal.mjs (Float32Array, two passes, 8 neighbours), 1024², 30 iterations", run: () => lastJson(execFileSync(process.execPath, [join(DIRECTORY, "thermal.mjs"), "1024", "30"], { encoding: "utf8" })).cellsPerSec });
    return { sticks, skipped };
}

/**
 * The median rate of yardstick `kernel` over `runs` runs, measured now: for a ratio whose two sides
 * are measured side by side, just before the figure it divides (null where the stick cannot run).
 * Hosts of this class also drift within a run: one vCPU's C walk halved for minutes at a time
 * while another tenant was busy (2026-12-01), so start-of-run yardsticks could be measured in a
 * quiet minute and the project's figure in a busy one, or the other way round.
 */
export function measureYardstickNow(kernel: string, quick: boolean, runs: number): number | null {
    const stick = yardsticks(quick).sticks.find((candidate) => candidate.kernel === kernel);
    if (!stick) return null;
    return summarize(Array.from({ length: runs }, () => stick.run())).median;
}

/** Runs each yardstick `runs` times: one record each. */
export function measureYardsticks(quick: boolean, runs: number): { records: BenchRecord[]; skipped: string[] } {
    const { sticks, skipped } = yardsticks(quick);
    const records = sticks.map((stick): BenchRecord => {
        const values = Array.from({ length: runs }, () => stick.run());
        return { backend: "cpu", kernel: stick.kernel, size: stick.kernel.endsWith("thermal") ? 1024 : 512, brushRadius: stick.kernel.endsWith("walk") ? 3 : null, threads: 1, unit: stick.unit, ...summarize(values), runs, detail: stick.detail };
    });
    return { records, skipped };
}

/**
 * The flow operator's figure issue 17 measured on one host (2026-11-30, `npm run bench -- --quick`):
 * 0.7 M cells/s one thread, where the C walk did 13.1 M steps/s. Its target for the river operator
 * (10x that) is a ratio like the others, so the figure is scaled by this run's C walk.
 */
const ISSUE_FLOW_CELLS_PER_S = 0.7e6;
const ISSUE_C_WALK_STEPS_PER_S = 13.1e6;

/** Yardstick medians measured just before the figure of each ratio (`measureYardstickNow`), by the ratio's kernel. */
export type AdjacentYardsticks = ReadonlyMap<string, number>;

/**
 * The ratios issue targets are stated in: the project's one-thread droplet walk (512² radius 3)
 * over the C and JS walks, its one-thread thermal (1024²) over the JS thermal, and its river
 * operator (one thread at 512², the component's pool at 513² on every core) over the issue's flow
 * figure scaled by the C walk, from medians of the same run. Each ratio takes its yardstick from
 * `adjacent` where it was measured just before the figure, else from the start-of-run records.
 */
export function yardstickRatios(records: readonly BenchRecord[], adjacent: AdjacentYardsticks = new Map()): BenchRecord[] {
    const find = (kernel: string, size: number, threads: number | null) => records.find((r) => r.kernel === kernel && r.size === size && r.threads === threads && (kernel !== "droplet" || r.brushRadius === 3));
    const median = (kernel: string, size: number, threads: number | null) => find(kernel, size, threads)?.median;
    const ratios: BenchRecord[] = [];
    // The yardstick of ratio `kernel`: measured just before its figure, else at the start of the run.
    const stick = (kernel: string, yardstick: string, size: number) => {
        const near = adjacent.get(kernel);
        return near !== undefined ? { value: near, when: `measured just before the figure (median)` } : { value: median(yardstick, size, 1), when: "measured at the start of the run (median)" };
    };
    const add = (kernel: string, ours: number | undefined, theirs: { value: number | undefined; when: string }, size: number, detail: string, threads = 1) => {
        if (ours !== undefined && theirs.value !== undefined) {
            const value = ours / theirs.value;
            ratios.push({ backend: "cpu", kernel, size, brushRadius: kernel.includes("walk") ? 3 : null, threads, unit: "x", median: value, min: value, max: value, runs: 1, detail: `${detail}, ${theirs.when}` });
        }
    };
    const walk = median("droplet", 512, 1);
    add("ratio-walk-vs-c", walk, stick("ratio-walk-vs-c", "yardstick-c-walk", 512), 512, "one-thread droplet steps/s (512² r3, median) over the C walk's");
    add("ratio-walk-vs-js", walk, stick("ratio-walk-vs-js", "yardstick-js-walk", 512), 512, "one-thread droplet steps/s (512² r3, median) over the plain-JS walk's");
    add("ratio-thermal-vs-js", median("thermal", 1024, 1), stick("ratio-thermal-vs-js", "yardstick-js-thermal", 1024), 1024, "one-thread thermal cells/s (1024², median) over the plain-JS thermal's");
    // The issue's flow figure scaled by a C walk: where the C walk did c steps/s, 0.7 M x c / 13.1 M.
    const flowOf = (cWalk: { value: number | undefined; when: string }) => ({ value: cWalk.value === undefined ? undefined : (ISSUE_FLOW_CELLS_PER_S * cWalk.value) / ISSUE_C_WALK_STEPS_PER_S, when: `the C walk ${cWalk.when}` });
    const flowDetail = `over issue 17's flow figure (0.7 M cells/s where the C walk did 13.1 M steps/s) scaled by the C walk`;
    add("ratio-rivers-vs-flow", median("rivers", 512, 1), flowOf(stick("ratio-rivers-vs-flow", "yardstick-c-walk", 512)), 512, `one-thread river batch cells/s (512², from a new state, median) ${flowDetail}`);
    const pool = records.filter((r) => r.kernel === "pool-rivers" && r.size === 513 && (r.threads ?? 1) > 1).sort((a, b) => (b.threads ?? 0) - (a.threads ?? 0))[0];
    if (pool) add("ratio-pool-rivers-vs-flow", (513 * 513) / (pool.median / 1000), flowOf(stick("ratio-pool-rivers-vs-flow", "yardstick-c-walk", 512)), 513, `river batch cells/s on the component's pool (513², ${pool.threads} workers sharing memory, median ms) ${flowDetail}`, pool.threads ?? 1);
    return ratios;
}
