/**
 * The realism claims of landforms that build (issue 60): what the rivers lay down where their slope
 * falls and where they meet standing water, and what a cliff sheds at its foot, on the terrains
 * built for them (`landforms.ts`).
 */
import type { Check, Claim, ClaimResult } from "./claimTypes.js";
import { APRON_LENGTH, APRON_OPTIONS, apronFigures, DELTA_LOBE, DELTA_OPTIONS, deltaFigures, FAN_ARC, fanFigures, floodplainFigures } from "./landforms.js";

const atLeast = (what: string, value: number, limit: number): Check => ({ what, value, bound: `>= ${limit}`, passed: value >= limit });

function result(claim: Omit<Claim, "evaluate">, checks: Check[]): ClaimResult {
    return { ...claim, checks, runs: [], passed: checks.every((check) => check.passed) };
}

/** Cycles of the landform runs: a deposit grows by at most the fall to its donors a batch, so fans take longer than channels. */
export const LANDFORM_CYCLES = 100;

const ringMean = (figures: Readonly<Record<string, number>>, from: number): number =>
    figures[`plain's mean change ${from}-${from + 5} cells from the outlet (cells)`];

export const alluvialFan: Claim = {
    id: "fan",
    issue: "landforms that build",
    title: `Defaults, a mountain front onto a plain (129², 1 m cells), ${LANDFORM_CYCLES} cycles: the valley's river lays a fan at its outlet, thinning with distance and spread over an arc`,
    async evaluate() {
        const { figures } = fanFigures({}, LANDFORM_CYCLES);
        const near = (ringMean(figures, 0) + ringMean(figures, 5)) / 2;
        const far = (ringMean(figures, 20) + ringMean(figures, 25)) / 2;
        return result(this, [
            atLeast("plain's mean change within 10 cells of the outlet (cells)", near, 0.05),
            atLeast("within 10 cells less 20 to 30 cells out (cells)", near - far, 0.05),
            atLeast(FAN_ARC, figures[FAN_ARC], 60),
        ]);
    },
};

export const floodplain: Claim = {
    id: "floodplain",
    issue: "landforms that build",
    title: `Defaults, a wide valley fed by steep headwaters (129², 1 m cells), ${LANDFORM_CYCLES} cycles: the floor aggrades beside the channel`,
    async evaluate() {
        const { figures } = floodplainFigures({}, LANDFORM_CYCLES);
        return result(this, [atLeast("floor's mean change beside the channel (cells)", figures["floor's mean change beside the channel (cells)"], 0.05)]);
    },
};

export const delta: Claim = {
    id: "delta",
    issue: "landforms that build",
    title:
        `Defaults with the shallow water on, a river into a closed lake (129², 1 m cells), ${LANDFORM_CYCLES} cycles: a deposit lobe at the mouth, ` +
        "the lake's floor raised more in the mouth's sector than at the same distances elsewhere",
    async evaluate() {
        const { figures } = deltaFigures(DELTA_OPTIONS, LANDFORM_CYCLES);
        return result(this, [
            atLeast("mouth's sector, mean change 8-24 cells from the centre (cells)", figures["mouth's sector, mean change 8-24 cells from the centre (cells)"], 0.5),
            atLeast(DELTA_LOBE, figures[DELTA_LOBE], 0.5),
        ]);
    },
};

/**
 * Cycles of the apron's run: the cliff sheds fastest while it is young. By 100 cycles the mesa's
 * strong thermal has worn the cap's edge back about 14 rows onto a ramp of its soft rock, the rain
 * strips what lands there, and the first apron is gone (`npm run landforms`).
 */
export const APRON_CYCLES = 40;

const footChange = "plain's mean change 0-2 cells from the foot (cells)";

export const talusApron: Claim = {
    id: "apron",
    issue: "landforms that build",
    title:
        `The mesa's settings (materials on, thermal talus 2, 32 iterations), an escarpment capped by a hard bed over a plain (129², 1 m cells), ${APRON_CYCLES} cycles: ` +
        "what the cliff sheds gathers at its foot as an apron of soil, thinning away from it, along the whole cliff",
    async evaluate() {
        const { figures } = apronFigures(APRON_OPTIONS, APRON_CYCLES);
        return result(this, [
            atLeast(footChange, figures[footChange], 1),
            atLeast("plain's mean soil 0-2 cells from the foot (cells)", figures["plain's mean soil 0-2 cells from the foot (cells)"], 1),
            atLeast("0-2 cells from the foot less 6-10 cells (cells)", figures[footChange] - figures["plain's mean change 6-10 cells from the foot (cells)"], 1),
            atLeast(APRON_LENGTH, figures[APRON_LENGTH], 0.9),
        ]);
    },
};
