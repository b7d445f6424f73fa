/**
 * CPU mirror of `shaders/rivers/river_slots.wgsl`: where each vertex of a river batch sends its water
 * (`riverSlot`), worked out once a batch for every drainage-area step, sediment hop and the walk
 * down the slot forest (`riverForest.ts`).
 */
import { type BatchParams, riverRect } from "../../../core/batchParams.js";
import { expandRect } from "../../../core/patches.js";
import { INVERSE_SQRT2_Q16, riverSlot } from "../../../core/steepestDescent.js";
import { canonical, riverSlotRows } from "./riverAccumulate.js";
import type { RowRange } from "../../rowBands.js";

/**
 * Each vertex's river slot (`riverSlot`: 0..7, or -1) over `rows` of the river rectangle grown by
 * one (`riverSlotRows`; wrapping on a tileable terrain), into `slots`. Where the grown rectangle
 * covers a whole period of the torus two rows name one vertex; they write the same value.
 * On a terrain that does not wrap, each level the slots compare (never below its height) is worked
 * out once, a row ahead of the row whose slots read it, into three rows kept as the sweep goes
 * down (`SlotRows`): nine reads a vertex where reading heights and levels took eighteen, from rows
 * still in the cache (a 512² batch's slots 10 -> 3.5 ms, with `levelSlotsOfRow`).
 */
export function riverSlots(params: BatchParams, heights: Int32Array, levels: Int32Array, slots: Int32Array, rows: RowRange): void {
    const { width, depth } = params;
    const wrap = params.wrap !== 0;
    const rect = riverRect(params);
    const ring = riverSlotRows(params);
    const y0 = Math.max(ring.y0, rows.y0);
    const y1 = Math.min(ring.y1, rows.y1);
    if (wrap) {
        for (let vy = y0; vy < y1; vy++) {
            for (let vx = rect.x0 - 1; vx <= rect.x1; vx++) {
                const [x, y] = canonical(vx, vy, width, depth, true);
                slots[y * width + x] = riverSlot(heights, levels, x, y, width, depth, true);
            }
        }
        return;
    }
    if (y1 <= y0) return;
    const columns = expandRect(rect, 1, width, depth);
    const effective = new SlotRows(width, columns.x0 > 0 ? columns.x0 - 1 : 0, Math.min(columns.x1 + 1, width));
    effective.start(heights, levels, y0);
    for (let y = y0; y < y1; y++) {
        effective.advance(heights, levels, y, depth);
        const inner = y > 0 && y < depth - 1;
        // The edge columns apart, so the loop over the rest is one call a row.
        const x0 = inner ? Math.max(columns.x0, 1) : columns.x1;
        const x1 = inner ? Math.max(x0, Math.min(columns.x1, width - 1)) : columns.x1;
        for (let x = columns.x0; x < x0; x++) slots[y * width + x] = riverSlot(heights, levels, x, y, width, depth, false);
        levelSlotsOfRow(effective.above, effective.centre, effective.below, slots, y * width, x0, x1);
        for (let x = x1; x < columns.x1; x++) slots[y * width + x] = riverSlot(heights, levels, x, y, width, depth, false);
    }
}

/**
 * The levels never below the heights of three rows (above, at and below the row whose slots are
 * being worked out), each a row of the grid's columns: the sweep hands the rows up as it goes down
 * and works out only the row below.
 */
class SlotRows {
    public above: Int32Array;
    public centre: Int32Array;
    public below: Int32Array;

    constructor(
        width: number,
        private readonly _x0: number,
        private readonly _x1: number
    ) {
        this.above = new Int32Array(width);
        this.centre = new Int32Array(width);
        this.below = new Int32Array(width);
    }

    /** Before row `y0`: the rows above it and at it. */
    public start(heights: Int32Array, levels: Int32Array, y0: number): void {
        const width = this.below.length;
        if (y0 > 0) levelsOfRow(heights, levels, this.centre, (y0 - 1) * width, this._x0, this._x1);
        levelsOfRow(heights, levels, this.below, y0 * width, this._x0, this._x1);
    }

    /** Row `y`'s turn: its rows move up one, and the row below it is worked out (where there is one). */
    public advance(heights: Int32Array, levels: Int32Array, y: number, depth: number): void {
        const spare = this.above;
        this.above = this.centre;
        this.centre = this.below;
        this.below = spare;
        if (y + 1 < depth) levelsOfRow(heights, levels, spare, (y + 1) * this.below.length, this._x0, this._x1);
    }
}

/** The levels never below the heights of the columns `x0`..`x1` - 1 of the row starting at `row`, into `into` (indexed by column). */
function levelsOfRow(heights: Int32Array, levels: Int32Array, into: Int32Array, row: number, x0: number, x1: number): void {
    for (let x = x0; x < x1; x++) {
        // The higher of the two by a sign mask: which one is higher is a coin toss (fillLevels.ts's `lowerOf` says why 32 bits hold it).
        const level = levels[row + x];
        const under = level - heights[row + x];
        into[x] = level - (under & (under >> 31));
    }
}

