/**
 * What laying material down costs the rivers on the CPU backend (issue 60: "the cost of deposition
 * per operator, at equal physics otherwise"): `deposition-cost-rivers`, the second cycle of the
 * rivers alone at the defaults over the same cycle with `rivers.deposition` 0 (nothing laid down
 * beyond capacity), on the mountain front of the landform claims, where the rivers lay a fan; the
 * two runs side by side in each measured pair, summed until the run without has taken
 * `MIN_SIDE_MS`. (Contract version 14's change to the rule took work away: a deposit no longer
 * looks for the lowest neighbouring fill level above its own.)
 */
import { heightsToFixed, type ErosionOptionsInput } from "../../plugin/index.js";
import { mountainFront } from "../../scripts/realism/landforms.js";
import { MIN_SIDE_MS, pairedCycleRatio } from "./materialsCost.js";
import { repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";

/** The rivers' deposition cost ratio on the 129² mountain front. */
export async function runDepositionCostFigures(counts: RunCounts): Promise<BenchRecord[]> {
    const front = mountainFront();
    const heights = heightsToFixed(front.heights);
    const alone: ErosionOptionsInput = { hydraulic: { enabled: false }, thermal: { enabled: false } };
    const values = await repeat(counts, () => pairedCycleRatio(front.width, heights, alone, { ...alone, rivers: { deposition: 0 } }));
    return [
        {
            backend: "cpu", kernel: "deposition-cost-rivers", size: front.width, brushRadius: null, threads: 1, unit: "x", ...summarize(values), runs: counts.runs,
            detail: `the second cycle of the rivers alone at the defaults over the same cycle with rivers.deposition 0, on the landform claims' mountain front (a fan at the outlet), CpuErosionSimulation on one thread, pairs summed until the side without has taken ${MIN_SIDE_MS} ms`,
        },
    ];
}
