/**
 * CPU mirror of `shaders/rivers/river_erode.wgsl`, `shaders/rivers/river_uplift.wgsl` and
 * `shaders/rivers/river_settle.wgsl`: stream-power erosion, deposition and uplift over a river batch's
 * patch, and where the load it does not lay down goes. The WGSL says why each rule is there.
 * Each works over a range of rows, so a river batch can be split into bands (`riverPhases.ts`).
 */
import { ACCUMULATOR_LIMIT, type BatchParams, riverRect, ROOT_AREA_LIMIT, ROUTE_LIMIT } from "../../../core/batchParams.js";
import { COUNTER_OUTFLOW, COUNTER_UPLIFT_ADDED } from "../../../core/counters.js";
import { FIXED_ONE, HEIGHT_MAX_FIXED, isqrt32, mulQ16, mulQ16Sat, U32_MAX } from "../../../core/fixedPoint.js";
import { fillRoom, neighbourBounds } from "../../../core/settling.js";
import { INVERSE_SQRT2_Q16, neighbourAt } from "../../../core/steepestDescent.js";
import { FIRST_DIAGONAL_SLOT, THERMAL_DX, THERMAL_DY } from "../../../core/thermalDirections.js";
import type { DonorLists } from "./riverAccumulate.js";
import { keepSuspended } from "../../fold/routeSediment.js";
import type { RowRange } from "../../rowBands.js";
import { materialCut, vertexHardness, type MaterialGrids } from "../../../core/materials.js";

const { clz32, floor, max, min } = Math;

/** Everything a river batch's erosion reads, besides its parameters. */
export interface RiverInputs {
    readonly heights: Int32Array;
    readonly levels: Int32Array;
    readonly area: Int32Array;
    /** Each vertex's river slot (`riverSlots`), over the patch grown by one. */
    readonly slots: Int32Array;
    /** The rivers mask (Q16 per vertex), or null. */
    readonly mask: Int32Array | null;
    /** The materials (soil and hardness), when the batch runs them (`params.materials`), else null or absent. */
    readonly materials?: MaterialGrids | null;
}

/** min(a x b, ACCUMULATOR_LIMIT) for non-negative integers, exactly (WGSL compares a with LIMIT / b). */
export function saturatingProduct(a: number, b: number): number {
    const product = a * b;
    return product >= ACCUMULATOR_LIMIT ? ACCUMULATOR_LIMIT : product;
}

/**
 * 1 / (1 + F) in Q16 for the stream-power factor F = erosion x sqrt(area) / run (`erosion`:
 * `params.riverErosion`; x `mask`, Q16, or null), saturating: (2^32 - 1) / (2^16 + F) in unsigned
 * 32-bit arithmetic (F > 0 never divides 2^32).
 *
 * This and the other rules a vertex at a time take the batch's parameters as numbers, not the
 * parameter object, which can come in more than one shape (spread copies for a band of rows,
 * copies from another thread): in a test that showed the walk five shapes, every read of a field
 * at every vertex then went through V8's megamorphic cache, and the river walk at 512² took 25 ->
 * 48 ms (a bench process, after its other figures, ran the pool's one-worker river batch at 65 ms
 * rather than 38 before this).
 */
export function streamKeep(erosion: number, area: number, diagonal: boolean, mask: number | null): number {
    let factor = mulQ16Sat(erosion, min(isqrt32(area), ROOT_AREA_LIMIT) * FIXED_ONE);
    if (diagonal) factor = mulQ16(factor, INVERSE_SQRT2_Q16);
    if (mask !== null) factor = mulQ16(factor, mask);
    return factor === 0 ? FIXED_ONE : floor(U32_MAX / (FIXED_ONE + factor));
}

/**
 * What vertex (x, y) of the river rectangle loses to stream-power erosion this batch: the implicit
 * step toward its receiver, h <- h_r + (h - h_r) / (1 + F), so it never sinks below the receiver
 * however large F is. Zero under a fill level, or without a receiver below it. (The WGSL's
 * riverErosionAt also answers 0 outside the rectangle; here callers check.) With the materials on,
 * through their rule (`materialCut`; the WGSL's `cutAt` in river_erode.wgsl).
 */
export function riverErosionAt(params: BatchParams, inputs: RiverInputs, x: number, y: number): number {
    const i = y * params.width + x;
    if (params.wrap === 0 && inputs.levels[i] > inputs.heights[i]) return 0;
    const slot = inputs.slots[i];
    if (slot < 0) return 0;
    const cut = cutOfFall(
        params.riverErosion, inputs.area, inputs.mask, i, slot,
        inputs.heights[i] - inputs.heights[neighbourAt(x, y, slot, params.width, params.depth, params.wrap !== 0)]
    );
    const materials = inputs.materials;
    return cut === 0 || params.materials === 0 || !materials
        ? cut
        : materialCut(cut, materials.soil[i], vertexHardness(params, inputs.heights, materials, i, x, y));
}

/**
 * `riverErosionAt` of vertex i, not under its fill level, whose river slot is `slot` (>= 0) and
 * fall to its receiver `fall` (`erosion`: `params.riverErosion`).
 */
