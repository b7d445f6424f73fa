/**
 * Fill levels: the surface water would stand at if every depression filled to its spill point,
 * with one fixed-point unit of fall per cell toward the spill (priority-flood with epsilon), so a
 * filled basin still drains. The field's edges are the outlets. Sediment that reaches a depression
 * fills it up to this surface and then runs on across it; the river operator routes its water
 * over it.
 *
 * The levels are part of the state. They start exact (`priorityFloodFill`, on the CPU when the
 * state is created) and each fold then moves them one Jacobi step toward the levels of the current
 * heights (`fillLevelStep`, mirrored in `shaders/fold/fill_levels.wgsl`): fast where erosion lowers a
 * spill, one unit per step where a new depression forms.
 */
import { HEIGHT_MAX_FIXED } from "./fixedPoint.js";
import { THERMAL_DX, THERMAL_DY, THERMAL_SLOTS } from "./thermalDirections.js";

/** Fall per cell, in fixed-point units, that a filled basin keeps toward its spill point. */
export const FILL_EPSILON = 1;

/**
 * The exact fill levels of `heights` (row-major `width x depth`, fixed point): priority-flood from
 * the edge vertices inward, each vertex at least `FILL_EPSILON` above the vertex it was reached from.
 * Ties go to the lower index, so the result is one array for given heights.
 */
export function priorityFloodFill(heights: Int32Array, width: number, depth: number): Int32Array {
    const cells = width * depth;
    const levels = new Int32Array(cells);
    const reached = new Uint8Array(cells);
    const heap = new IndexHeap(cells, levels);
    for (let y = 0; y < depth; y++) {
        for (let x = 0; x < width; x++) {
            if (x === 0 || y === 0 || x === width - 1 || y === depth - 1) {
                const i = y * width + x;
                levels[i] = heights[i];
                reached[i] = 1;
                heap.push(i);
            }
        }
    }
    while (heap.size > 0) {
        const i = heap.pop();
        const x = i % width;
        const y = (i - x) / width;
        const spill = Math.min(levels[i] + FILL_EPSILON, HEIGHT_MAX_FIXED);
        for (let k = 0; k < THERMAL_SLOTS; k++) {
            const nx = x + THERMAL_DX[k];
            const ny = y + THERMAL_DY[k];
            if (nx < 0 || ny < 0 || nx >= width || ny >= depth) continue;
            const n = ny * width + nx;
            if (reached[n]) continue;
            reached[n] = 1;
            levels[n] = Math.max(heights[n], spill);
            heap.push(n);
        }
    }
    return levels;
}

/** A binary min-heap of vertex indices keyed by `keys[index]`, ties by index. */
class IndexHeap {
    private readonly _items: Int32Array;
    public size = 0;

    constructor(
        capacity: number,
        private readonly _keys: Int32Array
    ) {
        this._items = new Int32Array(capacity);
    }

    private _less(a: number, b: number): boolean {
        const ka = this._keys[a];
        const kb = this._keys[b];
        return ka < kb || (ka === kb && a < b);
    }

    public push(index: number): void {
        const items = this._items;
        let k = this.size++;
        while (k > 0) {
            const parent = (k - 1) >> 1;
            if (!this._less(index, items[parent])) break;
            items[k] = items[parent];
            k = parent;
        }
        items[k] = index;
    }

    public pop(): number {
        const items = this._items;
        const top = items[0];
        const last = items[--this.size];
        let k = 0;
        for (;;) {
            const left = 2 * k + 1;
            if (left >= this.size) break;
            const right = left + 1;
            const child = right < this.size && this._less(items[right], items[left]) ? right : left;
            if (!this._less(items[child], last)) break;
            items[k] = items[child];
            k = child;
        }
        items[k] = last;
        return top;
    }
}
