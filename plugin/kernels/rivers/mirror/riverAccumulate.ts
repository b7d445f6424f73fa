/**
 * CPU mirror of `shaders/rivers/river_accumulate.wgsl` and `shaders/rivers/copy_area.wgsl` (the slots they read:
 * `riverSlots.ts`): Jacobi steps of the drainage area over a river batch's patch. Each
 * vertex's area is itself plus the areas of the neighbours whose water comes to it (`riverSlot`),
 * reading the areas as they were before the step;
 * a chain of n cells is counted in full after n steps, and the areas persist, so across batches
 * and cycles they keep converging as the ground changes. Saturates at DRAINAGE_AREA_LIMIT.
 *
 * The WGSL works out every vertex's slot once per batch too (river_slots) but looks at all 8
 * neighbours at every step; here each vertex's donors are listed once per batch. Every function
 * works over a range of rows, so a batch can be split into bands (`riverPhases.ts`).
 */
import { type BatchParams, DRAINAGE_AREA_LIMIT, riverRect } from "../../../core/batchParams.js";
import { expandRect } from "../../../core/patches.js";
import { neighbourAt } from "../../../core/steepestDescent.js";
import { neighbourOffsets, OPPOSITE_SLOT, THERMAL_SLOTS } from "../../../core/thermalDirections.js";
import { frontierCapacity, frontierCells, type ChangedCells, type FrontierScope } from "./riverFrontier.js";
import type { RowRange } from "../../rowBands.js";

// Math's functions as module constants: a global lookup of `Math` is twenty times slower in a
// vm context (jest's test environment, some worker sandboxes).
const { clz32, min } = Math;

/** The rows `riverSlots` covers: the river rectangle's grown by one (virtual rows across a tileable terrain's seam). */
export function riverSlotRows(params: BatchParams): RowRange {
    const rect = riverRect(params);
    return params.wrap !== 0 ? { y0: rect.y0 - 1, y1: rect.y1 + 1 } : expandRect(rect, 1, params.width, params.depth);
}

/**
 * Copies the drainage area into the scratch the odd steps read (`areaNext`) over `rows` of the
 * ring of vertices just outside the river rectangle: those are never stepped, and every step must
 * read their areas as they are (the WGSL reads `drainageArea` for a neighbour outside the
 * rectangle whichever buffer it steps from). Run with the slots, before the first step.
 */
export function copyRingAreas(params: BatchParams, area: Int32Array, areaNext: Int32Array, rows: RowRange): void {
    const { width, depth } = params;
    const wrap = params.wrap !== 0;
    const rect = riverRect(params);
    const ring = riverSlotRows(params);
    for (let vy = Math.max(ring.y0, rows.y0); vy < Math.min(ring.y1, rows.y1); vy++) {
        const outsideRow = vy < rect.y0 || vy >= rect.y1;
        // A row through the rectangle has only its two ends in the ring: step over the rest.
        for (let vx = rect.x0 - 1; vx <= rect.x1; vx = !outsideRow && vx === rect.x0 - 1 ? rect.x1 : vx + 1) {
            const [x, y] = canonical(vx, vy, width, depth, wrap);
            if (x < 0) continue;
            const i = y * width + x;
            areaNext[i] = area[i];
        }
    }
}

/** A virtual coordinate on the grid or its torus: the vertex it names, or [-1, -1] past a non-wrapping edge. */
export function canonical(vx: number, vy: number, width: number, depth: number, wrap: boolean): [number, number] {
    if (wrap) {
        const columns = width - 1;
        const rows = depth - 1;
        return [((vx % columns) + columns) % columns, ((vy % rows) + rows) % rows];
    }
    return vx < 0 || vy < 0 || vx >= width || vy >= depth ? [-1, -1] : [vx, vy];
}

/**
 * Each vertex's donors (the neighbours whose slot points at it) over some rows of the river
 * rectangle: one byte a vertex, bit k set when neighbour k (`THERMAL_DX`/`THERMAL_DY` order) is a
 * donor (a byte where a list of indices took 36 bytes a vertex). The slots do not change during a
 * batch, so the donors are found once and serve every drainage-area step and every sediment hop.
 */
export class DonorLists {
    /** Vertex i's donors at `mask[i - base]` (whole rows, so finding a vertex's byte needs no division). */
    public mask = new Uint8Array(0);
    /** The grid index of the first listed row's first vertex. */
    public base = 0;
    /** The rows listed. */
    public rows: RowRange = { y0: 0, y1: 0 };
}

