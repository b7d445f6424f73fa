/**
 * Keeps a one-thread figure and the yardstick it is divided by on the same core. On this machine
 * class the two vCPUs are not equally fast from minute to minute: on 2026-12-01 every pass of a
 * river batch ran 1.5 times slower on CPU 1 than on CPU 0, for tens of minutes (taskset, the same
 * process), so a figure measured on one core and its yardstick on the other differed by that
 * much, whichever way the scheduler placed them. Pinned to one core, the two sides see the same
 * core, fast or slow, and the ratio keeps only what it is meant to measure.
 *
 * Linux only (`taskset`, util-linux); elsewhere nothing is pinned and the ratios are as before.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** The core the calling thread last ran on (/proc/self/stat field 39), or null off Linux. */
function currentCpu(): number | null {
    try {
        // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
        const stat = readFileSync("/proc/self/stat", "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return Number(fields[39 - 3]);
    } catch {
        return null;
    }
}

/** Whether `taskset` can run here. */
function hasTaskset(): boolean {
    return spawnSync("taskset", ["--version"]).status === 0;
}

/** The main thread's pin: which core it holds, and the affinity it had before. */
export class CorePin {
    private _cpu: number | null = null;
    private _before: string | null = null;
    private readonly _available = hasTaskset();

    /** The pinned core, or null when nothing is pinned. */
    public get cpu(): number | null {
        return this._cpu;
    }

    /**
     * Pins the main thread (only: its thread id is the process id; worker threads keep their
     * affinity, but threads started while pinned inherit the pin) to the core it is on now.
     */
    public pinHere(): void {
        if (this._cpu !== null || !this._available) return;
        const cpu = currentCpu();
        if (cpu === null) return;
        const before = spawnSync("taskset", ["-p", "-c", String(process.pid)], { encoding: "utf8" });
        if (before.status !== 0) return;
        this._before = before.stdout.trim().split(": ").pop() ?? null;
        if (spawnSync("taskset", ["-p", "-c", String(cpu), String(process.pid)]).status === 0) this._cpu = cpu;
    }

    /** Gives the main thread its affinity back. */
    public release(): void {
        if (this._cpu === null || this._before === null) return;
        spawnSync("taskset", ["-p", "-c", this._before, String(process.pid)]);
        this._cpu = null;
    }

    /** `command` and `args` run on the pinned core (as they are when nothing is pinned). */
    public wrap(command: string, args: readonly string[]): [string, string[]] {
        return this._cpu === null ? [command, [...args]] : ["taskset", ["-c", String(this._cpu), command, ...args]];
    }
}
