/**
 * The one-thread droplet walk in several fresh processes, each against the plain-JS walk yardstick
 * run just before it on the same core: issue 17 asks the walk for 0.75x the JS walk "in every
 * process", and a JIT can compile the same code differently from one process to the next (the
 * TypeScript walk did: 10-20% slower in some processes, the cause found and removed, see
 * plugin/kernels/droplets/erodeDroplets.ts), which one process's figure cannot show. Since the droplets run
 * on WebAssembly there is one compiled walk for every process.
 */
import { execFileSync } from "node:child_process";
import type { CorePin } from "./cpuAffinity.js";
import { summarize, type BenchRecord } from "./records.js";
import { measureYardstickNow } from "./yardsticks.js";

/**
 * `processes` fresh processes of `walkScript` (bench/.build/cpu-walk.mjs), each beside the JS walk
 * yardstick, both pinned with `pin` to the core this thread is on: the walk's figures and the
 * ratio of each process's walk to the yardstick beside it.
 */
export function runWalkProcessFigures(walkScript: string, processes: number, quick: boolean, runs: number, pin: CorePin): BenchRecord[] {
    const walks: number[] = [];
    const ratios: number[] = [];
    let pinned = false;
    for (let index = 0; index < processes; index++) {
        pin.pinHere();
        pinned ||= pin.cpu !== null;
        const yardstick = measureYardstickNow("yardstick-js-walk", quick, 1, pin);
        const output = execFileSync(...pin.wrap(process.execPath, [walkScript, String(runs)]), { encoding: "utf8" });
        const walk = (JSON.parse(output.trim().split("\n").pop()!) as { stepsPerSec: number }).stepsPerSec;
        pin.release();
        walks.push(walk);
        if (yardstick !== null) ratios.push(walk / yardstick);
    }
    const where = pinned ? ", each pinned to one core with its yardstick" : "";
    const detail = `${processes} fresh processes (bench/src/walkProcessMain.ts), each the median of ${runs} 16384-droplet batches at 512², radius 3, after 2 to warm up${where}`;
    const records: BenchRecord[] = [{ backend: "cpu", kernel: "droplet-processes", size: 512, brushRadius: 3, threads: 1, unit: "steps/s", ...summarize(walks), runs: processes, detail }];
    if (ratios.length > 0) {
        records.push({ backend: "cpu", kernel: "ratio-walk-vs-js-processes", size: 512, brushRadius: 3, threads: 1, unit: "x", ...summarize(ratios), runs: processes, detail: `${detail}; each over the JS walk yardstick run once just before it: min is the slowest process's ratio` });
    }
    return records;
}
