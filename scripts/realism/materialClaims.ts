/**
 * The realism claims of bedrock and soil (the rock-and-soil issue): a hard cap rock makes cliffs at
 * its base and a bench above it, and soil gathers where water does and leaves ridges and cliffs
 * bare. `claims.ts` lists them with the others.
 */
import { CpuErosionSimulation, heightsToFixed, resolveOptions, type ErosionOptionsInput } from "../../plugin/index.js";
import { drainageField } from "../../plugin/terrain.js";
import { pearsonOf, spearman } from "../../plugin/advanced.js";
import type { Check, Claim, ClaimResult, RealismSize } from "./claimTypes.js";
import { generatedTerrain, montBlanc, type Terrain } from "./terrains.js";
import { measureRun, type RealismRun } from "./measure.js";

/** The cap rock's plateau: a square table 40 cells high falling at slope 0.6 to a plain 4 cells high, with a little relief so water picks its ways. */
export function capRockPlateau(size: number): Terrain {
    const heights = new Float32Array(size * size);
    const centre = (size - 1) / 2;
    const rim = size * 0.15;
    for (let y = 0; y < size; y++) {
        for (let x = 0; x < size; x++) {
            const r = Math.max(Math.abs(x - centre), Math.abs(y - centre)) + 0.3 * Math.sin(x * 0.7) * Math.cos(y * 0.5);
            heights[y * size + x] = Math.min(40, Math.max(4, 40 - (r - rim) * 0.6)) + 0.15 * Math.sin(x * 1.3 + y * 0.9);
        }
    }
    return { name: `cap-rock plateau ${size}²`, width: size, depth: size, cellSize: 1, heights };
}

/** Where the cap rock starts (cells) and its thickness: the plateau's top ten cells and more. */
export const CAP_BASE = 30;
const CAP_THICKNESS = 12;

/** The cap-rock runs' options: thermal strong enough that soft slopes settle, rock as steep as 63 degrees; capped: one bed of hardness 10 at the top. */
export const CAP_ROCK_OPTIONS: ErosionOptionsInput = { patchSize: 32, thermal: { talus: 2, iterations: 32, rate: 1 }, rivers: { erosion: 0.05 }, materials: { enabled: true, soilTalus: 0.6, hardness: 1 } };
export const CAPPED_OPTIONS: ErosionOptionsInput = { ...CAP_ROCK_OPTIONS, materials: { ...CAP_ROCK_OPTIONS.materials, strataThickness: CAP_THICKNESS, strataBase: CAP_BASE, strataBeds: 1, strataShare: 1, strataHardness: 10 } };

/** Heights (cells) after `cycles` cycles of `options` on `terrain`, with the soil (cells). */
export function erodeWithSoil(terrain: Terrain, options: ErosionOptionsInput, cycles: number): { heights: Float64Array; soil: Float64Array } {
    const { width, depth, cellSize } = terrain;
    const simulation = new CpuErosionSimulation(width, depth, heightsToFixed(terrain.heights, "heights", undefined, cellSize), resolveOptions(options), cellSize);
    simulation.runCycles(cycles);
    const soil = simulation.state.materials?.soil ?? new Int32Array(width * depth);
    return { heights: Float64Array.from(simulation.state.heights, (h) => h / 65536), soil: Float64Array.from(soil, (s) => s / 65536) };
}

/** Central-difference slope (rise over run) of heights in cells, 0 on the border. */
export function slopeMap(heights: ArrayLike<number>, width: number, depth: number): Float64Array {
    const slopes = new Float64Array(width * depth);
    for (let y = 1; y < depth - 1; y++) {
        for (let x = 1; x < width - 1; x++) {
            const i = y * width + x;
            slopes[i] = Math.hypot((heights[i + 1] - heights[i - 1]) / 2, (heights[i + width] - heights[i - width]) / 2);
        }
    }
    return slopes;
}

/**
 * The cap-rock figures of one run: cells steeper than 45 degrees, mean slope near the cap's base and
 * elsewhere, and the median slope and mean lowering (cells) of the plateau's top (where the start
 * stood above 39.5 cells).
 */
export function capRockFigures(heights: ArrayLike<number>, start: ArrayLike<number>, size: number): { steep: number; baseSlope: number; elsewhereSlope: number; topSlope: number; topLowering: number } {
    const slopes = slopeMap(heights, size, size);
    let steep = 0;
    const near = { sum: 0, count: 0 };
    const far = { sum: 0, count: 0 };
    const top: number[] = [];
    let lowering = 0;
    for (let y = 1; y < size - 1; y++) {
        for (let x = 1; x < size - 1; x++) {
            const i = y * size + x;
            if (slopes[i] > 1) steep++;
            const band = Math.abs(heights[i] - CAP_BASE) < 3 ? near : far;
            band.sum += slopes[i];
            band.count++;
            if (start[i] > 39.5) {
                top.push(slopes[i]);
                lowering += start[i] - heights[i];
            }
        }
    }
    const mean = (part: { sum: number; count: number }) => part.sum / Math.max(1, part.count);
    top.sort((a, b) => a - b);
    return { steep, baseSlope: mean(near), elsewhereSlope: mean(far), topSlope: top.length > 0 ? top[top.length >> 1] : NaN, topLowering: lowering / Math.max(1, top.length) };
}

