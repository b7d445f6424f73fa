/**
 * The hops of a river batch's sediment (the WGSL's route_sediment and route_sediment_last over the
 * river rectangle), as gathers: each vertex adds what its donors sent (the neighbours whose river
 * slot points at it, `DonorLists`), so a hop writes only its own rows and a batch can be split
 * into bands. The rule is `routeSediment`'s, which scatters from the vertices that hold sediment
 * and adds the same integers: a vertex holding sediment sends it along its sediment slot, which is
 * its river slot (the same rule over the same heights and levels, unchanged while sediment hops).
 */
import { ACCUMULATOR_LIMIT, type BatchParams, riverRect, ROUTE_LIMIT } from "../../../core/batchParams.js";
import { mulQ16 } from "../../../core/fixedPoint.js";
import { fillRoom, neighbourBounds } from "../../../core/settling.js";
import { neighbourOffsets } from "../../../core/thermalDirections.js";
import { donorSum, type DonorLists } from "./riverAccumulate.js";
import { frontierCapacity, frontierCells, type ChangedCells, type FrontierScope } from "./riverFrontier.js";
import type { GridRect } from "../../../core/patches.js";
import { keepSuspended } from "../../fold/routeSediment.js";
import type { RowRange } from "../../rowBands.js";

const { max, min } = Math;

/** What a river batch's hops read and write besides the donors. */
export interface RiverRouteGrids {
    readonly heights: Int32Array;
    readonly levels: Int32Array;
    readonly slots: Int32Array;
    readonly delta: Int32Array;
    readonly suspended: Int32Array;
    /** Each basin vertex's room (`fillRoom`), written by hop 1 for the listed rows and read by the later hops. */
    readonly room: Int32Array;
}

/** The lists a hop reads and writes: who sent in the hop before (`previous`) and the one before that (`older`), and who sends in this one. */
export interface HopFrontier {
    readonly previous: ChangedCells;
    readonly older: ChangedCells;
    readonly senders: ChangedCells;
    readonly scope: Pick<FrontierScope, "params" | "slots" | "marks" | "visits" | "share">;
}

/**
 * Hop `hop` (1..routeHops) over the listed rows: each vertex receives its donors' `from`, settles
 * what a basin's room allows (less what the batch already changed it by, scaled by the rivers
 * `mask`), sends at most ROUTE_LIMIT on along its slot into `to` unless this is the last hop, and
 * keeps the rest in `suspended`. Leaves every listed vertex's `to` as it sends, so the two buffers
 * can alternate. The vertices that send go into `frontier.senders`. From the second hop, where the
 * hop before listed all of its senders, only their receivers and the band's edge rows are worked
 * out (`frontierCells`; nothing reaches any other vertex) and `to` is cleared where it held the
 * sends of two hops before.
 */
export function riverHop(
    params: BatchParams, hop: number, grids: RiverRouteGrids, lists: DonorLists, from: Int32Array, to: Int32Array, mask: Int32Array | null,
    counters: Float64Array, frontier: HopFrontier
): void {
    const { width } = params;
    const wrap = params.wrap !== 0;
    const rect = riverRect(params);
    const { y0, y1 } = lists.rows;
    const { previous, older, senders } = frontier;
    const rule = new HopRule(params, hop, grids, lists, from, mask, counters);
    senders.begin(frontierCapacity(rect, lists.rows, frontier.scope.share));
    // Each basin vertex's room is worked out once a batch, when sediment first reaches it.
    if (hop === 1) rule.forgetRooms(rect, lists.rows);
    if (hop >= 2 && previous.complete) {
        // `to` holds the sends of two hops before: cleared where they were listed, else row by row (a fill is far quicker than a dense hop).
        if (older.complete) for (let n = 0, cells = older.cells; n < older.count; n++) to[cells[n]] = 0;
        else for (let y = y0; y < y1; y++) to.fill(0, y * width + rect.x0, y * width + rect.x1);
        const visits = frontierCells({ ...frontier.scope, rect, rows: lists.rows }, previous, false);
        for (let n = 0, count = visits.count, cells = visits.cells; n < count; n++) {
            const i = cells[n];
            // Only a tileable terrain's donors need the coordinates (neighbourAt wraps them).
            const y = wrap ? (i / width) | 0 : 0;
            const sent = rule.at(i, i - y * width, y);
            to[i] = sent;
            if (sent > 0) senders.add(i);
        }
        return;
    }
    for (let y = y0; y < y1; y++) {
        for (let x = rect.x0, i = y * width + rect.x0; x < rect.x1; x++, i++) {
            const sent = rule.at(i, x, y);
            to[i] = sent;
            if (sent > 0) senders.add(i);
        }
    }
}

