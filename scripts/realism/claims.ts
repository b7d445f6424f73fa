/**
 * The realism thresholds the repository claims, as data: `npm run realism` checks them at full size
 * (exiting non-zero when one is missed) and the jest suite at CI size.
 */
import type { ErosionOptionsInput } from "../../plugin/core/options.js";
import { erodeHeightfield } from "../../plugin/core/erodeHeightfield.js";
import { pearsonOf } from "../../plugin/analysis/drainageMetrics.js";
import { boxBlur3, changeMap, measureRun, toCoarse, type RealismRun } from "./measure.js";
import { coarsen, generatedTerrain, generatedTerrainFine, montBlanc, type Terrain } from "./terrains.js";

/** Full size (the report) or CI size (the tests). */
export type RealismSize = "full" | "ci";

/** One measured figure of a claim against its bound. */
export interface Check {
    readonly what: string;
    readonly value: number;
    /** The bound, as text (e.g. "<= 1.25"). */
    readonly bound: string;
    readonly passed: boolean;
}

/** What checking one claim found. */
export interface ClaimResult {
    readonly id: string;
    readonly issue: string;
    readonly title: string;
    readonly checks: readonly Check[];
    readonly runs: readonly RealismRun[];
    readonly passed: boolean;
}

/** A threshold the repository claims. */
export interface Claim {
    readonly id: string;
    /** The issue that set it. */
    readonly issue: string;
    readonly title: string;
    evaluate(size: RealismSize): Promise<ClaimResult>;
}

const atMost = (what: string, value: number, limit: number): Check => ({ what, value, bound: `<= ${limit}`, passed: value <= limit });
const atLeast = (what: string, value: number, limit: number): Check => ({ what, value, bound: `>= ${limit}`, passed: value >= limit });
const within = (what: string, value: number, centre: number, tolerance: number): Check => ({ what, value, bound: `${centre} ± ${tolerance}`, passed: Math.abs(value - centre) <= tolerance });

function result(claim: Omit<Claim, "evaluate">, checks: Check[], runs: RealismRun[]): ClaimResult {
    return { ...claim, checks, runs, passed: checks.every((check) => check.passed) };
}

/** Every operator of the contract that drains (droplets, thermal, flow) switched on over the defaults. */
export const ALL_OPERATORS: ErosionOptionsInput = { flow: { enabled: true } };

/** The Mont Blanc terrain of a size: whole for the report, its centre 257^2 for CI. */
function montBlancFor(size: RealismSize): Promise<Terrain> {
    return montBlanc(size === "full" ? undefined : 257);
}

const droplets: Claim = {
    id: "droplets-mont-blanc",
    issue: "realism and units",
    title: "Droplets alone (defaults), Mont Blanc, 10 cycles: no dams",
    async evaluate(size) {
        const run = measureRun(await montBlancFor(size), { thermal: { enabled: false } }, 10);
        return result(this, [atMost("pit fraction / initial", run.after.pitFraction / run.before.pitFraction, 1.25), atLeast("channel cells / initial", run.after.channelCells / run.before.channelCells, 0.9), atMost("mean change of steep channel cells (m)", run.steepChange, 0)], [run]);
    },
};

const allOperators: Claim = {
    id: "all-operators-mont-blanc",
    issue: "realism and units",
    title: "Defaults with every operator (droplets, thermal, flow), Mont Blanc, 20 cycles",
    async evaluate(size) {
        const run = measureRun(await montBlancFor(size), ALL_OPERATORS, 20);
        return result(
            this,
            [atMost("pit fraction / initial", run.after.pitFraction / run.before.pitFraction, 1.25), atLeast("channel cells / initial", run.after.channelCells / run.before.channelCells, 0.9), atLeast("theta / initial", run.after.theta / run.before.theta, 0.8), atLeast("mean |change| (m)", run.meanAbsChange, 1)],
            [run]
        );
    },
};

const scale: Claim = {
    id: "scale",
    issue: "realism and units",
    title: "Defaults, 20 cycles, the generated terrain (1 m cells, 60 m relief) scaled by s in x, y and z: the same erosion",
    async evaluate(size) {
        const terrain = generatedTerrain(size === "full" ? 257 : 129, 1, 60);
        const { width, depth } = terrain;
        const reference = erodeHeightfield(terrain.heights, width, depth, {}, 20, 1);
        const referenceChange = changeMap(terrain.heights, reference.heights);
        const referenceMean = referenceChange.reduce((a, b) => a + Math.abs(b), 0) / referenceChange.length;
        const checks: Check[] = [];
        for (const s of [0.1, 10, 30]) {
            const scaled = terrain.heights.map((h) => h * s);
            const eroded = erodeHeightfield(scaled, width, depth, {}, 20, s);
            const change = changeMap(scaled, eroded.heights).map((d) => d / s);
            const mean = change.reduce((a, b) => a + Math.abs(b), 0) / change.length;
            checks.push(atLeast(`s = ${s}: correlation of blurred Δh/s`, pearsonOf(boxBlur3(referenceChange, width, depth), boxBlur3(change, width, depth)), 0.9));
            checks.push(within(`s = ${s}: mean |Δh|/s over the unscaled run's`, mean / referenceMean, 1, 0.1));
        }
        return result(this, checks, []);
    },
};

const resolution: Claim = {
    id: "resolution",
    issue: "realism and units",
    title: "featureSize 1 m, 20 cycles, the generated terrain at cells c = 1 m and c/2 over the same extent: the same erosion",
    async evaluate(size) {
        const fine = generatedTerrainFine(size === "full" ? 257 : 129, 1, 60);
        const coarse = coarsen(fine);
        const options: ErosionOptionsInput = { featureSize: 1 };
        const coarseRun = erodeHeightfield(coarse.heights, coarse.width, coarse.depth, options, 20, coarse.cellSize);
        const fineRun = erodeHeightfield(fine.heights, fine.width, fine.depth, options, 20, fine.cellSize);
        const coarseChange = changeMap(coarse.heights, coarseRun.heights);
        const fineChange = changeMap(fine.heights, fineRun.heights);
        const movedCoarse = coarseChange.reduce((a, b) => a + Math.abs(b), 0) * coarse.cellSize ** 2;
        const movedFine = fineChange.reduce((a, b) => a + Math.abs(b), 0) * fine.cellSize ** 2;
        return result(
            this,
            [atLeast("correlation of erosion-depth maps at the coarse resolution (blurred)", pearsonOf(boxBlur3(coarseChange, coarse.width, coarse.depth), boxBlur3(toCoarse(fineChange, fine.width), coarse.width, coarse.depth)), 0.6), within("material moved at c/2 over at c", movedFine / movedCoarse, 1, 0.3)],
            []
        );
    },
};

/** Every claim, in report order. */
export const CLAIMS: readonly Claim[] = [droplets, allOperators, scale, resolution];
