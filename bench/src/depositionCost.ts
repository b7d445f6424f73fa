/**
 * What laying material down costs the rivers on the CPU backend (issue 60: "the cost of deposition
 * per operator, at equal physics otherwise"): `deposition-cost-rivers`, the second cycle of the
 * rivers alone at the defaults over the same cycle with `rivers.deposition` 0 (nothing laid down
 * beyond capacity), on the mountain front of the landform claims, where the rivers lay a fan; the
 * two runs side by side in each measured pair, summed until the run without has taken
 * `MIN_SIDE_MS`. (Contract version 14's change to the rule took work away: a deposit no longer
 * looks for the lowest neighbouring fill level above its own.)
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { mountainFront } from "../../scripts/realism/landforms.js";
import { repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";

/** Milliseconds each side of a ratio covers at least (see materialsCost.ts). */
const MIN_SIDE_MS = 50;

/** Milliseconds of the second cycle of `options` on `heights` (the first warms the code). */
function secondCycleMs(width: number, heights: Int32Array, options: ErosionOptionsInput): number {
    const simulation = new CpuErosionSimulation(width, width, heights, resolveOptions(options));
    simulation.runCycles(1);
    const started = performance.now();
    simulation.runCycles(1);
    return performance.now() - started;
}

/** The rivers' deposition cost ratio on the 129² mountain front. */
export async function runDepositionCostFigures(counts: RunCounts): Promise<BenchRecord[]> {
    const front = mountainFront();
    const heights = heightsToFixed(front.heights);
    const alone: ErosionOptionsInput = { hydraulic: { enabled: false }, thermal: { enabled: false } };
    const values = await repeat(counts, () => {
        let laying = 0;
        let not = 0;
        do {
            laying += secondCycleMs(front.width, heights, alone);
            not += secondCycleMs(front.width, heights, { ...alone, rivers: { deposition: 0 } });
        } while (not < MIN_SIDE_MS);
        return laying / not;
    });
    return [
        {
            backend: "cpu", kernel: "deposition-cost-rivers", size: front.width, brushRadius: null, threads: 1, unit: "x", ...summarize(values), runs: counts.runs,
            detail: `the second cycle of the rivers alone at the defaults over the same cycle with rivers.deposition 0, on the landform claims' mountain front (a fan at the outlet), CpuErosionSimulation on one thread, pairs summed until the side without has taken ${MIN_SIDE_MS} ms`,
        },
    ];
}
