/**
 * The integers one batch runs with, derived from the options, the grid, the patch and the cycle.
 *
 * Both backends run a batch from the same `BatchParams`: the CPU kernels read the fields by name,
 * the GPU backend packs them into an `i32` storage buffer whose WGSL struct is generated from
 * `BATCH_PARAM_FIELDS` (`batchParamLayout.ts`, re-exported here), so the two layouts cannot drift.
 * Every float option is quantised here, once, in JavaScript doubles, so the kernels see only integers.
 */
import { FIXED_ONE, quantiseQ16 } from "./fixedPoint.js";
import { cellScaledOptions, type GridSize } from "./worldScale.js";
import type { ErosionOptions, SimulationOptions } from "./options.js";
import { expandRect, type GridRect, type OperatorName, type Patch } from "./patches.js";
import { discCells, LOCAL_PATCH_BASE, type LocalErosionEvent } from "./localErosion.js";
import type { MaskName, OperatorMaskName } from "./erosionState.js";
import { materialParams } from "./materialParams.js";
import { ACCUMULATOR_LIMIT, SEDIMENT_HOPS, waterSlots, type BatchParams } from "./batchParamLayout.js";
import { unitPushPipesOf } from "./waterModel.js";

export { MATERIAL_PARAM_FIELDS, materialParams, type MaterialParamName } from "./materialParams.js";
export * from "./batchParamLayout.js";

/** Number of the distance a droplet batch can reach beyond its spawn rectangle, in cells. */
export function dropletReach(maxSteps: number, brushRadius: number): number {
    return maxSteps + brushRadius + 1;
}

export type { GridSize } from "./worldScale.js";

const q16 = quantiseQ16;

/** What a batch's region is made from (`OperatorBatchRow.region`). */
interface RegionInputs {
    /** The rectangle droplets spawn in: the patch less the field's last column and row. */
    readonly spawn: GridRect;
    readonly patch: Patch;
    readonly width: number;
    readonly depth: number;
    /** The droplet options, scaled to the grid's cells. */
    readonly hydraulic: ErosionOptions["hydraulic"];
    /** Whether the batch wraps round a tileable terrain's edges. */
    readonly wrap: boolean;
}

/** How an erosion operator's batches are shaped: what `buildBatchParams` and the cycle's units (`cycleUnits.ts`) decide by the operator. */
export interface OperatorBatchRow {
    /** Whether its batches wrap round a tileable terrain's edges (the river batch, over the whole field). */
    readonly wraps: boolean;
    /** The vertices its batch changes before the routing hops (the extent grows it by `routeHops`). */
    region(inputs: RegionInputs): GridRect;
    /** Routing hops of its sediment (the extent's margin), from the options scaled to the grid. */
    routeHops(scaled: Readonly<SimulationOptions>): number;
    /** The mask its routing reads (`routeMasked`), or null for none. */
    readonly routeMask: "hydraulic" | "rivers" | null;
    /** Whether its batch carries the rivers' uplift (`riverUplift`: the fold takes it out of the soil's change). */
    readonly riverUplift: boolean;
    /** Whether its batch fills the water's slots (`waterSlots`). */
    readonly waterSlots: boolean;
    /** How a cycle lays out its units: one over the whole field, the water's passes over every patch, or the patches' independent classes. */
    readonly cycleUnits: "field" | "waterPasses" | "classes";
}

/** Each erosion operator's row (a local erosion event is a hydraulic batch here; an edit's params are `editBatchParams.ts`'). */
export const OPERATOR_BATCHES = {
    // A water batch changes only its patch (each pass one Jacobi step's part), so its region and extent are the patch.
    water: { wraps: false, region: ({ patch }) => patch, routeHops: () => 0, routeMask: null, riverUplift: false, waterSlots: true, cycleUnits: "waterPasses" },
    hydraulic: {
        wraps: false,
        region: ({ spawn, width, depth, hydraulic }) => expandRect(spawn, dropletReach(hydraulic.maxSteps, hydraulic.brushRadius), width, depth),
        routeHops: () => SEDIMENT_HOPS,
        routeMask: "hydraulic",
        riverUplift: false,
        waterSlots: false,
        cycleUnits: "classes",
    },
    rivers: {
        wraps: true,
        region: ({ patch, width, depth, wrap }) => ({
            x0: patch.x0, y0: patch.y0, x1: wrap ? Math.min(patch.x1, width - 1) : patch.x1, y1: wrap ? Math.min(patch.y1, depth - 1) : patch.y1,
        }),
        routeHops: (scaled) => scaled.rivers.stepsPerBatch,
        routeMask: "rivers",
        riverUplift: true,
        waterSlots: false,
        cycleUnits: "field",
    },
    thermal: {
        wraps: false,
        region: ({ patch, width, depth }) => expandRect(patch, 1, width, depth),
        routeHops: () => 0,
        routeMask: null,
        riverUplift: false,
        waterSlots: false,
        cycleUnits: "classes",
    },
} satisfies Record<OperatorName, OperatorBatchRow>;

