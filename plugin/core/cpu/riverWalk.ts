/**
 * A river batch's drainage-area steps, erosion, uplift, settling and sediment hops on one thread,
 * in one walk down the slot forest instead of pass after pass over the grid: the integers of the
 * phases `riverPhases` steps (`riverAccumulate.ts`, `riverErode.ts`, `riverRoute.ts`), in far
 * fewer visits.
 *
 * Every vertex has at most one receiver (its river slot) and every slot falls strictly, so the
 * slots form a forest whose roots are the vertices with no receiver in the river rectangle. A
 * depth-first walk from each root finishes every vertex after all of its donors, with the path
 * from the root on its stack. Everything a vertex's phases read besides its own cells comes from
 * its donors (areas, cuts, sends) or does not change during them (heights, levels, slots), so each
 * vertex runs all of its phases when it finishes:
 *
 * - Drainage area: after S steps from areas A0, with b(v) = 1 plus the areas of v's donors outside
 *   the rectangle (never stepped, so the same every step),
 *   A_S(v) = sum over u up to S - 1 hops upstream of b(u) + sum over u exactly S hops up of A0(u),
 *   and the full upstream sum F(v) = sum over all u upstream of b(u) splits the same way (every
 *   vertex further up passes through exactly one vertex S hops up), so
 *   A_S(v) = F(v) + sum over u exactly S hops up of (A0(u) - F(u)):
 *   u adds its term to the ancestor S places down the stack when it finishes. The steps saturate
 *   at DRAINAGE_AREA_LIMIT after every addition; every term is non-negative, so saturating once
 *   at the end gives the same integer. The sums stay exact in doubles (far below 2^53).
 * - Cut and erosion (`riverErosionAt`, `erodeVertex`): the vertex's own area and its donors' cuts
 *   (their lowest height less cut, gathered as they finish), then uplift and settling.
 * - Sediment: each hop a vertex receives what its donors sent the hop before, settles, sends at
 *   most ROUTE_LIMIT on and keeps the rest (`riverHop`'s rule); what it does at hop h depends only
 *   on what reached it at hops 1..h and on its own cells, so it works through all its hops at
 *   once, from a row of arrivals by hop that its donors filled, and adds its sends into its
 *   receiver's row (routeHops + 1 integers a stack level, read only as far as anything arrived).
 * The counters only add integers, so their order does not matter.
 *
 * Measured on the benchmark's 512² field, one thread, a warm batch: the whole batch 100 -> 37 ms,
 * the walk 22 ms of it where the steps, erosion and hops took about 73 (bench/README.md has the
 * figures). Trees share no vertex, so workers walk shares of them at once (`splitRoots`). Not for a
 * tileable terrain (its neighbours wrap) nor for the bake's windows of rows (a tree crosses
 * them): those step. Memory: the stack, about 4 x routeHops + 32 bytes a vertex of the longest
 * river's path.
 */
import { ROUTE_LIMIT, type BatchParams } from "../batchParams.js";
import { HEIGHT_MAX_FIXED, mulQ16 } from "../fixedPoint.js";
import { FIRST_DIAGONAL_SLOT, neighbourOffsets, OPPOSITE_SLOT, THERMAL_DX, THERMAL_DY } from "../thermalDirections.js";
import { DRAINAGE_AREA_LIMIT, riverRect } from "./riverAccumulate.js";
import { basinRoomAt, cutOfFall, cutOfKeep, erodeVertex, settleVertex, streamKeep, upliftVertex, type RiverInputs } from "./riverErode.js";
import { keepSuspended } from "./routeSediment.js";
import { expandRect, type GridRect } from "../patches.js";
import type { RowRange } from "./rowBands.js";

const { clz32, max, min } = Math;

/** The walk's stack, kept from batch to batch and grown as the rivers lengthen: one entry a vertex of the path from the root. */
export class RiverWalkStack {
    /** Each level's vertex. */
    public vertices = new Int32Array(0);
    /** Each level's donors in the rectangle not yet walked (bit k: neighbour k). */
    public pending = new Uint8Array(0);
    /** Each level's b plus its walked donors' full upstream sums F. */
    public upstream = new Float64Array(0);
    /** Each level's sum of (A0 - F) over the vertices exactly S hops up. */
    public far = new Float64Array(0);
    /** Each level's lowest donor height less the donor's cut (HEIGHT_MAX_FIXED: none yet). */
    public floor = new Int32Array(0);
    /** Each level's last hop anything arrived at. */
    public reach = new Int32Array(0);
    /** Each level's arrivals by hop (`rowWidth` a level). */
    public arrivals = new Int32Array(0);
    public rowWidth = 0;
    /** `streamKeep` by area below KEEP_TABLE_AREAS (cardinal, diagonal), and the erosion it was made for. */
    public keeps = new Int32Array(0);
    public keepsErosion = -1;

