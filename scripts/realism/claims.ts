/**
 * The realism thresholds the repository claims, as data: `npm run realism` checks them at full size
 * (exiting non-zero when one is missed) and the jest suite at CI size.
 */
import { type ErosionOptionsInput, erodeHeightfield } from "../../plugin/index.js";
import { pearsonOf } from "../../plugin/advanced.js";
import { boxBlur3, changeMap, measureRun, toCoarse, type RealismRun } from "./measure.js";
import { GENERATED_SCALES, coarsen, generatedTerrain, generatedTerrainFine, montBlanc, type Terrain } from "./terrains.js";
import { capRock, capRockDefaults, materialsDrainage, soilGathers } from "./materialClaims.js";
import { alluvialFan, delta, floodplain, talusApron } from "./landformClaims.js";
import type { Check, Claim, ClaimResult, RealismSize } from "./claimTypes.js";

export type { Check, Claim, ClaimResult, RealismSize } from "./claimTypes.js";

const atMost = (what: string, value: number, limit: number): Check => ({ what, value, bound: `<= ${limit}`, passed: value <= limit });
const atLeast = (what: string, value: number, limit: number): Check => ({ what, value, bound: `>= ${limit}`, passed: value >= limit });
const within = (what: string, value: number, centre: number, tolerance: number): Check => ({ what, value, bound: `${centre} ± ${tolerance}`, passed: Math.abs(value - centre) <= tolerance });

function result(claim: Omit<Claim, "evaluate">, checks: Check[], runs: RealismRun[]): ClaimResult {
    return { ...claim, checks, runs, passed: checks.every((check) => check.passed) };
}


/** The Mont Blanc terrain of a size: whole for the report, its centre 257^2 for CI. */
function montBlancFor(size: RealismSize): Promise<Terrain> {
    return montBlanc(size === "full" ? undefined : 257);
}

const measured = new Map<string, RealismRun>();

/** `measureRun`, once per terrain, options and cycles (claims share the default runs). */
function measureOnce(terrain: Terrain, options: ErosionOptionsInput, cycles: number): RealismRun {
    const key = `${terrain.name}|${JSON.stringify(options)}|${cycles}`;
    let run = measured.get(key);
    if (!run) {
        run = measureRun(terrain, options, cycles);
        measured.set(key, run);
    }
    return run;
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
    title: "Defaults (every operator is on: droplets, rivers, thermal), Mont Blanc, 20 cycles",
    async evaluate(size) {
        const run = measureOnce(await montBlancFor(size), {}, 20);
        return result(
            this,
            [atMost("pit fraction / initial", run.after.pitFraction / run.before.pitFraction, 1.25), atLeast("channel cells / initial", run.after.channelCells / run.before.channelCells, 0.9), atLeast("theta / initial", run.after.theta / run.before.theta, 0.8), atLeast("mean |change| (m)", run.meanAbsChange, 1)],
            [run]
        );
    },
};

/** The scale claim: `options` on the generated terrain scaled by s in x, y and z erode the same. */
function scaleClaim(id: string, title: string, issue: string, options: ErosionOptionsInput, cycles: number): Claim {
    return {
        id,
        issue,
        title,
        async evaluate(size) {
            const terrain = generatedTerrain(size === "full" ? 257 : 129, 1, 60);
            const { width, depth } = terrain;
            const reference = erodeHeightfield(terrain.heights, width, depth, options, cycles, 1);
            const referenceChange = changeMap(terrain.heights, reference.heights);
            const referenceMean = referenceChange.reduce((a, b) => a + Math.abs(b), 0) / referenceChange.length;
            const checks: Check[] = [];
            for (const s of [0.1, 10, 30]) {
                const scaled = terrain.heights.map((h) => h * s);
                const eroded = erodeHeightfield(scaled, width, depth, options, cycles, s);
                const change = changeMap(scaled, eroded.heights).map((d) => d / s);
                const mean = change.reduce((a, b) => a + Math.abs(b), 0) / change.length;
                checks.push(atLeast(`s = ${s}: correlation of blurred Δh/s`, pearsonOf(boxBlur3(referenceChange, width, depth), boxBlur3(change, width, depth)), 0.9));
                checks.push(within(`s = ${s}: mean |Δh|/s over the unscaled run's`, mean / referenceMean, 1, 0.1));
            }
            return result(this, checks, []);
        },
    };
}