/**
 * Builds the parameters of one batch.
 * @param options resolved options in force for the batch's cycle
 * @param grid the field's size
 * @param patch the patch the batch runs on
 * @param operator which operator runs
 * @param cycle index of the cycle, counted from 0 since the state's start
 * @param brushCount entries in the brush table for `options.hydraulic.brushRadius`
 * @param masks which operators have a mask
 * @param waterPass a water batch's pass (index into `WATER_PASSES`)
 * @param waterStep a water batch's step of the cycle (0 to `water.stepsPerCycle` - 1)
 */
export function buildBatchParams(
    options: Readonly<SimulationOptions>, grid: GridSize, patch: Patch, operator: OperatorName, cycle: number, brushCount: number,
    masks: Readonly<Record<OperatorMaskName, unknown>> = { hydraulic: null, thermal: null, rivers: null, uplift: null, rain: null }, waterPass = 0,
    waterStep = 0
): BatchParams {
    const { width, depth } = grid;
    const scaledOptions = cellScaledOptions(options, grid);
    const hydraulic = scaledOptions.hydraulic;
    const thermal = scaledOptions.thermal;
    const spawn: GridRect = { x0: patch.x0, y0: patch.y0, x1: Math.min(patch.x1, width - 1), y1: Math.min(patch.y1, depth - 1) };
    const row: OperatorBatchRow = OPERATOR_BATCHES[operator];
    const wrap = row.wraps && options.tileable && width > 2 && depth > 2;
    const region = row.region({ spawn, patch, width, depth, hydraulic, wrap });
    const interiorCells = (spawn.x1 - spawn.x0) * (spawn.y1 - spawn.y0);
    const routeHops = row.routeHops(scaledOptions);
    const extentX = extentSpan(region.x0, region.x1, routeHops, width, wrap);
    const extentY = extentSpan(region.y0, region.y1, routeHops, depth, wrap);
    const walkSteps = hydraulic.dropletsPerBatch * hydraulic.maxSteps;
    const rate = (thermal.rate / (2 * thermal.neighbours)) * FIXED_ONE;
    // The integer options below are `| 0`: an options object can hold an integer as a double
    // (V8 keeps a field's numbers as doubles once one of them was), and a double field here makes
    // every kernel that reads it work in floating point (the river walk's keys and levels did, with
    // conversions at every vertex).
    const params: BatchParams = {
        width,
        depth,
        spawnX0: spawn.x0,
        spawnY0: spawn.y0,
        spawnX1: spawn.x1,
        spawnY1: spawn.y1,
        regionX0: region.x0,
        regionY0: region.y0,
        regionX1: region.x1,
        regionY1: region.y1,
        extentX0: extentX.start,
        extentY0: extentY.start,
        extentX1: extentX.end,
        extentY1: extentY.end,
        patchX0: patch.x0,
        patchY0: patch.y0,
        patchX1: patch.x1,
        patchY1: patch.y1,
        seed: options.seed | 0,
        cycle: cycle | 0,
        patchIndex: patch.index,
        dropletCount: hydraulic.dropletsPerBatch,
        dispatchRowThreads: 0,
        maxSteps: hydraulic.maxSteps,
        inertia: q16(hydraulic.inertia),
        capacity: q16(hydraulic.capacity),
        minSlope: q16(hydraulic.minSlope),
        erosion: q16(hydraulic.erosion),
        deposition: q16(hydraulic.deposition),
        waterRetained: FIXED_ONE - q16(hydraulic.evaporation),
        gravity: q16(hydraulic.gravity),
        initialWater: q16(hydraulic.initialWater),
        initialSpeed: q16(hydraulic.initialSpeed),
        minWater: q16(hydraulic.minWater),
        brushRadius: hydraulic.brushRadius | 0,
        brushCount,
        depositAtEnd: hydraulic.endOfWalk === "deposit" ? 1 : 0,
        // The share: the part of one cell's rainfall a droplet carries, at most one cell's
        // (docs/simulation.md, "What one batch may move"). It counts the walk in the options' own
        // steps, so a walk that featureSize lengthens carries as much per step as it did ("Units").
        share: Math.min(FIXED_ONE, Math.floor((interiorCells * FIXED_ONE) / (hydraulic.dropletsPerBatch * options.hydraulic.maxSteps))),
        stepCap: Math.max(1, Math.floor(ACCUMULATOR_LIMIT / walkSteps)),
        talus: q16(thermal.talus),
        talusDiagonal: q16(thermal.talus * Math.SQRT2),
        thermalRate: Math.floor(rate),
        neighbours: thermal.neighbours,
        openBoundary: thermal.boundary === "open" ? 1 : 0,
        spawnDisc: 0,
        discCentreX: 0,
        discCentreY: 0,
        discRadius: 0,
        routeHops: routeHops | 0,
        hydraulicMasked: masks.hydraulic ? 1 : 0,
        thermalMasked: masks.thermal ? 1 : 0,
        riversMasked: masks.rivers ? 1 : 0,
        upliftMasked: masks.uplift ? 1 : 0,
        routeMasked: row.routeMask !== null && masks[row.routeMask] ? 1 : 0,
        riverErosion: q16(options.rivers.erosion),
        riverCapacity: q16(options.rivers.capacity),
        riverDeposition: q16(options.rivers.deposition),
        // A river batch's only: the fold takes it out of the soil's change (`nominalUplift`).
        riverUplift: row.riverUplift ? q16(options.rivers.uplift) : 0,
        // With the materials' channel soil, slopes' debris stays on the channel's bed: no vertex is a channel to thermal.
        channelArea: options.rivers.enabled && !(options.materials.enabled && options.materials.channelSoil) ? options.rivers.channelArea | 0 : 0,
        seam: options.tileable && width > 2 && depth > 2 ? 1 : 0,
        wrap: wrap ? 1 : 0,
        cellSizeBits: 0,
        dispatchOffset: 0,
        waterPass,
        ...materialParams(options, thermal.talus),
    };
    if (row.waterSlots) {
        const water = options.water;
        Object.assign(
            params,
            waterSlots({
                waterCapacity: q16(water.capacity),
                waterMinSlope: q16(water.minSlope),
                waterDissolving: q16(water.dissolving),
                waterDeposition: q16(water.deposition),
                waterKept: FIXED_ONE - q16(water.evaporation),
                waterFlowKept: FIXED_ONE - q16(water.friction),
                waterRain: q16(water.rain),
                waterOpenEdges: water.boundary === "open" ? 1 : 0,
                waterRainMasked: masks.rain ? 1 : 0,
                waterUnitPipes: unitPushPipesOf(cycle, water.stepsPerCycle, waterStep),
            })
        );
    }
    return params;
}

