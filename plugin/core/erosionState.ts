/**
 * The whole simulation state, as plain arrays: what checkpoints, snapshots, the fingerprint and
 * the mass balance are computed from, whichever backend produced it.
 */
import { COUNTER_COUNT, COUNTER_OUTFLOW, COUNTER_SATURATION_ADDED, COUNTER_SATURATION_REMOVED } from "./counters.js";
import { fingerprintState } from "./fingerprint.js";
import type { LocalErosionEvent } from "./localErosion.js";
import { priorityFloodFill } from "./fillLevels.js";

/**
 * Per-operator masks: Q16 per vertex (0 holds the ground out, 65536 lets the operator work at full
 * strength), or null for none. Part of the state and the fingerprint: the same mask gives the same
 * result on both backends.
 */
export interface ErosionMasks {
    hydraulic: Int32Array | null;
    thermal: Int32Array | null;
    flow: Int32Array | null;
}

/** The operators that take a mask, in fingerprint and snapshot order. */
export const MASKED_OPERATORS = ["hydraulic", "thermal", "flow"] as const;

/** No masks. */
export function noMasks(): ErosionMasks {
    return { hydraulic: null, thermal: null, flow: null };
}

/** Copies of the masks. */
export function cloneMasks(masks: ErosionMasks): ErosionMasks {
    return { hydraulic: masks.hydraulic?.slice() ?? null, thermal: masks.thermal?.slice() ?? null, flow: masks.flow?.slice() ?? null };
}

/**
 * The per-vertex `i32` grids of the state, in fingerprint and snapshot order. Everything that reads
 * or writes a whole state (clones, fingerprint, snapshots, the GPU upload and readback) walks this
 * list, so a new grid is added in one place.
 */
export const STATE_GRIDS = ["heights", "suspended", "flowCounts", "fillLevels"] as const;

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
    /** Upstream counts of the flow-accumulation operator per vertex (1 = the vertex alone). */
    flowCounts: Int32Array;
    /** Fill levels (fixed point): the surface of every depression filled to its spill with one unit of fall per cell (see fillLevels.ts). */
    fillLevels: Int32Array;
    /** Masks in force. */
    masks: ErosionMasks;
    /** Local erosion events of the current cycle and those waiting for the next (absent: none). */
    events?: { inForce: readonly LocalErosionEvent[]; pending: readonly LocalErosionEvent[] };
    /** Counters by `COUNTER_*` index. */
    counters: Float64Array;
}

/** A fresh state over fixed-point heights (copied): cycle 0, nothing suspended, every upstream count 1, counters zero. */
export function createInitialState(width: number, depth: number, heights: Int32Array): ErosionStateData {
    return { width, depth, cycle: 0, batch: 0, heights: heights.slice(), suspended: new Int32Array(width * depth), flowCounts: new Int32Array(width * depth).fill(1), fillLevels: priorityFloodFill(heights, width, depth), masks: noMasks(), counters: new Float64Array(COUNTER_COUNT) };
}

/** A deep copy. */
export function cloneState(state: ErosionStateData): ErosionStateData {
    const copy: ErosionStateData = { ...state, masks: cloneMasks(state.masks), counters: state.counters.slice(), events: state.events ? { inForce: [...state.events.inForce], pending: [...state.events.pending] } : undefined };
    for (const name of STATE_GRIDS) {
        copy[name] = state[name].slice();
    }
    return copy;
}

/** The contract fingerprint of a state. */
export function fingerprintOf(state: ErosionStateData): string {
    return fingerprintState(state);
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
 * The conserved total, in fixed-point units: heights + suspended + outflow + saturation removed
 * - saturation added. Every kernel keeps it constant exactly, so it equals the sum of the initial
 * heights.
 */
export function conservedMass(state: ErosionStateData): bigint {
    const counters = state.counters;
    return sum(state.heights) + sum(state.suspended) + BigInt(counters[COUNTER_OUTFLOW]) + BigInt(counters[COUNTER_SATURATION_REMOVED]) - BigInt(counters[COUNTER_SATURATION_ADDED]);
}

/** Sum of the heights alone, in fixed-point units. */
export function heightSum(values: Int32Array): bigint {
    return sum(values);
}
