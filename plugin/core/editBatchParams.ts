/**
 * The batch parameters of a ground edit (`groundEdits.ts`): its own fields, named, in slots of
 * droplet fields (as the water's options are, `WATER_PARAM_SLOTS`), its rectangle and extent, and
 * the WGSL accessors of every named slot.
 */
import { blankBatchParams, materialParams, WATER_PARAM_SLOTS, type BatchParamName, type BatchParams, type GridSize } from "./batchParams.js";
import type { GroundEdit } from "./groundEdits.js";
import type { SimulationOptions } from "./options.js";
import { expandRect } from "./patches.js";

/**
 * A ground edit batch's own fields, by name, and the droplet field whose slot each travels in (the
 * edit's rectangle is its region, extent and patch; its amounts are in the accumulator on the GPU).
 */
export const EDIT_PARAM_SLOTS = {
    /** 1 when the edit levels toward `editTarget`, 0 when it adds its amounts. */
    editLevels: "spawnDisc",
    /** The height a levelling edit moves toward, fixed point. */
    editTarget: "discRadius",
    /** Jacobi steps of the fill levels over the edit's extent after it (`EDIT_LEVEL_STEPS`). */
    editLevelSteps: "maxSteps",
    /** 1 when what the edit removes becomes the water's sediment, else 0. */
    editSediment: "depositAtEnd",
    /** The Q8 hardness of the rock the edit places where it raises (with the materials on), 0 for loose soil. */
    editRock: "gravity",
} as const;

/** Vertices around an edit's rectangle whose fill levels settle after it (its extent). */
export const EDIT_LEVEL_MARGIN = 2;

/**
 * Most fill-level steps an edit runs over its extent: the levels come down one vertex of distance a
 * step, so a canal up to this long drains along its bed at once (a longer one over later batches).
 */
export const EDIT_LEVEL_STEPS = 256;

/** Name of one ground edit field. */
export type EditParamName = keyof typeof EDIT_PARAM_SLOTS;

/**
 * The WGSL accessors of the water and ground-edit fields (`fn waterRain() -> i32`), generated from
 * `WATER_PARAM_SLOTS` and `EDIT_PARAM_SLOTS`.
 */
export function wgslSlotAccessors(): string {
    const slots: Record<string, BatchParamName> = { ...WATER_PARAM_SLOTS, ...EDIT_PARAM_SLOTS };
    return Object.keys(slots).map((name) => `fn ${name}() -> i32 {\n    return params.${slots[name]};\n}\n`).join("");
}

/** Patch index of a ground edit's batch (plus its id): edits never share a hash stream with a patch or an event. */
export const EDIT_PATCH_BASE = 0x20000000;

/**
 * The parameters of a ground edit's batch: its rectangle as region and patch, the rectangle grown by
 * `EDIT_LEVEL_MARGIN` as the extent whose fill levels settle after it, its mode, target and level
 * steps in their slots.
 */
export function buildEditBatchParams(options: Readonly<SimulationOptions>, grid: GridSize, edit: GroundEdit, cycle: number): BatchParams {
    const params = blankBatchParams(grid.width, grid.depth);
    const { x0, y0, x1, y1 } = edit.rect;
    const extent = expandRect(edit.rect, EDIT_LEVEL_MARGIN, grid.width, grid.depth);
    Object.assign(params, {
        regionX0: x0,
        regionY0: y0,
        regionX1: x1,
        regionY1: y1,
        extentX0: extent.x0,
        extentY0: extent.y0,
        extentX1: extent.x1,
        extentY1: extent.y1,
        patchX0: x0,
        patchY0: y0,
        patchX1: x1,
        patchY1: y1,
    });
    Object.assign(params, materialParams(options, options.thermal.talus));
    params[EDIT_PARAM_SLOTS.editLevelSteps] = Math.min(EDIT_LEVEL_STEPS, extent.x1 - extent.x0 + extent.y1 - extent.y0);
    params.seed = options.seed | 0;
    params.cycle = cycle | 0;
    params.patchIndex = (EDIT_PATCH_BASE + edit.id) | 0;
    params.seam = options.tileable && grid.width > 2 && grid.depth > 2 ? 1 : 0;
    params[EDIT_PARAM_SLOTS.editLevels] = edit.mode === "level" ? 1 : 0;
    params[EDIT_PARAM_SLOTS.editTarget] = edit.target;
    params[EDIT_PARAM_SLOTS.editSediment] = edit.sediment ? 1 : 0;
    params[EDIT_PARAM_SLOTS.editRock] = edit.rock ?? 0;
    return params;
}