/** One hop's rule at one vertex, with everything it reads held in fields: one rule for the dense and the sparse loop. */
class HopRule {
    private readonly _room: Int32Array;
    private readonly _heights: Int32Array;
    private readonly _levels: Int32Array;
    private readonly _slots: Int32Array;
    private readonly _delta: Int32Array;
    private readonly _suspended: Int32Array;
    private readonly _donorBits: Uint8Array;
    private readonly _base: number;
    private readonly _offsets: Int32Array;
    private readonly _wrap: boolean;
    private readonly _passOn: boolean;

    constructor(
        private readonly _params: BatchParams,
        hop: number,
        grids: RiverRouteGrids,
        lists: DonorLists,
        private readonly _from: Int32Array,
        private readonly _mask: Int32Array | null,
        private readonly _counters: Float64Array
    ) {
        this._room = grids.room;
        this._heights = grids.heights;
        this._levels = grids.levels;
        this._slots = grids.slots;
        this._delta = grids.delta;
        this._suspended = grids.suspended;
        this._donorBits = lists.mask;
        this._base = lists.base;
        this._offsets = neighbourOffsets(_params.width);
        this._wrap = _params.wrap !== 0;
        this._passOn = hop < _params.routeHops;
    }

    /**
     * Marks every room in the listed rows not yet worked out (-1; a room is never negative), before
     * the first hop. A basin vertex's room depends on heights and levels only, which do not change
     * while sediment hops, so `pass` works it out the first time sediment reaches the vertex and
     * keeps it: most basin vertices never receive any (a warm 512² batch: 6 ms of rooms -> 1 ms).
     */
    public forgetRooms(rect: GridRect, rows: RowRange): void {
        const width = this._params.width;
        for (let y = rows.y0; y < rows.y1; y++) this._room.fill(-1, y * width + rect.x0, y * width + rect.x1);
    }

    /** Basin vertex i's room (`fillRoom`). */
    private _basinRoom(i: number): number {
        const { width, depth } = this._params;
        const y = (i / width) | 0;
        const heights = this._heights;
        const levels = this._levels;
        const { lowest, lowestHigher, lowestHigherLevel } = neighbourBounds(heights, levels, i - y * width, y, width, depth);
        return fillRoom(heights[i], levels[i], lowest, lowestHigher, lowestHigherLevel);
    }

    /** What vertex i (at x, y) sends on this hop; settles and keeps the rest. Small enough for V8 to inline into both loops. */
    public at(i: number, x: number, y: number): number {
        const bits = this._donorBits[i - this._base];
        if (bits === 0) return 0;
        // At most 8 sends of ROUTE_LIMIT: below the limit, so the sum never saturates.
        const amount = donorSum(this._from, bits, i, x, y, this._params, this._offsets, 0, ACCUMULATOR_LIMIT);
        return amount > 0 ? this._pass(i, amount) : 0;
    }

    /** Settles what a basin vertex's room allows of `amount` (> 0), sends at most ROUTE_LIMIT on, keeps the rest; returns what it sends. */
    private _pass(i: number, amount: number): number {
        if (!this._wrap && this._levels[i] > this._heights[i]) {
            let room = this._room[i];
            if (room < 0) this._room[i] = room = this._basinRoom(i);
            let settled = min(amount, max(room - this._delta[i], 0));
            if (this._mask !== null) settled = mulQ16(settled, this._mask[i]);
            this._delta[i] += settled;
            amount -= settled;
        }
        let sent = 0;
        if (this._passOn && amount > 0 && this._slots[i] >= 0) {
            sent = min(amount, ROUTE_LIMIT);
            amount -= sent;
        }
        if (amount > 0) keepSuspended(this._suspended, i, amount, this._counters);
        return sent;
    }
}