/** Finds the donors of the river rectangle's vertices in `rows` into `lists`. */
export function listDonors(params: BatchParams, slots: Int32Array, lists: DonorLists, rows: RowRange): void {
    const { width, depth } = params;
    const wrap = params.wrap !== 0;
    const rect = riverRect(params);
    const y0 = Math.max(rect.y0, rows.y0);
    const y1 = Math.max(y0, Math.min(rect.y1, rows.y1));
    const cells = width * (y1 - y0);
    if (lists.mask.length < cells) lists.mask = new Uint8Array(cells);
    const mask = lists.mask;
    const base = y0 * width;
    const offsets = neighbourOffsets(width);
    for (let y = y0; y < y1; y++) {
        const inner = !wrap && y > 0 && y < depth - 1;
        for (let x = rect.x0, i = y * width + rect.x0; x < rect.x1; x++, i++) {
            let bits = 0;
            if (inner && x > 0 && x < width - 1) {
                // Away from the edges every neighbour is an offset away: 18 -> 4 ms at 512².
                for (let k = 0; k < THERMAL_SLOTS; k++) if (slots[i + offsets[k]] === OPPOSITE_SLOT[k]) bits |= 1 << k;
            } else {
                for (let k = 0; k < THERMAL_SLOTS; k++) {
                    const n = neighbourAt(x, y, k, width, depth, wrap);
                    if (n >= 0 && slots[n] === OPPOSITE_SLOT[k]) bits |= 1 << k;
                }
            }
            mask[i - base] = bits;
        }
    }
    lists.base = base;
    lists.rows = { y0, y1 };
}

/**
 * The sum of `values` over vertex (x, y)'s donors (`bits`, a `DonorLists` mask, not zero) plus
 * `start`, each added saturating at `limit` (all non-negative, so the order does not matter). Away
 * from a wrapping seam a donor is `offsets[k]` away; across it, `neighbourAt` wraps.
 */
export function donorSum(
    values: Int32Array, bits: number, i: number, x: number, y: number, params: BatchParams, offsets: Int32Array, start: number, limit: number
): number {
    let total = start;
    if (params.wrap === 0) {
        // One donor per set bit, lowest first (b & -b isolates it): a loop of as many turns as donors.
        for (let b = bits; b !== 0; b &= b - 1) {
            total += values[i + offsets[31 - clz32(b & -b)]];
            if (total > limit) total = limit;
        }
        return total;
    }
    for (let b = bits; b !== 0; b &= b - 1) {
        total = min(total + values[neighbourAt(x, y, 31 - clz32(b & -b), params.width, params.depth, true)], limit);
    }
    return total;
}

/**
 * One Jacobi step of the drainage area over the listed rows (the WGSL's river_accumulate, or
 * river_accumulate_odd reading the other buffer): every vertex's new area (`to`) is 1 plus its
 * donors' areas before the step (`from`), saturating at DRAINAGE_AREA_LIMIT. A batch's steps
 * alternate between the drainage area and its scratch (ping-pong), and an odd count ends with
 * `copyArea`. The vertices whose area changed go into `frontier.changed`; where the step before
 * listed all of its own (`frontier.previous`), only those and their receivers are worked out
 * (`frontierCells`): every other vertex already holds its new area in `to`, from two steps before.
 */
export function riverAreaStep(params: BatchParams, lists: DonorLists, from: Int32Array, to: Int32Array, frontier: StepFrontier): void {
    const { width } = params;
    const wrap = params.wrap !== 0;
    const rect = riverRect(params);
    const offsets = neighbourOffsets(width);
    const { mask, base } = lists;
    const { y0, y1 } = lists.rows;
    const { changed, previous } = frontier;
    changed.begin(frontierCapacity(rect, lists.rows, frontier.scope.share));
    if (previous !== null && previous.complete) {
        const visits = frontierCells({ ...frontier.scope, rect, rows: lists.rows }, previous, true);
        const cells = visits.cells;
        for (let n = 0, count = visits.count; n < count; n++) {
            const i = cells[n];
            const bits = mask[i - base];
            let area = 1;
            if (bits !== 0) {
                // Only a tileable terrain's donors need the coordinates (neighbourAt wraps them).
                const y = wrap ? (i / width) | 0 : 0;
                area = donorSum(from, bits, i, i - y * width, y, params, offsets, 1, DRAINAGE_AREA_LIMIT);
            }
            to[i] = area;
            if (area !== from[i]) changed.add(i);
        }
        return;
    }
    for (let y = y0; y < y1; y++) {
        for (let x = rect.x0, i = y * width + rect.x0; x < rect.x1; x++, i++) {
            const bits = mask[i - base];
            const area = bits === 0 ? 1 : donorSum(from, bits, i, x, y, params, offsets, 1, DRAINAGE_AREA_LIMIT);
            to[i] = area;
            if (area !== from[i]) changed.add(i);
        }
    }
}

/** Where a sparse step keeps its lists: the step before's (none for a batch's first), its own, and the slots and marks to visit by. */
export interface StepFrontier {
    readonly previous: ChangedCells | null;
    readonly changed: ChangedCells;
    readonly scope: Pick<FrontierScope, "params" | "slots" | "marks" | "visits" | "share">;
}

/** The stepped areas (`from`) become the areas (`to`) over `rows` of the river rectangle (the WGSL's copy_area). */
export function copyArea(params: BatchParams, from: Int32Array, to: Int32Array, rows: RowRange): void {
    const { width } = params;
    const rect = riverRect(params);
    for (let y = Math.max(rect.y0, rows.y0); y < Math.min(rect.y1, rows.y1); y++) {
        to.set(from.subarray(y * width + rect.x0, y * width + rect.x1), y * width + rect.x0);
    }
}
