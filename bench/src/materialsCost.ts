/**
 * The cost of bedrock and soil on the CPU backend, two ratios per operator, each the second cycle of
 * one operator alone with the materials on over the same cycle without them, from the same generated
 * terrain, the two runs side by side in each measured pair so a slow minute slows both (a short
 * operator's pairs summed until each side has run some 50 ms: `MIN_SIDE_MS`):
 * - `materials-cost-<operator>`: hardness 2, strata of hard and soft beds, a lower angle for the
 *   soil, half a cell of soil to start: what a game that uses the rule pays, more physics included
 *   (the soil's lower angle moves more material than the run without).
 * - `materials-overhead-<operator>`: the same soil to start, hardness 1, the soil's angle the
 *   rock's, no strata: the same physics as without (every cut and every shed the same amount), so
 *   the ratio is the rule's bookkeeping alone, the figure the rock-and-soil issue's target (under
 *   1.15x) speaks of.
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { repeat, summarize, type BenchRecord, type RunCounts } from "./records.js";

const OPERATORS: Record<string, ErosionOptionsInput> = {
    droplets: { rivers: { enabled: false }, thermal: { enabled: false } },
    rivers: { hydraulic: { enabled: false }, thermal: { enabled: false } },
    thermal: { hydraulic: { enabled: false }, rivers: { enabled: false } },
    water: { hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false }, water: { enabled: true, stepsPerCycle: 4 } },
};

/** The soil every vertex starts with in both variants (cells). */
const INITIAL_SOIL = 0.5;

/** One variant of the materials: its records' kernel prefix, its options and what its detail says of them. */
interface MaterialsVariant {
    readonly kernel: string;
    readonly materials: ErosionOptionsInput["materials"];
    readonly says: string;
}

const VARIANTS: readonly MaterialsVariant[] = [
    {
        kernel: "materials-cost",
        materials: { enabled: true, hardness: 2, initialSoil: INITIAL_SOIL, strataThickness: 4, strataHardness: 10, strataShare: 0.4 },
        says: `hardness 2, strata 4 cells thick of which 40% hardness 10, ${INITIAL_SOIL} cells of soil to start; the soil's lower angle of repose also moves more material than the run without`,
    },
    {
        kernel: "materials-overhead",
        // The soil's angle the rock's (the default thermal.talus), so thermal sheds what it sheds without.
        materials: { enabled: true, hardness: 1, initialSoil: INITIAL_SOIL, strataThickness: 0, soilTalus: resolveOptions({}).thermal.talus },
        says: `hardness 1, the soil's angle of repose thermal.talus, no strata, ${INITIAL_SOIL} cells of soil to start: the same physics as without, so the ratio is the rule's overhead alone`,
    },
];

/**
 * Timed milliseconds each side of a ratio covers at least: pairs are summed until the run without
 * the materials has taken this long. A thermal or river cycle alone takes about 5 ms at 256², and
 * one pair of them varied by a third from run to run on a shared 2-core host; a droplet cycle
 * (about 90 ms) is one pair, as before.
 */
export const MIN_SIDE_MS = 50;

/** The ratio of the second cycle's time with `ruled` over `plain` options, over as many side-by-side pairs as `MIN_SIDE_MS` asks for. */
export function pairedCycleRatio(size: number, heights: Int32Array, ruled: ErosionOptionsInput, plain: ErosionOptionsInput): number {
    let withRule = 0;
    let without = 0;
    do {
        withRule += cycleMs(size, heights, ruled);
        without += cycleMs(size, heights, plain);
    } while (without < MIN_SIDE_MS);
    return withRule / without;
}

/** Milliseconds of the second cycle of `options` from `heights` (the first makes the soil and warms the code: a game pays it once). */
function cycleMs(size: number, heights: Int32Array, options: ErosionOptionsInput): number {
    const simulation = new CpuErosionSimulation(size, size, heights, resolveOptions(options));
    simulation.runCycles(1);
    const started = performance.now();
    simulation.runCycles(1);
    return performance.now() - started;
}

/** The materials' cost and overhead ratios of every operator at `size`. */
export async function runMaterialsCostFigures(size: number, counts: RunCounts): Promise<BenchRecord[]> {
    const heights = heightsToFixed(generateNoiseTerrain({ width: size, depth: size, relief: size / 8, seed: 3 }));
    const records: BenchRecord[] = [];
    for (const variant of VARIANTS) {
        for (const [operator, alone] of Object.entries(OPERATORS)) {
            const values = await repeat(counts, () => pairedCycleRatio(size, heights, { ...alone, materials: variant.materials }, alone));
            const detail = `the second cycle of ${operator} alone (defaults otherwise) with the materials on (${variant.says}) over the same cycle without them, CpuErosionSimulation on one thread (the droplets and the river walk on WebAssembly either way), pairs summed until the side without has taken ${MIN_SIDE_MS} ms`;
            records.push({ backend: "cpu", kernel: `${variant.kernel}-${operator}`, size, brushRadius: null, threads: 1, unit: "x", ...summarize(values), runs: counts.runs, detail });
        }
    }
    return records;
}
