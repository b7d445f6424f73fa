/**
 * What one cycle runs, in order: for each enabled operator (`OPERATOR_ORDER`), its classes of
 * independent patches (`independentClasses`), each class's patches in index order. The river
 * operator runs once over the whole field: its drainage area and sediment travel up to
 * `stepsPerBatch` cells a batch, so patches small enough to run together would need so many
 * classes (and every class a hundred dispatches) that a cycle's dispatches would grow with the
 * field; every river kernel is a Jacobi step over its rectangle, so the whole field is one batch.
 *
 * The shallow water runs `water.stepsPerCycle` steps, each its seven passes (`WATER_PASSES`), and
 * every pass is a class of all the patches: a pass writes only its patch's vertices and pipes and
 * reads what the previous pass left, so the patches of one pass cannot reach each other and a water
 * step is one Jacobi step however it is split.
 *
 * Everything derives from the grid size and the options, never from the adapter, the frame budget
 * or timing.
 */
import { batchExtent, buildBatchParams, OPERATOR_BATCHES } from "./batchParams.js";
import { independentClasses } from "./independentClasses.js";
import type { SimulationOptions } from "./options.js";
import { layoutPatches, type OperatorName, type Patch } from "./patches.js";
import type { GridSize } from "./worldScale.js";
import { WATER_PASSES } from "./waterModel.js";

/** One batch of a cycle's plan: an operator over a patch, and the class it runs with. */
export interface CycleUnit {
    readonly operator: OperatorName;
    readonly patch: Patch;
    /**
     * Position of the unit's class in the cycle. Units of one class are consecutive and cannot
     * reach each other: any order, any grouping into dispatches or frames gives the same terrain.
     */
    readonly group: number;
    /** The water pass a water unit runs (index into `WATER_PASSES`); 0 otherwise. */
    readonly waterPass: number;
    /** The water step of the cycle a water unit belongs to (0 to `water.stepsPerCycle` - 1); 0 otherwise. */
    readonly waterStep: number;
}

/** The whole field as one patch (the river operator's batch). */
export function wholeFieldPatch(grid: GridSize): Patch {
    return { index: 0, x0: 0, y0: 0, x1: grid.width, y1: grid.depth };
}

/** The units of one cycle for `operators` (enabled, in run order) on `grid`. */
export function planCycleUnits(options: Readonly<SimulationOptions>, grid: GridSize, operators: readonly OperatorName[]): CycleUnit[] {
    const patches = layoutPatches(grid.width, grid.depth, options.patchSize);
    const classGrid = { width: grid.width, depth: grid.depth, torus: options.tileable && grid.width > 2 && grid.depth > 2 };
    const units: CycleUnit[] = [];
    let group = 0;
    for (const operator of operators) {
        const layout = OPERATOR_BATCHES[operator].cycleUnits;
        if (layout === "field") {
            units.push({ operator, patch: wholeFieldPatch(grid), group: group++, waterPass: 0, waterStep: 0 });
            continue;
        }
        if (layout === "waterPasses") {
            for (let pass = 0; pass < options.water.stepsPerCycle * WATER_PASSES.length; pass++) {
                const waterPass = pass % WATER_PASSES.length;
                const waterStep = Math.floor(pass / WATER_PASSES.length);
                for (const patch of patches) {
                    units.push({ operator, patch, group, waterPass, waterStep });
                }
                group++;
            }
            continue;
        }
        const extentOf = (patch: Patch) => batchExtent(buildBatchParams(options, grid, patch, operator, 0, 0));
        for (const members of independentClasses(patches, extentOf, classGrid)) {
            for (const patch of members) {
                units.push({ operator, patch, group, waterPass: 0, waterStep: 0 });
            }
            group++;
        }
    }
    return units;
}