/** INVERSE_SQRT2_Q16 / 2^16 as a double (exactly: 46341 needs 16 bits). */
const DIAGONAL_RUN = INVERSE_SQRT2_Q16 / 65536;

/**
 * `riverSlot` of the vertices `x0`..`x1` - 1 of the row starting at `row`, away from the grid's
 * edges, from the levels (never below the heights) of the row and the rows above and below it:
 * one call a row (a call a vertex, which V8 did not always inline, cost a fifth of the slots'
 * time), the eight neighbours written out in slot order (`THERMAL_DX`, `THERMAL_DY`), where a loop
 * over an offset table took a sixth longer.
 * Without branches (a fifth off a 512² batch's slots): a neighbour's candidate is its fall (a
 * diagonal's over sqrt 2) where it falls, else -1; the steepest is picked in a tournament of pairs
 * (neighbours 0 and 1, 2 and 3, ..., then the winners), each by a mask that is all ones where the
 * later of the pair is strictly steeper, so ties keep the lower slot as the plain rule's running
 * maximum does; pairs, not a running maximum, so the picks do not wait on each other (a 512²
 * batch's slots 3.7 -> 3.45 ms; 3.3 with the locals below). Levels lie in [HEIGHT_MIN_FIXED,
 * HEIGHT_MAX_FIXED], so a fall fits in 32 bits (its sign by `>> 31`), but the difference of two
 * falls may not (2^31 - 1 against -1): the mask comes from a compare, which V8 turns into a flag,
 * not a branch (test/unit/core/signMasks.test.ts). The diagonal's `mulQ16(fall, INVERSE_SQRT2_Q16)` is a double
 * product, exact (fall < 2^31 times 46341 / 2^16 has under 53 bits) and truncated, which floors it
 * where the fall is positive (elsewhere the candidate is -1 anyway).
 */
function levelSlotsOfRow(above: Int32Array, centre: Int32Array, below: Int32Array, slots: Int32Array, row: number, x0: number, x1: number): void {
    // The module's constant as a local, and each fall `| 0` (it fits in 32 bits): V8 read the
    // constant from the module's context, a double, four times a vertex, and checked every fall for
    // overflow.
    const diagonalRun = DIAGONAL_RUN;
    for (let x = x0; x < x1; x++) {
        const level = centre[x];
        let fall = (level - centre[x + 1]) | 0;
        const c0 = fall | ~((0 - fall) >> 31);
        fall = (level - centre[x - 1]) | 0;
        const c1 = fall | ~((0 - fall) >> 31);
        fall = (level - below[x]) | 0;
        const c2 = fall | ~((0 - fall) >> 31);
        fall = (level - above[x]) | 0;
        const c3 = fall | ~((0 - fall) >> 31);
        fall = (level - below[x + 1]) | 0;
        const c4 = ((fall * diagonalRun) | 0) | ~((0 - fall) >> 31);
        fall = (level - below[x - 1]) | 0;
        const c5 = ((fall * diagonalRun) | 0) | ~((0 - fall) >> 31);
        fall = (level - above[x + 1]) | 0;
        const c6 = ((fall * diagonalRun) | 0) | ~((0 - fall) >> 31);
        fall = (level - above[x - 1]) | 0;
        const c7 = ((fall * diagonalRun) | 0) | ~((0 - fall) >> 31);
        let later = -Number(c1 > c0);
        const best01 = c0 ^ ((c0 ^ c1) & later);
        const slot01 = later & 1;
        later = -Number(c3 > c2);
        const best23 = c2 ^ ((c2 ^ c3) & later);
        const slot23 = 2 | (later & 1);
        later = -Number(c5 > c4);
        const best45 = c4 ^ ((c4 ^ c5) & later);
        const slot45 = 4 | (later & 1);
        later = -Number(c7 > c6);
        const best67 = c6 ^ ((c6 ^ c7) & later);
        const slot67 = 6 | (later & 1);
        later = -Number(best23 > best01);
        const best03 = best01 ^ ((best01 ^ best23) & later);
        const slot03 = slot01 ^ ((slot01 ^ slot23) & later);
        later = -Number(best67 > best45);
        const best47 = best45 ^ ((best45 ^ best67) & later);
        const slot47 = slot45 ^ ((slot45 ^ slot67) & later);
        later = -Number(best47 > best03);
        const best = best03 ^ ((best03 ^ best47) & later);
        // No neighbour falls (best -1): no slot.
        slots[row + x] = (slot03 ^ ((slot03 ^ slot47) & later)) | (best >> 31);
    }
}