    /** Makes room for `levels` levels with rows of `rowWidth` arrivals, keeping what the levels below hold. */
    public reserve(levels: number, rowWidth: number): void {
        if (rowWidth !== this.rowWidth) {
            this.rowWidth = rowWidth;
            this.arrivals = new Int32Array(this.vertices.length * rowWidth);
        }
        if (this.vertices.length >= levels) return;
        const size = Math.max(levels, 2 * this.vertices.length, 1024);
        const grow = <T extends Int32Array | Uint8Array | Float64Array>(old: T, make: (n: number) => T, scale = 1): T => {
            const next = make(size * scale);
            next.set(old as never);
            return next;
        };
        this.vertices = grow(this.vertices, (n) => new Int32Array(n));
        this.pending = grow(this.pending, (n) => new Uint8Array(n));
        this.upstream = grow(this.upstream, (n) => new Float64Array(n));
        this.far = grow(this.far, (n) => new Float64Array(n));
        this.floor = grow(this.floor, (n) => new Int32Array(n));
        this.reach = grow(this.reach, (n) => new Int32Array(n));
        this.arrivals = grow(this.arrivals, (n) => new Int32Array(n), rowWidth);
    }
}

/** Areas below this take their stream-power keep from a table (the division and square root were a sixth of the walk). */
export const KEEP_TABLE_AREAS = 4096;

/** `streamKeep` of every area below KEEP_TABLE_AREAS, cardinal and diagonal, unmasked: made again when the erosion changes. */
function keepTable(params: BatchParams, stack: RiverWalkStack): Int32Array {
    if (stack.keepsErosion !== params.riverErosion || stack.keeps.length === 0) {
        const keeps = new Int32Array(2 * KEEP_TABLE_AREAS);
        for (let area = 0; area < KEEP_TABLE_AREAS; area++) {
            keeps[2 * area] = streamKeep(params, area, false, null);
            keeps[2 * area + 1] = streamKeep(params, area, true, null);
        }
        stack.keeps = keeps;
        stack.keepsErosion = params.riverErosion;
    }
    return stack.keeps;
}

/** What the walk reads and writes besides its stack. */
export interface RiverWalkGrids extends RiverInputs {
    readonly suspended: Int32Array;
    /** The batch's change to each vertex (the river scratch's delta, all zero before). */
    readonly delta: Int32Array;
    /** The uplift map (Q16 per vertex), or null. */
    readonly uplift: Int32Array | null;
    readonly counters: Float64Array;
    /** Each vertex's donors (`riverDonors`). */
    readonly donors: Uint8Array;
}

/**
 * Runs the drainage-area steps (`steps` of them), cut, erosion, uplift, settling and all
 * `params.routeHops` hops of a river batch over the trees of `roots` (`riverRoots`: every root of
 * the river rectangle, or a worker's share of them, `splitRoots`), as `riverPhases`' phases from
 * the areas to the last hop do; the slots must be worked out for the batch first. The trees share
 * no vertex, so workers can walk shares of them at once. Each root's tree size (its vertices)
 * goes into `sizes` at the root, for the next batch's split.
 */