/**
 * The parameters of a local erosion event's batch: the cycle's options with the event's droplet
 * options, droplets spawned over the event's disc (clipped to the field), the share from the disc's
 * area, the fold over the disc's bounding box grown by the walk's reach.
 * @param eventIndex position of the event among the cycle's events
 */
export function buildLocalBatchParams(
    options: Readonly<SimulationOptions>, grid: GridSize, event: LocalErosionEvent, eventIndex: number, cycle: number, brushCount: number,
    masks: Readonly<Record<MaskName, unknown>>
): BatchParams {
    const { width, depth } = grid;
    const reachCells = Math.ceil(event.radius / FIXED_ONE);
    const cx = Math.floor(event.centreX / FIXED_ONE);
    const cy = Math.floor(event.centreY / FIXED_ONE);
    const box: Patch = {
        index: LOCAL_PATCH_BASE + eventIndex,
        x0: Math.min(width - 2, Math.max(0, cx - reachCells)),
        y0: Math.min(depth - 2, Math.max(0, cy - reachCells)),
        x1: Math.max(1, Math.min(width - 1, cx + reachCells + 2)),
        y1: Math.max(1, Math.min(depth - 1, cy + reachCells + 2)),
    };
    const params = buildBatchParams(
        { ...options, hydraulic: { ...event.hydraulic, enabled: true, dropletsPerBatch: event.droplets } }, grid, box, "hydraulic", cycle, brushCount, masks
    );
    const walkSteps = event.droplets * event.hydraulic.maxSteps;
    params.spawnDisc = 1;
    params.discCentreX = event.centreX;
    params.discCentreY = event.centreY;
    params.discRadius = event.radius;
    params.share = Math.min(FIXED_ONE, Math.floor((discCells(event.radius) * FIXED_ONE) / walkSteps));
    return params;
}

/**
 * A region's span along one axis grown by `margin`: clipped to [0, size), or on a torus (`wrap`) the
 * whole axis once the grown span reaches past an edge (the real vertices it covers either way).
 */
function extentSpan(start: number, end: number, margin: number, size: number, wrap: boolean): { start: number; end: number } {
    if (wrap && (start - margin < 0 || end + margin > size - 1)) return { start: 0, end: size };
    return { start: Math.max(0, start - margin), end: Math.min(size, end + margin) };
}

/** The vertices a batch may change (its extent), as a rectangle. */
export function batchExtent(params: BatchParams): GridRect {
    return { x0: params.extentX0, y0: params.extentY0, x1: params.extentX1, y1: params.extentY1 };
}

/**
 * The vertices a river batch erodes: its patch, less the repeated last column and row of a tileable
 * terrain. The one rule for it: the CPU's river kernels, the WGSL's `riverRect` (river_rect.wgsl)
 * and the GPU's dispatch sizes all come from here.
 */
export function riverRect(params: BatchParams): GridRect {
    const wrap = params.wrap !== 0;
    return {
        x0: params.patchX0,
        y0: params.patchY0,
        x1: wrap ? Math.min(params.patchX1, params.width - 1) : params.patchX1,
        y1: wrap ? Math.min(params.patchY1, params.depth - 1) : params.patchY1,
    };
}
