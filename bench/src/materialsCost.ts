/**
 * The cost of bedrock and soil on the CPU backend (`materials-cost-<operator>`, a ratio): the second
 * cycle of one operator alone with the materials on (hardness 2, strata of hard and soft beds, half a cell
 * of soil to start) over the same cycle without them, from the same generated terrain, the two runs
 * side by side in each measured pair so a slow minute slows both.
 */
import { CpuErosionSimulation, generateNoiseTerrain, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";

const OPERATORS: Record<string, ErosionOptionsInput> = {
    droplets: { rivers: { enabled: false }, thermal: { enabled: false } },
    rivers: { hydraulic: { enabled: false }, thermal: { enabled: false } },
    thermal: { hydraulic: { enabled: false }, rivers: { enabled: false } },
    water: { hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false }, water: { enabled: true, stepsPerCycle: 4 } },
};

const MATERIALS: ErosionOptionsInput["materials"] = { enabled: true, hardness: 2, initialSoil: 0.5, strataThickness: 4, strataHardness: 10, strataShare: 0.4 };

/** Milliseconds of the second cycle of `options` from `heights` (the first makes the soil and warms the code: a game pays it once). */
function cycleMs(size: number, heights: Int32Array, options: ErosionOptionsInput): number {
    const simulation = new CpuErosionSimulation(size, size, heights, resolveOptions(options));
    simulation.runCycles(1);
    const started = performance.now();
    simulation.runCycles(1);
    return performance.now() - started;
}

/** The materials' cost ratio of every operator at `size`. */
export async function runMaterialsCostFigures(size: number, counts: RunCounts): Promise<BenchRecord[]> {
    const heights = heightsToFixed(generateNoiseTerrain({ width: size, depth: size, relief: size / 8, seed: 3 }));
    const records: BenchRecord[] = [];
    for (const [operator, alone] of Object.entries(OPERATORS)) {
        const values = await repeat(counts, () => cycleMs(size, heights, { ...alone, materials: MATERIALS }) / cycleMs(size, heights, alone));
        const detail = `the second cycle of ${operator} alone (defaults otherwise) with the materials on (hardness 2, strata 4 cells thick of which 40% hardness 10, 0.5 cells of soil to start) over the same cycle without them, CpuErosionSimulation on one thread (the droplets and the river walk on WebAssembly either way); the soil's lower angle of repose also moves more material than the run without`;
        records.push({ backend: "cpu", kernel: `materials-cost-${operator}`, size, brushRadius: null, threads: 1, unit: "x", ...summarize(values), runs: counts.runs, detail });
    }
    return records;
}
