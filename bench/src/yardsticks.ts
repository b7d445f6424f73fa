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
import type { CorePin } from "./cpuAffinity.js";
import { summarize, type BenchRecord } from "./records.js";

const DIRECTORY = "bench/yardstick";
const BINARY = "bench/.build/yardstick-erode";

/** Runs a command (`CorePin.wrap`'s, to run it on a pinned core) and returns its output. */
type Runner = (command: string, args: readonly string[]) => string;

const runPlain: Runner = (command, args) => execFileSync(command, args, { encoding: "utf8" });

/** One yardstick figure: what ran, its unit, and how to run it once (its rate, per second) with `runner`. */
interface Yardstick {
    readonly kernel: string;
    readonly unit: string;
    readonly detail: string;
    run(runner?: Runner): number;
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
        sticks.push({ kernel: "yardstick-c-walk", unit: "steps/s", detail: `bench/yardstick/erode.c (gcc -O3 -march=native), 512² radius 3, ${droplets} droplets`, run: (runner = runPlain) => lastJson(runner(BINARY, ["512", String(droplets), "3"])).stepsPerSec });
    }
    sticks.push({ kernel: "yardstick-js-walk", unit: "steps/s", detail: `bench/yardstick/erode.mjs (Float32Array), 512² radius 3, ${droplets} droplets`, run: (runner = runPlain) => lastJson(runner(process.execPath, [join(DIRECTORY, "erode.mjs"), "512", String(droplets), "3"])).stepsPerSec });
    sticks.push({ kernel: "yardstick-js-thermal", unit: "cells/s", detail: "bench/yardstick/thermal.mjs (Float32Array, two passes, 8 neighbours), 1024², 30 iterations", run: (runner = runPlain) => lastJson(runner(process.execPath, [join(DIRECTORY, "thermal.mjs"), "1024", "30"])).cellsPerSec });
    return { sticks, skipped };
}

/**
 * The median rate of yardstick `kernel` over `runs` runs, measured now: for a ratio whose two sides
 * are measured side by side, just before the figure it divides (null where the stick cannot run).
 * Hosts of this class also drift within a run: one vCPU's C walk halved for minutes at a time
 * while another tenant was busy (2026-12-01), so start-of-run yardsticks could be measured in a
 * quiet minute and the project's figure in a busy one, or the other way round. With `pin` (its
 * main thread pinned), the yardstick runs on the pinned core, as the figure after it does.
 */
export function measureYardstickNow(kernel: string, quick: boolean, runs: number, pin: CorePin | null = null): number | null {
    const stick = yardsticks(quick).sticks.find((candidate) => candidate.kernel === kernel);
    if (!stick) return null;
    const runner: Runner = pin === null ? runPlain : (command, args) => runPlain(...pin.wrap(command, args));
    return summarize(Array.from({ length: runs }, () => stick.run(runner))).median;
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

export { yardstickRatios, type AdjacentYardsticks } from "../../scripts/lib/yardstickRatios.js";
