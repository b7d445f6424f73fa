/**
 * One fresh process's droplet walk, for `walkProcesses.ts`: the one-thread walk at 512², radius 3,
 * as `cpuMain.ts` measures it (16384-droplet batches over the whole field, counting water visits),
 * after two batches to warm it up; prints the median of `runs` runs as JSON.
 *
 *   node bench/.build/cpu-walk.mjs RUNS
 */
import { COUNTER_COUNT, COUNTER_DROPLET_STEPS, erodeDroplets } from "../../plugin/advanced.js";
import { summarize } from "./records.js";
import { benchHeights, cpuDroplets, dropletBatch } from "./workloads.js";

const SIZE = 512;
const RADIUS = 3;
const WARM_BATCHES = 2;

const runs = Number(process.argv[2] ?? 5);
const heights = benchHeights(SIZE);
const delta = new Int32Array(SIZE * SIZE);
const water = new Int32Array(SIZE * SIZE);
const rates: number[] = [];
for (let batch = 0; batch < WARM_BATCHES + runs; batch++) {
    const { params, brush } = dropletBatch(SIZE, RADIUS, cpuDroplets(SIZE), batch);
    const counters = new Float64Array(COUNTER_COUNT);
    delta.fill(0);
    const started = performance.now();
    erodeDroplets(params, heights, delta, brush, counters, 0, params.dropletCount, water);
    const seconds = (performance.now() - started) / 1000;
    if (batch >= WARM_BATCHES) rates.push(counters[COUNTER_DROPLET_STEPS] / seconds);
}
console.log(JSON.stringify({ stepsPerSec: summarize(rates).median }));