export function cutOfFall(erosion: number, area: Int32Array, mask: Int32Array | null, i: number, slot: number, fall: number): number {
    if (fall <= 0) return 0;
    return cutOfKeep(fall, streamKeep(erosion, area[i], slot >= FIRST_DIAGONAL_SLOT, mask === null ? null : mask[i]));
}

/** The cut of a vertex falling `fall` (> 0) to its receiver that keeps `keep` (`streamKeep`) of it. */
export function cutOfKeep(fall: number, keep: number): number {
    return min(fall - mulQ16(fall, keep), ACCUMULATOR_LIMIT);
}

/**
 * Each vertex's stream-power erosion over the river rectangle's `rows`, into `eroded` (scratch of
 * the grid's size: worked out once, where the WGSL works a donor's out again).
 */
export function riverCut(params: BatchParams, inputs: RiverInputs, eroded: Int32Array, rows: RowRange): void {
    const rect = riverRect(params);
    for (let y = max(rect.y0, rows.y0); y < min(rect.y1, rows.y1); y++) {
        for (let x = rect.x0; x < rect.x1; x++) {
            eroded[y * params.width + x] = riverErosionAt(params, inputs, x, y);
        }
    }
}

/**
 * Erosion and deposition over the river rectangle's `rows`: `delta` gets each vertex's change,
 * `routed` the load it sends on, `suspended` keeps only material owed (negative). Reads the
 * neighbours' `eroded` (`riverCut`, done over the whole rectangle first) at its donors (`donors`,
 * listed for the same rows).
 */
export function riverErode(
    params: BatchParams, inputs: RiverInputs, donors: DonorLists, delta: Int32Array, suspended: Int32Array, routed: Int32Array, eroded: Int32Array,
    rows: RowRange
): void {
    const { width, depth } = params;
    const wrap = params.wrap !== 0;
    const heights = inputs.heights;
    const rect = riverRect(params);
    const donorBits = donors.mask;
    for (let y = max(rect.y0, rows.y0); y < min(rect.y1, rows.y1); y++) {
        for (let x = rect.x0; x < rect.x1; x++) {
            const i = y * width + x;
            const cut = eroded[i];
            let donorFloor = HEIGHT_MAX_FIXED;
            // One turn per donor (b & -b isolates the lowest bit): 26 -> 15 ms a 512² batch against all 8 neighbours.
            for (let b = donorBits[i - donors.base]; b !== 0; b &= b - 1) {
                const k = 31 - clz32(b & -b);
                let nx = x + THERMAL_DX[k];
                let ny = y + THERMAL_DY[k];
                let n = ny * width + nx;
                if (wrap) {
                    n = neighbourAt(x, y, k, width, depth, true);
                    nx = n % width;
                    ny = (n - nx) / width;
                }
                const inRect = nx >= rect.x0 && ny >= rect.y0 && nx < rect.x1 && ny < rect.y1;
                donorFloor = min(donorFloor, heights[n] - (inRect ? eroded[n] : 0));
            }
            const slot = inputs.slots[i];
            const fall = slot < 0 ? 0 : heights[i] - heights[neighbourAt(x, y, slot, width, depth, wrap)];
            const settles = !wrap && inputs.levels[i] > heights[i];
            routed[i] = erodeVertex(
                params, params.riverCapacity, heights, inputs.levels, inputs.area, inputs.mask, i, x, y, settles, slot, cut, donorFloor, fall, -1, delta,
                suspended
            );
        }
    }
}

/**
 * Vertex i = (x, y)'s erosion and deposition (`riverErode`'s rule): its change into `delta`, only
 * material owed left in `suspended`; returns the load it sends on. `capacity`:
 * `params.riverCapacity`; `settles`: it lies under its fill level on a terrain that does not wrap;
 * `slot`: its river slot; `cut`: its `riverErosionAt`; `donorFloor`: the lowest of its donors'
 * heights less their cuts (HEIGHT_MAX_FIXED without donors); `fall`: its height less its
 * receiver's (anything without one); `room`: its `fillRoom` where it settles (-1: work it out if
 * needed). `params` is read only on the rare branches.
 */
export function erodeVertex(
    params: BatchParams, capacity: number, heights: Int32Array, levels: Int32Array, area: Int32Array, mask: Int32Array | null, i: number, x: number, y: number,
    settles: boolean, slot: number, cut: number, donorFloor: number, fall: number, room: number, delta: Int32Array, suspended: Int32Array
): number {
    // Small enough for V8 to inline into the walk: the rare branches are functions of their own.
    const waiting = suspended[i];
    const load = max(waiting, 0) + cut;
    let deposited = 0;
    if (settles) {
        // Under a fill level (in a basin) the stream has no slope to carry with: the load settles
        // as it does in the fold, the rest moves on across the basin. Nothing to lay down without
        // a load (the room is never negative): then the room is not worked out.
        if (load > 0) deposited = min(load, room >= 0 ? room : basinRoomAt(heights, levels, x, y, params.width, params.depth));
    } else {
        const drop = slot < 0 ? 0 : max(fall, 0);
        const slope = slot >= FIRST_DIAGONAL_SLOT ? mulQ16(drop, INVERSE_SQRT2_Q16) : drop;
        const carried = saturatingProduct(mulQ16Sat(capacity, slope), area[i]);
        if (load > carried && donorFloor !== HEIGHT_MAX_FIXED) deposited = overCapacity(params, heights, x, y, cut, donorFloor, load - carried);
    }
    if (mask !== null) deposited = mulQ16(deposited, mask[i]);
    delta[i] = deposited - cut;
    suspended[i] = min(waiting, 0);
    return load - deposited;
}

