/**
 * The whole simulation state, as plain arrays: what checkpoints, snapshots, the fingerprint and
 * the mass balance are computed from, whichever backend produced it.
 */
import {
    COUNTER_COUNT, COUNTER_EDIT_ADDED, COUNTER_EDIT_REMOVED, COUNTER_OUTFLOW, COUNTER_SATURATION_ADDED, COUNTER_SATURATION_REMOVED, COUNTER_SEAM_ADDED,
    COUNTER_SEAM_REMOVED, COUNTER_UPLIFT_ADDED, COUNTER_WATER_ADDED, COUNTER_WATER_EVAPORATED, COUNTER_WATER_OUTFLOW, COUNTER_WATER_REMOVED,
} from "./counters.js";
import type { GroundEdit } from "./groundEdits.js";
import type { LocalErosionEvent } from "./localErosion.js";
import { priorityFloodFill } from "./fillLevels.js";
import { cloneWaterGrids, type WaterGrids } from "./waterModel.js";
import { cloneMaterialGrids, type MaterialGrids } from "./materialGrids.js";
import type { WaterSource } from "./waterSources.js";
import type { SimulationOptions } from "./options.js";

/** Water sources in force and, when a change waits for the next cycle boundary, the list that will be. */
export interface WaterSourceState {
    readonly inForce: readonly WaterSource[];
    readonly pending: readonly WaterSource[] | null;
}

/**
 * The masks of the operators, in fingerprint and snapshot order: one per operator (scaling what it
 * moves per vertex), the uplift map (scaling `rivers.uplift` per vertex) and the rain map (scaling
 * `water.rain`). Hashed and snapshotted in fixed slots, set or not.
 */
export const MASKED_OPERATORS = ["hydraulic", "thermal", "rivers", "uplift", "rain"] as const;

/**
 * The materials' maps, in fingerprint and snapshot order: the hardness map (the rock's hardness
 * factor, `materials.hardnessMapScale` where it reads 1) and the soil map (the share of
 * `materials.initialSoil` a vertex starts with). The fingerprint and snapshots hold each only while
 * it is set, so a state without them hashes as before they existed.
 */
export const MATERIAL_MASKS = ["hardness", "soil"] as const;

/** Every mask: the operators' (`MASKED_OPERATORS`), then the materials' maps (`MATERIAL_MASKS`). */
export const MASK_NAMES = [...MASKED_OPERATORS, ...MATERIAL_MASKS] as const;

/** What a mask applies to. */
export type MaskName = (typeof MASK_NAMES)[number];

/** An operator's mask (one with a fixed slot in the fingerprint and snapshots, and a GPU buffer of its own). */
export type OperatorMaskName = (typeof MASKED_OPERATORS)[number];

/**
 * Masks: Q16 per vertex (0 holds the ground out, 65536 lets the operator work at full strength), or
 * null for none. Part of the state and the fingerprint: the same mask gives the same result on both
 * backends.
 */
export type ErosionMasks = Record<MaskName, Int32Array | null>;

/** No masks. */
export function noMasks(): ErosionMasks {
    return { hydraulic: null, thermal: null, rivers: null, uplift: null, rain: null, hardness: null, soil: null };
}

/** Copies of the masks. */
export function cloneMasks(masks: ErosionMasks): ErosionMasks {
    const copy = noMasks();
    for (const name of MASK_NAMES) {
        copy[name] = masks[name]?.slice() ?? null;
    }
    return copy;
}

/**
 * The per-vertex `i32` grids of the state, in fingerprint and snapshot order. Everything that reads
 * or writes a whole state (clones, fingerprint, snapshots, the GPU upload and readback) walks this
 * list, so a new grid is added in one place.
 */
export const STATE_GRIDS = ["heights", "suspended", "drainageArea", "fillLevels"] as const;

/** The name of one of the state's grids. */
export type StateGridName = (typeof STATE_GRIDS)[number];

/** Everything that carries over between batches, plus the counters. */
export interface ErosionStateData {
    /** Vertices per row. */
    readonly width: number;
    /** Rows. */
    readonly depth: number;
    /** Completed cycles. */
    cycle: number;
    /** Completed batches of the cycle in progress. */
    batch: number;
    /** Heights, fixed point (1/65536 of the cell size), row-major. */
    heights: Int32Array;
    /** Suspended sediment per vertex, fixed point; negative is material owed by the ground (see docs/simulation.md). */
    suspended: Int32Array;
    /** Drainage area per vertex, in cells (1 = the vertex alone), as the river operator propagates it. */
    drainageArea: Int32Array;
    /** Fill levels (fixed point): the surface of every depression filled to its spill with one unit of fall per cell (see fillLevels.ts). */
    fillLevels: Int32Array;
    /** Masks in force. */
    masks: ErosionMasks;
    /** The shallow water (depth, its sediment, the pipes' flows), or null until water first runs. */
    water?: WaterGrids | null;
    /** Soil thickness and rock hardness (`materials.ts`), or null (or absent) until the materials first run. */
    materials?: MaterialGrids | null;
    /** Water sources (absent: none). */
    sources?: WaterSourceState;
    /** Local erosion events of the current cycle and those waiting for the next (absent: none). */
    events?: { inForce: readonly LocalErosionEvent[]; pending: readonly LocalErosionEvent[] };
    /** Ground edits stamped and not yet applied, in stamp order (absent: none). */
    edits?: readonly GroundEdit[];
    /** Simulation options waiting for the next cycle boundary (absent or null: none; not in the fingerprint). */
    pendingOptions?: SimulationOptions | null;
    /** Masks waiting for the next cycle boundary, all five (absent or null: none; not in the fingerprint). */
    pendingMasks?: ErosionMasks | null;
    /** Counters by `COUNTER_*` index. */
    counters: Float64Array;
}

