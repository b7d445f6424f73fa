/**
 * What laying material down costs each operator that does it on the CPU backend (issue 60: "the
 * cost of deposition per operator, at equal physics otherwise"), each a ratio of two runs side by
 * side in every measured pair, summed until the run without has taken `MIN_SIDE_MS`:
 * - `deposition-cost-droplets`: one droplet batch over the whole field with the fill levels (a step
 *   that starts in standing water has no speed: contract version 14) over the same batch without
 *   them (`erodeDroplets` given no levels), on the bench's noise terrain whose pits hold lakes (its
 *   priority-flood levels): the rule's reads alone, on WebAssembly as the backend runs it.
 * - `deposition-cost-rivers`: the second cycle of the rivers alone at the defaults over the same
 *   cycle with `rivers.deposition` 0 (nothing laid down beyond capacity), on the mountain front of
 *   the landform claims, where the rivers lay a fan.
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { COUNTER_COUNT, erodeDroplets, priorityFloodFill } from "../../plugin/advanced.js";
import { mountainFront } from "../../scripts/realism/landforms.js";
import { repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";
import { benchHeights, cpuDroplets, dropletBatch } from "./workloads.js";

/** Milliseconds each side of a ratio covers at least (see materialsCost.ts). */
const MIN_SIDE_MS = 50;

/** The ratio of `withRule()`'s milliseconds over `without()`'s, run in turn until `without` has taken MIN_SIDE_MS. */
function pairedRatio(withRule: () => number, without: () => number): number {
    let ruled = 0;
    let plain = 0;
    do {
        ruled += withRule();
        plain += without();
    } while (plain < MIN_SIDE_MS);
    return ruled / plain;
}

function timed(run: () => void): number {
    const started = performance.now();
    run();
    return performance.now() - started;
}

/** Milliseconds of the second cycle of `options` on `heights` (the first warms the code and the levels). */
function secondCycleMs(width: number, heights: Int32Array, options: ErosionOptionsInput): number {
    const simulation = new CpuErosionSimulation(width, width, heights, resolveOptions(options));
    simulation.runCycles(1);
    return timed(() => simulation.runCycles(1));
}

/** The deposition cost ratios of the droplets (at `size`) and the rivers (on the 129² mountain front). */
export async function runDepositionCostFigures(size: number, counts: RunCounts): Promise<BenchRecord[]> {
    const heights = benchHeights(size);
    const levels = priorityFloodFill(heights, size, size);
    const lakeShare = levels.reduce((sum, level, i) => sum + (level > heights[i] ? 1 : 0), 0) / levels.length;
    const { params, brush } = dropletBatch(size, 3, cpuDroplets(size), 7);
    const delta = new Int32Array(size * size);
    const batch = (withLevels: boolean) => () =>
        timed(() => erodeDroplets(params, heights, delta, brush, new Float64Array(COUNTER_COUNT), 0, params.dropletCount, null, null, null, withLevels ? levels : null));
    const droplets = await repeat(counts, () => pairedRatio(batch(true), batch(false)));

    const front = mountainFront();
    const frontHeights = heightsToFixed(front.heights);
    const alone = { hydraulic: { enabled: false }, thermal: { enabled: false } };
    const rivers = await repeat(counts, () =>
        pairedRatio(() => secondCycleMs(front.width, frontHeights, alone), () => secondCycleMs(front.width, frontHeights, { ...alone, rivers: { deposition: 0 } }))
    );
    return [
        {
            backend: "cpu", kernel: "deposition-cost-droplets", size, brushRadius: 3, threads: 1, unit: "x", ...summarize(droplets), runs: counts.runs,
            detail: `one batch of ${params.dropletCount} droplets over the whole noise terrain with its fill levels (${(100 * lakeShare).toFixed(1)}% of the vertices under standing water) over the same batch without them, erodeDroplets on one thread (WebAssembly), pairs summed until the side without has taken ${MIN_SIDE_MS} ms`,
        },
        {
            backend: "cpu", kernel: "deposition-cost-rivers", size: front.width, brushRadius: null, threads: 1, unit: "x", ...summarize(rivers), runs: counts.runs,
            detail: `the second cycle of the rivers alone at the defaults over the same cycle with rivers.deposition 0, on the landform claims' mountain front (a fan at the outlet), CpuErosionSimulation on one thread, pairs summed until the side without has taken ${MIN_SIDE_MS} ms`,
        },
    ];
}
