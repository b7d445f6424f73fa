/**
 * How the CPU backend runs each operator, one row per operator (`CPU_OPERATORS`): the kernels of
 * a batch (`CpuBatchRunner.runKernels`), how many pieces it runs in over frames, and how the worker
 * pool shares it out. A table, not if-chains on the operator's name in each of those places, so a
 * new operator is one row the compiler asks for (`satisfies`), and no place can forget it.
 */
import {
    applyGroundEdit, ensureWater, erodeDroplets, foldDroplets, type FoldScratch, type RiverBandWork, riverPieceCount, type RiverScratch, runRiverBatch,
    runWaterPass, settleEditLevels, thermalApply, thermalFlux,
} from "../kernels/index.js";
import type { MaterialGrids } from "../core/materials.js";
import type { ErosionStateData } from "../core/erosionState.js";
import type { ErosionMaps } from "../core/erosionMaps.js";
import type { PlannedBatch, PlannedOperator } from "../core/plannedBatch.js";
import { THERMAL_SLOTS } from "../core/thermalDirections.js";

/**
 * What an operator's kernels run over: the runner's state, maps and scratch, the scratch made on
 * first use (a bake's coordinator never makes the droplet scratch). A small view of the runner,
 * so a row reaches only what kernels need.
 */
export interface CpuOperatorContext {
    /** The live state. */
    readonly state: ErosionStateData;
    /** The erosion maps the kernels accumulate into. */
    readonly maps: ErosionMaps;
    /** The droplet batch's delta (a river batch's too). */
    readonly delta: Int32Array;
    /** The droplet fold's scratch. */
    readonly fold: FoldScratch;
    /** The droplet batch's visits (the water map's). */
    readonly waterBatch: Int32Array;
    /** The river batch's scratch and band work. */
    riverGrids(): { scratch: RiverScratch; work: RiverBandWork };
    /** The thermal flux, at least `slots` long. */
    flux(slots: number): Int32Array;
}

/**
 * How the worker pool runs a batch of an operator (`CpuPool.runBatches`): "alone" on the
 * coordinator (one rectangle's integers: not worth a phase), "river" in the river batch's phases,
 * or "shared" with the consecutive batches of its class dealt out to the members.
 */
export type CpuPoolWay = "alone" | "river" | "shared";

/** One operator's row: everything the CPU backend decides by the operator. */
export interface CpuOperatorRow {
    /**
     * Runs one batch's kernels (without the seam) over `context`.
     * @param materials the material grids, made for the batch, when it runs the materials; else null
     */
    run(context: CpuOperatorContext, planned: PlannedBatch, materials: MaterialGrids | null): void;
    /** How many pieces the batch runs in (`CpuBatchRunner.runPieces`): a river batch's phases; 1 for any other. */
    pieces(planned: PlannedBatch): number;
    /** How the worker pool runs it. */
    readonly pool: CpuPoolWay;
    /** Whether the water's grids must exist before the pool's members share the batch (each would make its own). */
    readonly needsWater: boolean;
}

const onePiece = (): number => 1;

/** The droplet kernels: a hydraulic batch's, and a local erosion event's (the same kernels over a disc). */
const droplets: CpuOperatorRow = {
    run({ state, delta, fold, maps, waterBatch }, planned) {
        const { params, masks } = planned;
        erodeDroplets(
            params, state.heights, delta, planned.brush, state.counters, 0, params.dropletCount, waterBatch, masks.hydraulic, state.materials ?? null
        );
        foldDroplets(params, state, delta, fold, maps, waterBatch, masks.hydraulic);
    },
    pieces: onePiece,
    pool: "shared",
    needsWater: false,
};

/** Each operator's row. */
export const CPU_OPERATORS = {
    edit: {
        run({ state, fold }, planned, materials) {
            const edit = planned.edit!;
            applyGroundEdit(
                edit, state.width, state.heights, state.fillLevels, state.counters, edit.sediment ? ensureWater(state).waterSediment : null, materials
            );
            settleEditLevels(planned.params, state, fold);
        },
        pieces: onePiece,
        pool: "alone",
        needsWater: false,
    },
    hydraulic: droplets,
    local: droplets,
    water: {
        run({ state, maps }, planned) {
            runWaterPass(planned.params, state, maps, planned.masks.rain, planned.waterSources);
        },
        pieces: onePiece,
        pool: "shared",
        needsWater: true,
    },
    rivers: {
        run(context, planned) {
            const { scratch, work } = context.riverGrids();
            runRiverBatch(planned.params, planned.riverSteps, context.state, planned.masks, scratch, work, context.maps);
        },
        pieces: (planned) => riverPieceCount(planned.params, planned.riverSteps),
        pool: "river",
        needsWater: false,
    },
    thermal: {
        run(context, planned) {
            const { params, masks } = planned;
            const state = context.state;
            const flux = context.flux((params.patchX1 - params.patchX0) * (params.patchY1 - params.patchY0) * THERMAL_SLOTS);
            for (let step = 0; step < planned.thermalIterations; step++) {
                thermalFlux(params, state.heights, flux, masks.thermal, state.materials ?? null);
                thermalApply(params, state.heights, flux, state.counters, context.maps, state, state.materials ?? null);
            }
        },
        pieces: onePiece,
        pool: "shared",
        needsWater: false,
    },
} satisfies Record<PlannedOperator, CpuOperatorRow>;