/** A fresh state over fixed-point heights (copied): cycle 0, nothing suspended, every drainage area 1, exact fill levels, counters zero. */
export function createInitialState(width: number, depth: number, heights: Int32Array): ErosionStateData {
    return {
        width,
        depth,
        cycle: 0,
        batch: 0,
        heights: heights.slice(),
        suspended: new Int32Array(width * depth),
        drainageArea: new Int32Array(width * depth).fill(1),
        fillLevels: priorityFloodFill(heights, width, depth),
        masks: noMasks(),
        water: null,
        counters: new Float64Array(COUNTER_COUNT),
    };
}

/**
 * A state at stamp 0 whose grids hold `cells` zeros each (0 for grids that arrive later, shared),
 * for a worker's runner that is handed or copies in its grids before it runs a batch.
 */
export function blankState(width: number, depth: number, cells = width * depth): ErosionStateData {
    return {
        width,
        depth,
        cycle: 0,
        batch: 0,
        heights: new Int32Array(cells),
        suspended: new Int32Array(cells),
        drainageArea: new Int32Array(cells),
        fillLevels: new Int32Array(cells),
        masks: noMasks(),
        water: null,
        counters: new Float64Array(COUNTER_COUNT),
    };
}

/** A deep copy. */
export function cloneState(state: ErosionStateData): ErosionStateData {
    const copy: ErosionStateData = {
        ...state,
        masks: cloneMasks(state.masks),
        counters: state.counters.slice(),
        events: state.events ? { inForce: [...state.events.inForce], pending: [...state.events.pending] } : undefined,
        edits: state.edits ? [...state.edits] : undefined,
        pendingMasks: state.pendingMasks ? cloneMasks(state.pendingMasks) : state.pendingMasks,
        water: state.water ? cloneWaterGrids(state.water) : null,
        materials: state.materials ? cloneMaterialGrids(state.materials) : null,
        sources: state.sources ? { inForce: [...state.sources.inForce], pending: state.sources.pending ? [...state.sources.pending] : null } : undefined,
    };
    for (const name of STATE_GRIDS) {
        copy[name] = state[name].slice();
    }
    return copy;
}

function sum(values: Int32Array): bigint {
    let total = 0n;
    for (let start = 0; start < values.length; start += 4096) {
        // A chunk of 4096 values of at most 2^31 sums below 2^43: exact in a double.
        let partial = 0;
        const end = Math.min(values.length, start + 4096);
        for (let i = start; i < end; i++) {
            partial += values[i];
        }
        total += BigInt(partial);
    }
    return total;
}

/**
 * The conserved total, in fixed-point units: heights + suspended + the water's sediment + outflow +
 * saturation removed - saturation added - uplift added - seam added + seam removed - edits added +
 * edits removed. Every kernel keeps it constant exactly, so it equals the sum of the initial heights.
 */
export function conservedMass(state: ErosionStateData): bigint {
    const counters = state.counters;
    const count = (index: number) => BigInt(counters[index]);
    return sum(state.heights) + sum(state.suspended) + (state.water ? sum(state.water.waterSediment) : 0n) +
        count(COUNTER_OUTFLOW) + count(COUNTER_SATURATION_REMOVED) - count(COUNTER_SATURATION_ADDED) - count(COUNTER_UPLIFT_ADDED) -
        count(COUNTER_SEAM_ADDED) + count(COUNTER_SEAM_REMOVED) - count(COUNTER_EDIT_ADDED) + count(COUNTER_EDIT_REMOVED);
}

/**
 * The water balance: stored water - (added - evaporated - outflow - removed), in fixed-point units.
 * Every water kernel keeps it at zero exactly.
 */
export function waterImbalance(state: ErosionStateData): bigint {
    const counters = state.counters;
    const count = (index: number) => BigInt(counters[index]);
    const stored = state.water ? sum(state.water.waterDepth) : 0n;
    return stored - (count(COUNTER_WATER_ADDED) - count(COUNTER_WATER_EVAPORATED) - count(COUNTER_WATER_OUTFLOW) - count(COUNTER_WATER_REMOVED));
}

/** Sum of the heights alone, in fixed-point units. */
export function heightSum(values: Int32Array): bigint {
    return sum(values);
}