const atLeast = (what: string, value: number, limit: number): Check => ({ what, value, bound: `>= ${limit}`, passed: value >= limit });
const atMost = (what: string, value: number, limit: number): Check => ({ what, value, bound: `<= ${limit}`, passed: value <= limit });

function result(claim: Omit<Claim, "evaluate">, checks: Check[]): ClaimResult {
    return { ...claim, checks, runs: [], passed: checks.every((check) => check.passed) };
}

/** Cycles of the cap-rock runs. */
export const CAP_ROCK_CYCLES = 40;

export const capRock: Claim = {
    id: "cap-rock",
    issue: "rock and soil",
    title: "A plateau capped by one hard bed (hardness 10 over 1), 40 cycles: cliffs at the cap's base, a bench above",
    async evaluate(size: RealismSize) {
        const plateau = capRockPlateau(size === "full" ? 129 : 65);
        const uniform = capRockFigures(erodeWithSoil(plateau, CAP_ROCK_OPTIONS, CAP_ROCK_CYCLES).heights, plateau.heights, plateau.width);
        const capped = capRockFigures(erodeWithSoil(plateau, CAPPED_OPTIONS, CAP_ROCK_CYCLES).heights, plateau.heights, plateau.width);
        return result(this, [
            atLeast("cells steeper than 45 degrees, capped over uniform", capped.steep / Math.max(1, uniform.steep), 3),
            atLeast("capped: mean slope within 3 cells of the cap's base over elsewhere", capped.baseSlope / capped.elsewhereSlope, 2),
            atMost("capped: median slope of the plateau's top (a bench)", capped.topSlope, 0.25),
            atMost("capped over uniform: the top's mean lowering", capped.topLowering / Math.max(1e-9, uniform.topLowering), 0.5),
        ]);
    },
};

/** Cycles of the cap-rock run at the defaults: cliffs there grow with the rivers' and droplets' cutting, slower than under the mesa's strong thermal. */
export const CAP_ROCK_DEFAULT_CYCLES = 160;

export const capRockDefaults: Claim = {
    id: "cap-rock-defaults",
    issue: "landforms that build",
    title: `The materials on and every other option at its default, the plateau capped by one hard bed (strataHardness's default, 10) against uniform rock, ${CAP_ROCK_DEFAULT_CYCLES} cycles: cliffs at the cap's base`,
    async evaluate() {
        // 129^2 at CI size too: on 65^2 the plateau's flanks run off the field before the plain.
        const plateau = capRockPlateau(129);
        const on = { materials: { enabled: true } };
        const cap = { strataThickness: CAP_THICKNESS, strataBase: CAP_BASE, strataBeds: 1, strataShare: 1 };
        const uniform = capRockFigures(erodeWithSoil(plateau, on, CAP_ROCK_DEFAULT_CYCLES).heights, plateau.heights, plateau.width);
        const capped = capRockFigures(erodeWithSoil(plateau, { materials: { ...on.materials, ...cap } }, CAP_ROCK_DEFAULT_CYCLES).heights, plateau.heights, plateau.width);
        return result(this, [
            atLeast("capped over uniform: mean slope within 3 cells of the cap's base", capped.baseSlope / uniform.baseSlope, 2),
            atLeast("capped: mean slope within 3 cells of the cap's base over elsewhere", capped.baseSlope / capped.elsewhereSlope, 2),
            atMost("capped over uniform: the top's mean lowering", capped.topLowering / Math.max(1e-9, uniform.topLowering), 0.5),
        ]);
    },
};

/**
 * Soil against drainage area and slope on a terrain: rank (Spearman) and linear (Pearson)
 * correlations with log A and with slope, bare ridges and cliffs, and valley soil over ridge soil.
 * The claims rest on the ranks: the soil is mostly zero with a few thick basin fills, which sway a
 * linear r more than the trend does (the README gives both).
 */
export function soilFigures(terrain: Terrain, cycles: number, materials: ErosionOptionsInput["materials"] = {}): { logArea: number; slope: number; pearsonLogArea: number; pearsonSlope: number; bareRidges: number; bareCliffs: number; valleyOverRidge: number } {
    const { width, depth, cellSize } = terrain;
    const run = erodeWithSoil(terrain, { materials: { enabled: true, hardness: 2, ...materials } }, cycles);
    const field = drainageField(Float64Array.from(run.heights, (h) => h * cellSize), width, depth, cellSize);
    const inner: number[] = [];
    for (let y = 2; y < depth - 2; y++) for (let x = 2; x < width - 2; x++) inner.push(y * width + x);
    const soil = run.soil;
    const ridges = inner.filter((i) => field.area[i] <= 1);
    const cliffs = inner.filter((i) => field.slopes[i] > 1);
    const valleys = inner.filter((i) => field.area[i] >= 100);
    const bare = (cells: number[]) => cells.filter((i) => soil[i] < 0.01).length / Math.max(1, cells.length);
    const mean = (cells: number[]) => cells.reduce((sum, i) => sum + soil[i], 0) / Math.max(1, cells.length);
    const soils = inner.map((i) => soil[i]);
    const logAreas = inner.map((i) => Math.log(field.area[i]));
    const slopes = inner.map((i) => field.slopes[i]);
    return {
        logArea: spearman(soils, logAreas),
        slope: spearman(soils, slopes),
        pearsonLogArea: pearsonOf(soils, logAreas),
        pearsonSlope: pearsonOf(soils, slopes),
        bareRidges: bare(ridges),
        bareCliffs: bare(cliffs),
        valleyOverRidge: mean(valleys) / Math.max(1e-9, mean(ridges)),
    };
}