const scale = scaleClaim("scale", "Defaults, 20 cycles, the generated terrain (1 m cells, 60 m relief) scaled by s in x, y and z: the same erosion", "realism and units", {}, 20);

/** The shallow water in cell units like every operator: the scale claim with it on (water alone, so the figure is the water's). */
const scaleWater = scaleClaim(
    "scale-water",
    "Shallow water on (alone, its defaults with rain 0.002 cells a step), 10 cycles, the generated terrain scaled by s in x, y and z: the same erosion",
    "shallow water",
    { hydraulic: { enabled: false }, rivers: { enabled: false }, thermal: { enabled: false }, water: { enabled: true, rain: 0.002 } },
    10
);

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

/** What the stream-power issue asks of every run: steep channels cut, lowering ranked by stream power. */
function cutting(run: RealismRun, label: string): Check[] {
    return [atLeast(`${label}: steep channel lowering / mean |Δh|`, -run.steepChange / run.meanAbsChange, 1.5), atLeast(`${label}: Spearman(lowering, A^0.5 S)`, run.lowering, 0.2)];
}

const riversGenerated: Claim = {
    id: "rivers-generated",
    issue: "stream-power rivers",
    title: "Defaults, 20 cycles, the generated terrain at 1, 10, 30 and 90 m cells: rivers connect and cut",
    async evaluate() {
        const checks: Check[] = [];
        const runs: RealismRun[] = [];
        for (const { cellSize, relief } of GENERATED_SCALES) {
            // 257^2 at CI size too: on the 129^2 surface every steep channel cell lies in a closed basin of
            // the starting terrain, so the steep-channel figure there measures how lakes fill, not cutting.
            const run = measureRun(generatedTerrain(257, cellSize, relief), {}, 20);
            const label = `${cellSize} m`;
            checks.push(atMost(`${label}: pit fraction / initial`, run.after.pitFraction / run.before.pitFraction, 0.6));
            checks.push(atLeast(`${label}: channel cells / initial`, run.after.channelCells / run.before.channelCells, 1.15));
            checks.push(atLeast(`${label}: theta gain`, run.after.theta - run.before.theta, 0.05));
            checks.push(...cutting(run, label));
            runs.push(run);
        }
        return result(this, checks, runs);
    },
};

const riversMontBlanc: Claim = {
    id: "rivers-mont-blanc",
    issue: "stream-power rivers",
    title: "Defaults, Mont Blanc, 20 cycles: rivers connect and cut; the river operator alone ranks its lowering by stream power",
    async evaluate(size) {
        const terrain = await montBlancFor(size);
        const run = measureOnce(terrain, {}, 20);
        const alone = measureRun(terrain, { hydraulic: { enabled: false }, thermal: { enabled: false } }, 20);
        return result(
            this,
            [
                atMost("pit fraction / initial", run.after.pitFraction / run.before.pitFraction, 1.25),
                atLeast("channel cells / initial", run.after.channelCells / run.before.channelCells, 0.9),
                atLeast("theta / initial", run.after.theta / run.before.theta, 0.8),
                atLeast("mean |change| (m)", run.meanAbsChange, 1),
                ...cutting(run, "defaults"),
                atLeast("rivers alone: Spearman(lowering, A^0.5 S)", alone.lowering, 0.3),
            ],
            [run, alone]
        );
    },
};

/** Every claim, in report order. */
export const CLAIMS: readonly Claim[] = [droplets, allOperators, scale, scaleWater, resolution, riversGenerated, riversMontBlanc, capRock, capRockDefaults, soilGathers, materialsDrainage, alluvialFan, floodplain, delta, talusApron];