/** Basin vertex (x, y)'s room (`fillRoom` of its `neighbourBounds`) on a `width` x `depth` grid. */
export function basinRoomAt(heights: Int32Array, levels: Int32Array, x: number, y: number, width: number, depth: number): number {
    const i = y * width + x;
    const { lowest, lowestHigher, lowestHigherLevel } = neighbourBounds(heights, levels, x, y, width, depth);
    return fillRoom(heights[i], levels[i], lowest, lowestHigher, lowestHigherLevel);
}

/**
 * What vertex (x, y), cut by `cut`, lays down of `excess` beyond its capacity: part of it, never up
 * to a donor's height (`donorFloor`). That bound alone keeps the fill levels an upper bound: a
 * neighbour that does not drain through this vertex has a lower way down of its own (contract
 * version 14; before it a deposit also stayed FILL_EPSILON under every neighbouring level above its
 * own, so a channel never rose past its lowest bank and rivers built no fans or floodplains).
 */
function overCapacity(params: BatchParams, heights: Int32Array, x: number, y: number, cut: number, donorFloor: number, excess: number): number {
    const below = max(donorFloor - (heights[y * params.width + x] - cut) - 1, 0);
    return min(mulQ16(excess, params.riverDeposition), below);
}

/**
 * Uplift over the river rectangle: `delta += uplift x map`, counted, never past the top of the
 * range. The field's edge is the base level the rivers drain to and is not lifted (on a tileable
 * terrain, which has no edge, everything is).
 */
export function riverUplift(params: BatchParams, heights: Int32Array, delta: Int32Array, map: Int32Array | null, counters: Float64Array, rows: RowRange): void {
    const { width, depth } = params;
    // No uplift (the default) adds nothing anywhere, map or not.
    if (params.riverUplift === 0) return;
    const rect = riverRect(params);
    for (let y = max(rect.y0, rows.y0); y < min(rect.y1, rows.y1); y++) {
        for (let x = rect.x0; x < rect.x1; x++) {
            if (params.wrap === 0 && (x === 0 || y === 0 || x === width - 1 || y === depth - 1)) continue;
            upliftVertex(params.riverUplift, heights, delta, map, counters, y * width + x);
        }
    }
}

/** `riverUplift` at vertex i (not an edge vertex of a terrain that does not wrap); `rate`: `params.riverUplift`. */
export function upliftVertex(rate: number, heights: Int32Array, delta: Int32Array, map: Int32Array | null, counters: Float64Array, i: number): void {
    let uplift = map === null ? rate : mulQ16(rate, map[i]);
    uplift = min(uplift, max(HEIGHT_MAX_FIXED - (heights[i] + delta[i]), 0));
    delta[i] += uplift;
    counters[COUNTER_UPLIFT_ADDED] += uplift;
}

/**
 * Where the load `riverErode` sent on goes: along `sedimentSlot` (at most ROUTE_LIMIT a fold; the
 * rest waits), kept on the floor of a basin not yet filled to its level, off the field at an edge
 * vertex with nowhere lower to go, else kept.
 */
export function riverSettle(params: BatchParams, slots: Int32Array, suspended: Int32Array, routed: Int32Array, counters: Float64Array, rows: RowRange): void {
    const width = params.width;
    const rect = riverRect(params);
    for (let y = max(rect.y0, rows.y0); y < min(rect.y1, rows.y1); y++) {
        for (let x = rect.x0; x < rect.x1; x++) {
            const i = y * width + x;
            const load = routed[i];
            if (load > 0) routed[i] = settleVertex(params, slots[i], suspended, counters, load, i, x, y);
        }
    }
}

/**
 * `riverSettle` at vertex i = (x, y) with river slot `slot` and `load` (> 0) to send on: returns
 * what it sends on the first hop, keeps or counts out the rest. `params` is read only where the
 * vertex has no receiver (rare).
 */
export function settleVertex(
    params: BatchParams, slot: number, suspended: Int32Array, counters: Float64Array, load: number, i: number, x: number, y: number
): number {
    if (slot >= 0) {
        // The river slot is sedimentSlot (the same rule), worked out once for the batch.
        const sent = min(load, ROUTE_LIMIT);
        if (load > sent) keepSuspended(suspended, i, load - sent, counters);
        return sent;
    }
    const { width, depth } = params;
    if (params.wrap === 0 && (x === 0 || y === 0 || x === width - 1 || y === depth - 1)) {
        counters[COUNTER_OUTFLOW] += load;
    } else {
        keepSuspended(suspended, i, load, counters);
    }
    return 0;
}