export const soilGathers: Claim = {
    id: "soil",
    issue: "rock and soil",
    title: "Materials on (hardness 2), 20 cycles: soil gathers in the valleys and leaves ridges and cliffs bare (generated terrain at 10 m cells and Mont Blanc; with weathering, Mont Blanc's soil also shuns slopes)",
    async evaluate(size: RealismSize) {
        const generated = soilFigures(generatedTerrain(size === "full" ? 257 : 129, 10, 600), 20);
        const alpsTerrain = await montBlanc(size === "full" ? undefined : 129);
        const alps = soilFigures(alpsTerrain, 20);
        // Soil production (weathering 1% a step toward half a cell): soil made on every slope, kept where it is gentle.
        const weathered = soilFigures(alpsTerrain, 20, { weathering: 0.01, soilDepth: 0.5 });
        return result(this, [
            atLeast("generated: Spearman rho(soil, log A)", generated.logArea, 0.3),
            atMost("generated: Spearman rho(soil, slope)", generated.slope, -0.2),
            atLeast("generated: valley (A >= 100) soil over ridge soil", generated.valleyOverRidge, 2),
            atLeast("generated: bare ridges (A = 1)", generated.bareRidges, 0.7),
            atLeast("generated: bare cliffs (slope > 1)", generated.bareCliffs, 0.6),
            atLeast("Mont Blanc: Spearman rho(soil, log A)", alps.logArea, 0.25),
            atLeast("Mont Blanc: valley (A >= 100) soil over ridge soil", alps.valleyOverRidge, 1.5),
            atLeast("Mont Blanc: bare ridges", alps.bareRidges, 0.8),
            atLeast("Mont Blanc: bare cliffs", alps.bareCliffs, 0.8),
            atLeast("Mont Blanc with weathering: Spearman rho(soil, log A)", weathered.logArea, 0.3),
            atMost("Mont Blanc with weathering: Spearman rho(soil, slope)", weathered.slope, -0.3),
            atLeast("Mont Blanc with weathering: bare ridges", weathered.bareRidges, 0.6),
        ]);
    },
};

/** The rivers claims' drainage figures of one run: pits and channel cells against the start, θ's gain, steep channels' lowering, lowering ranked by stream power. */
function drainageFigures(run: RealismRun): { pits: number; channels: number; thetaGain: number; thetaRatio: number; steepLowering: number; lowering: number } {
    return {
        pits: run.after.pitFraction / run.before.pitFraction,
        channels: run.after.channelCells / run.before.channelCells,
        thetaGain: run.after.theta - run.before.theta,
        thetaRatio: run.after.theta / run.before.theta,
        steepLowering: -run.steepChange / run.meanAbsChange,
        lowering: run.lowering,
    };
}

export const materialsDrainage: Claim = {
    id: "materials-drainage",
    issue: "rock and soil",
    title: "The materials on at their defaults (one uniform rock of hardness 2, no soil to start), 20 cycles: the rivers claims still hold on the generated terrain at 10 m cells and on Mont Blanc",
    async evaluate(size: RealismSize) {
        const generated = generatedTerrain(257, 10, 600);
        const alps = await montBlanc(size === "full" ? undefined : 257);
        const on = { materials: { enabled: true } };
        const gen = drainageFigures(measureRun(generated, on, 20));
        const mont = drainageFigures(measureRun(alps, on, 20));
        // The bounds of `rivers-generated` (10 m cells) and `rivers-mont-blanc`.
        return result(this, [
            atMost("generated: pit fraction / initial", gen.pits, 0.6),
            atLeast("generated: channel cells / initial", gen.channels, 1.15),
            atLeast("generated: theta gain", gen.thetaGain, 0.05),
            atLeast("generated: steep channel lowering / mean |Δh|", gen.steepLowering, 1.5),
            atLeast("generated: Spearman(lowering, A^0.5 S)", gen.lowering, 0.2),
            atMost("Mont Blanc: pit fraction / initial", mont.pits, 1.25),
            atLeast("Mont Blanc: channel cells / initial", mont.channels, 0.9),
            atLeast("Mont Blanc: theta / initial", mont.thetaRatio, 0.8),
            atLeast("Mont Blanc: steep channel lowering / mean |Δh|", mont.steepLowering, 1.5),
            atLeast("Mont Blanc: Spearman(lowering, A^0.5 S)", mont.lowering, 0.2),
        ]);
    },
};
