/**
 * How the WebGPU backend records each operator, one row per operator (`GPU_OPERATORS`): a class of
 * its batches as dispatches (`GpuErosionSimulation.runClass`), whether it needs the brush table,
 * and how `batchPieces.ts` cuts one of its batches over frames. A table, not if-chains on the
 * operator's name, so a new operator is one row the compiler asks for (`satisfies`); each row, and
 * its dispatch order, is in its operator's own file under `operators/`, recording through the
 * small context of `operators/operatorContext.ts` rather than the whole simulation.
 */
import type { PlannedOperator } from "../core/plannedBatch.js";
import { DROPLET_OPERATOR } from "./operators/droplets.js";
import { EDIT_OPERATOR } from "./operators/edits.js";
import type { GpuOperatorRow } from "./operators/operatorContext.js";
import { RIVER_OPERATOR } from "./operators/rivers.js";
import { THERMAL_OPERATOR } from "./operators/thermal.js";
import { WATER_OPERATOR } from "./operators/water.js";

/** Each operator's row. */
export const GPU_OPERATORS = {
    thermal: THERMAL_OPERATOR,
    water: WATER_OPERATOR,
    edit: EDIT_OPERATOR,
    hydraulic: DROPLET_OPERATOR,
    local: DROPLET_OPERATOR,
    rivers: RIVER_OPERATOR,
} satisfies Record<PlannedOperator, GpuOperatorRow>;
