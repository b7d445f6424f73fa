/**
 * CPU mirror of `shaders/river_accumulate.wgsl` and `shaders/copy_area.wgsl`: Jacobi steps of the
 * drainage area over a river batch's patch. Each vertex's area is itself plus the areas of the
 * neighbours whose water comes to it (`riverSlot`), reading the areas as they were before the step;
 * a chain of n cells is counted in full after n steps, and the areas persist, so across batches
 * and cycles they keep converging as the ground changes. Saturates at DRAINAGE_AREA_LIMIT.
 *
 * The WGSL works out every neighbour's slot once per batch too (river_slots) but looks at all 8
 * neighbours at every step; here each vertex's donors are listed once per batch.
 */
import type { BatchParams } from "../batchParams.js";
import { expandRect, type GridRect } from "../patches.js";
import { neighbourAt, riverSlot } from "../steepestDescent.js";
import { OPPOSITE_SLOT, THERMAL_SLOTS } from "../thermalDirections.js";

// Math's functions as module constants: a global lookup of `Math` is twenty times slower in a
// vm context (jest's test environment, some worker sandboxes).
const { min } = Math;

/** Largest drainage area kept, in cells (2^30). */
export const DRAINAGE_AREA_LIMIT = 2 ** 30;

/** The vertices a river batch erodes: its patch, less the repeated last column and row of a tileable terrain. */
export function riverRect(params: BatchParams): GridRect {
    const wrap = params.wrap !== 0;
    return { x0: params.patchX0, y0: params.patchY0, x1: wrap ? Math.min(params.patchX1, params.width - 1) : params.patchX1, y1: wrap ? Math.min(params.patchY1, params.depth - 1) : params.patchY1 };
}

/**
 * Each vertex's river slot (`riverSlot`: 0..7, or -1) over the river rectangle grown by one
 * (wrapping on a tileable terrain), into `slots`.
 */
export function riverSlots(params: BatchParams, heights: Int32Array, levels: Int32Array, slots: Int32Array): void {
    const { width, depth } = params;
    const wrap = params.wrap !== 0;
    const rect = riverRect(params);
    if (!wrap) {
        const ring = expandRect(rect, 1, width, depth);
        for (let y = ring.y0; y < ring.y1; y++) {
            for (let x = ring.x0; x < ring.x1; x++) slots[y * width + x] = riverSlot(heights, levels, x, y, width, depth, false);
        }
        return;
    }
    for (let vy = rect.y0 - 1; vy <= rect.y1; vy++) {
        for (let vx = rect.x0 - 1; vx <= rect.x1; vx++) {
            const [x, y] = canonical(vx, vy, width, depth, true);
            slots[y * width + x] = riverSlot(heights, levels, x, y, width, depth, true);
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

/** Each vertex's donors over the river rectangle, in compressed rows: `start` (rectangle-relative, one more than its size) and `donors`. */
export interface DonorLists {
    start: Int32Array;
    donors: Int32Array;
}

/**
 * `steps` Jacobi steps over the river rectangle, each the WGSL's river_accumulate then copy_area:
 * every vertex's new area is 1 plus its donors' areas before the step, saturating at
 * DRAINAGE_AREA_LIMIT (all non-negative, so the order of the saturating sums does not matter).
 * The donors (neighbours whose slot points here) are listed once, since the slots do not change
 * during the steps; `next` is scratch of the grid's size.
 */
export function riverAccumulate(params: BatchParams, slots: Int32Array, area: Int32Array, next: Int32Array, steps: number, lists: DonorLists): void {
    const { width, depth } = params;
    const wrap = params.wrap !== 0;
    const rect = riverRect(params);
    const columns = rect.x1 - rect.x0;
    const cells = columns * (rect.y1 - rect.y0);
    if (lists.start.length < cells + 1) lists.start = new Int32Array(cells + 1);
    if (lists.donors.length < cells * THERMAL_SLOTS) lists.donors = new Int32Array(cells * THERMAL_SLOTS);
    const { start, donors } = lists;
    let count = 0;
    for (let y = rect.y0, cell = 0; y < rect.y1; y++) {
        for (let x = rect.x0; x < rect.x1; x++, cell++) {
            start[cell] = count;
            for (let k = 0; k < THERMAL_SLOTS; k++) {
                const n = neighbourAt(x, y, k, width, depth, wrap);
                if (n >= 0 && slots[n] === OPPOSITE_SLOT[k]) donors[count++] = n;
            }
        }
    }
    start[cells] = count;
    for (let step = 0; step < steps; step++) {
        for (let y = rect.y0, cell = 0; y < rect.y1; y++) {
            for (let i = y * width + rect.x0, end = i + columns; i < end; i++, cell++) {
                let total = 1;
                for (let d = start[cell], last = start[cell + 1]; d < last; d++) total = min(total + area[donors[d]], DRAINAGE_AREA_LIMIT);
                next[i] = total;
            }
        }
        for (let y = rect.y0; y < rect.y1; y++) {
            area.set(next.subarray(y * width + rect.x0, y * width + rect.x1), y * width + rect.x0);
        }
    }
}