export function walkRiverBatch(params: BatchParams, steps: number, grids: RiverWalkGrids, stack: RiverWalkStack, roots: ArrayLike<number>, sizes: Int32Array): void {
    const { width, depth } = params;
    const rect = riverRect(params);
    const whole = rect.x0 === 0 && rect.y0 === 0 && rect.x1 === width && rect.y1 === depth;
    const offsets = neighbourOffsets(width);
    const { heights, levels, area, slots, suspended, delta, uplift, counters, donors } = grids;
    const mask = grids.mask;
    const hops = params.routeHops;
    const row = hops + 1;
    const keeps = mask === null ? keepTable(params, stack) : stack.keeps;
    // No uplift (the default) adds nothing anywhere, map or not.
    const lifts = params.riverUplift !== 0;
    stack.reserve(2, row);
    let { vertices, pending, upstream, far, floor, reach, arrivals } = stack;
    for (let n = 0; n < roots.length; n++) {
        const root = roots[n];
        pushVertex(stack, 0, root, donors);
        let walked = 0;
        let top = 0;
        while (top >= 0) {
            const bits = pending[top];
            if (bits !== 0) {
                pending[top] = bits & (bits - 1);
                const k = 31 - clz32(bits & -bits);
                const donor = vertices[top] + offsets[k];
                if (!whole && !inRect(rect, donor - ((donor / width) | 0) * width, (donor / width) | 0)) {
                    // Outside the rectangle: never stepped, never cut, never sends.
                    upstream[top] += area[donor];
                    if (heights[donor] < floor[top]) floor[top] = heights[donor];
                    continue;
                }
                if (++top === vertices.length) {
                    stack.reserve(top + 1, row);
                    ({ vertices, pending, upstream, far, floor, reach, arrivals } = stack);
                }
                pushVertex(stack, top, donor, donors);
                continue;
            }
            const vertex = vertices[top];
            const vy = (vertex / width) | 0;
            const vx = vertex - vy * width;
            walked++;
            // Drainage area.
            const full = upstream[top];
            if (steps > 0) {
                const before = area[vertex];
                const stepped = full + far[top];
                area[vertex] = stepped > DRAINAGE_AREA_LIMIT ? DRAINAGE_AREA_LIMIT : stepped;
                if (top >= steps) far[top - steps] += before - full;
            }
            // Cut, erosion, uplift, settling: hop 0's send.
            const slot = slots[vertex];
            const height = heights[vertex];
            // Away from a wrapping seam the receiver is an offset away.
            const fall = slot < 0 ? 0 : height - heights[vertex + offsets[slot]];
            const settles = levels[vertex] > height;
            let cut = 0;
            if (!settles && slot >= 0 && fall > 0) {
                // Most areas are small: their keep comes from the batch's table (unmasked only).
                const vertexArea = area[vertex];
                if (mask === null && vertexArea < KEEP_TABLE_AREAS) cut = cutOfKeep(fall, keeps[(vertexArea << 1) | (slot >= FIRST_DIAGONAL_SLOT ? 1 : 0)]);
                else cut = cutOfFall(params, grids, vertex, slot, fall);
            }
            // A basin vertex's room serves its erosion and every hop (heights and levels do not
            // change meanwhile), worked out once it has sediment to settle: about half of them do.
            let room = settles && suspended[vertex] > 0 ? basinRoomAt(params, heights, levels, vx, vy) : -1;
            const load = erodeVertex(params, grids, vx, vy, cut, floor[top], fall, room, delta, suspended);
            if (lifts && vx > 0 && vy > 0 && vx < width - 1 && vy < depth - 1) upliftVertex(params, heights, delta, uplift, counters, vertex);
            const send = load > 0 ? settleVertex(params, slot, suspended, counters, load, vx, vy) : 0;
            // The hops, in order, from the row of arrivals the donors filled (cleared as read);
            // the receiver, the level below, gets each hop's send at the next hop.
            const own = top * row;
            const into = (top - 1) * row + 1;
            const receives = top > 0;
            let reached = 0;
            if (receives && send > 0) {
                arrivals[into] += send;
                reached = 1;
            }
            const last = reach[top];
            if (last > 0) {
                const canSend = slot >= 0;
                for (let hop = 1; hop <= last; hop++) {
                    let amount = arrivals[own + hop];
                    if (amount === 0) continue;
                    arrivals[own + hop] = 0;
                    if (settles) {
                        if (room < 0) room = basinRoomAt(params, heights, levels, vx, vy);
                        let settled = min(amount, max(room - delta[vertex], 0));
                        if (mask !== null) settled = mulQ16(settled, mask[vertex]);
                        delta[vertex] += settled;
                        amount -= settled;
                    }
                    if (hop < hops && amount > 0 && canSend) {
                        const sent = min(amount, ROUTE_LIMIT);
                        amount -= sent;
                        if (receives) {
                            arrivals[into + hop] += sent;
                            reached = hop + 1;
                        }
                    }
                    if (amount > 0) keepSuspended(suspended, vertex, amount, counters);
                }
            }
            if (--top >= 0) {
                // The receiver also takes the full upstream sum and the cut floor.
                upstream[top] += full;
                const cutHeight = height - cut;
                if (cutHeight < floor[top]) floor[top] = cutHeight;
                if (reached > reach[top]) reach[top] = reached;
            }
        }
        sizes[root] = walked;
    }
}

/**
 * Each river-rectangle vertex's donors in `rows` (bit k: neighbour k's slot points here), one
 * byte a vertex of `donors`, found by going over the slots of the rows and the rows next to them
 * and marking each receiver in `rows`: so bands of rows never write each other's bytes. One byte
 * a vertex the walk reads where it read eight slots (the walk at 512²: 41 -> 35 ms).
 */
export function riverDonors(params: BatchParams, slots: Int32Array, donors: Uint8Array, rows: RowRange): void {
    const { width, depth } = params;
    const rect = riverRect(params);
    const offsets = neighbourOffsets(width);
    const y0 = Math.max(rect.y0, rows.y0);
    const y1 = Math.min(rect.y1, rows.y1);
    if (y1 <= y0) return;
    for (let y = y0; y < y1; y++) donors.fill(0, y * width + rect.x0, y * width + rect.x1);
    const from = expandRect({ x0: rect.x0, y0, x1: rect.x1, y1 }, 1, width, depth);
    const whole = rect.x0 === 0 && rect.x1 === width;
    for (let y = from.y0; y < from.y1; y++) {
        for (let x = from.x0, i = y * width + x; x < from.x1; x++, i++) {
            const slot = slots[i];
            if (slot < 0) continue;
            const ry = y + THERMAL_DY[slot];
            if (ry < y0 || ry >= y1) continue;
            if (!whole) {
                const rx = x + THERMAL_DX[slot];
                if (rx < rect.x0 || rx >= rect.x1) continue;
            }
            donors[i + offsets[slot]] |= 1 << OPPOSITE_SLOT[slot];
        }
    }
}

/** The first bytes of a grid of `cells` vertices as one byte a vertex (the donors' grid lives in the erosion scratch during a walk). */
export function byteView(grid: Int32Array, cells: number): Uint8Array {
    return new Uint8Array(grid.buffer, grid.byteOffset, cells);
}

/** A list of vertices, kept from batch to batch. */
export class VertexList {
    public cells = new Int32Array(0);
    public count = 0;

    /** The listed vertices. */
    public get list(): Int32Array {
        return this.cells.subarray(0, this.count);
    }

    public add(i: number): void {
        if (this.count === this.cells.length) {
            const cells = new Int32Array(Math.max(256, 2 * this.count));
            cells.set(this.cells);
            this.cells = cells;
        }
        this.cells[this.count++] = i;
    }
}

/** The roots of a river batch's slot forest, in row order: the river rectangle's vertices with no receiver in it. */
export function riverRoots(params: BatchParams, slots: Int32Array, into: VertexList): Int32Array {
    const { width, depth } = params;
    const rect = riverRect(params);
    const whole = rect.x0 === 0 && rect.y0 === 0 && rect.x1 === width && rect.y1 === depth;
    into.count = 0;
    for (let y = rect.y0; y < rect.y1; y++) {
        for (let x = rect.x0, i = y * width + x; x < rect.x1; x++, i++) {
            const slot = slots[i];
            if (slot < 0 || (!whole && !inRect(rect, x + THERMAL_DX[slot], y + THERMAL_DY[slot]))) into.add(i);
        }
    }
    return into.list;
}

/**
 * `roots` split into `parts` shares of about equal work: each tree, largest first (by `sizes` at
 * its root, from the last batch's walk; at least 1), to the share with the fewest vertices so far
 * (the lowest share on a tie). Any split gives the same integers; this one only balances.
 */
export function splitRoots(roots: Int32Array, sizes: Int32Array, parts: number, cells: number): Int32Array[] {
    const order = Array.from(roots, (root) => ({ root, size: Math.min(Math.max(sizes[root], 1), cells) }));
    order.sort((a, b) => b.size - a.size || a.root - b.root);
    const loads = new Array<number>(parts).fill(0);
    const shares: number[][] = Array.from({ length: parts }, () => []);
    for (const { root, size } of order) {
        let lightest = 0;
        for (let part = 1; part < parts; part++) if (loads[part] < loads[lightest]) lightest = part;
        loads[lightest] += size;
        shares[lightest].push(root);
    }
    return shares.map((share) => Int32Array.from(share));
}

/**
 * Puts vertex i on level `top` with its donors (`riverDonors`), its sums and row empty.
 * A function of its own, not a closure: a closure over the walk's stack arrays kept them in a
 * context object the whole walk read through (the walk at 512²: about half again slower).
 */
function pushVertex(stack: RiverWalkStack, top: number, i: number, donors: Uint8Array): void {
    stack.vertices[top] = i;
    stack.pending[top] = donors[i];
    stack.upstream[top] = 1;
    stack.far[top] = 0;
    stack.floor[top] = HEIGHT_MAX_FIXED;
    stack.reach[top] = 0;
}

function inRect(rect: GridRect, x: number, y: number): boolean {
    return x >= rect.x0 && x < rect.x1 && y >= rect.y0 && y < rect.y1;
}
