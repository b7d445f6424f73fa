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
 *   once, from a row of arrivals its donors filled, and passes its sends into its receiver's row.
 *   A row is kept by key, hop + stack level: what passes a vertex untouched reaches its receiver,
 *   a level down, a hop later, under the same key. So a vertex that neither settles (in a basin
 *   with room left) nor sends too much (or has no receiver) only keeps what arrives at the last
 *   hop, and hands its row down whole where its receiver has none yet (where it has, the two
 *   rows are added): the hops cost nothing along a river's course, but at its basins and where
 *   rivers meet. Rows hold a power of two above routeHops integers (`arrivalRing`).
 * The counters only add integers, so their order does not matter.
 *
 * Measured on the benchmark's 512² field, one thread, a warm batch: the whole batch 100 -> 37 ms,
 * the walk 22 ms of it where the steps, erosion and hops took about 73 (bench/README.md has the
 * figures); rows handed down whole, not worked through hop by hop at every vertex: the walk
 * 24.7 -> 20.1 ms; with integer keys, the rows merged without a branch and the rooms' minima by
 * sign masks, about 16.5 ms from a new state (bench/README.md lists what was tried without a
 * gain). Trees share no vertex, so workers walk shares of them at once (`splitRoots`). A window
 * of rows (`riverWindows.ts`) is walked whole, its aprons' vertices counting apart (`countedRows`).
 * Not for a tileable terrain (its neighbours wrap): that steps. Memory: the stack, about
 * 4 x arrivalRing(routeHops) + 40 bytes a vertex of the longest river's path.
 */
import { type BatchParams, DRAINAGE_AREA_LIMIT, riverRect, ROUTE_LIMIT } from "../../../core/batchParams.js";
import { HEIGHT_MAX_FIXED, mulQ16 } from "../../../core/fixedPoint.js";
import { neighbourOffsets } from "../../../core/thermalDirections.js";
import { materialCut, vertexHardness } from "../../../core/materials.js";
import { basinRoomAt, cutOfFall, cutOfKeep, erodeVertex, settleVertex, streamKeep, upliftVertex, type RiverInputs } from "../mirror/riverErode.js";
import { inRect } from "./riverForest.js";
import { keepSuspended } from "../../fold/routeSediment.js";
import type { RowRange } from "../../rowBands.js";

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
    /** Each level's largest key (hop + level) anything arrived at; at most the level: nothing yet. */
    public lastKey = new Int32Array(0);
    /** Each level's bound on its largest arrival. */
    public bound = new Int32Array(0);
    /** Where each level's row of arrivals starts in `arrivals` (rows change hands between levels). */
    public rowOf = new Int32Array(0);
    /** The rows of arrivals, `ring` entries each, indexed by key modulo `ring`; all zero between walks. */
    public arrivals = new Int32Array(0);
    public ring = 0;
    /** `streamKeep` by area below KEEP_TABLE_AREAS (cardinal, diagonal), and the erosion it was made for. */
    public keeps = new Int32Array(0);
    public keepsErosion = -1;

    /** Makes room for `levels` levels with rows of `ring` arrivals (a power of two), keeping what the levels below hold. */
    public reserve(levels: number, ring: number): void {
        if (ring !== this.ring) {
            // Rows are all zero between walks: new ones in place, each level its own.
            this.ring = ring;
            this.arrivals = new Int32Array(this.vertices.length * ring);
            for (let level = 0; level < this.rowOf.length; level++) this.rowOf[level] = level * ring;
        }
        if (this.vertices.length >= levels) return;
        const old = this.vertices.length;
        const size = Math.max(levels, 2 * old, 1024);
        const grow = <T extends Int32Array | Uint8Array | Float64Array>(grid: T, make: (n: number) => T, scale = 1): T => {
            const next = make(size * scale);
            next.set(grid as never);
            return next;
        };
        this.vertices = grow(this.vertices, (n) => new Int32Array(n));
        this.pending = grow(this.pending, (n) => new Uint8Array(n));
        this.upstream = grow(this.upstream, (n) => new Float64Array(n));
        this.far = grow(this.far, (n) => new Float64Array(n));
        this.floor = grow(this.floor, (n) => new Int32Array(n));
        this.lastKey = grow(this.lastKey, (n) => new Int32Array(n));
        this.bound = grow(this.bound, (n) => new Int32Array(n));
        this.rowOf = grow(this.rowOf, (n) => new Int32Array(n));
        for (let level = old; level < size; level++) this.rowOf[level] = level * ring;
        this.arrivals = grow(this.arrivals, (n) => new Int32Array(n), ring);
    }
}

/** The rows' length for `hops` hops: a power of two above it, so a row holds keys level + 1 .. level + hops and the one below's level + 0. */
export function arrivalRing(hops: number): number {
    return 2 ** (32 - clz32(hops));
}

/** Areas below this take their stream-power keep from a table (the division and square root were a sixth of the walk). */
export const KEEP_TABLE_AREAS = 4096;

/** `streamKeep` of every area below KEEP_TABLE_AREAS, cardinal and diagonal, unmasked: made again when the erosion changes. */
export function keepTable(params: BatchParams, stack: RiverWalkStack): Int32Array {
    if (stack.keepsErosion !== params.riverErosion || stack.keeps.length === 0) {
        const keeps = new Int32Array(2 * KEEP_TABLE_AREAS);
        for (let area = 0; area < KEEP_TABLE_AREAS; area++) {
            keeps[2 * area] = streamKeep(params.riverErosion, area, false, null);
            keeps[2 * area + 1] = streamKeep(params.riverErosion, area, true, null);
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
    /**
     * Where only the vertices of some rows count into `counters`: those outside `rows` count into
     * `elsewhere` (a window of rows walked whole, whose aprons' counters are dropped). Absent: every
     * vertex counts into `counters`.
     */
    readonly countedRows?: { readonly rows: RowRange; readonly elsewhere: Float64Array };
}

/**
 * Runs the drainage-area steps (`steps` of them), cut, erosion, uplift, settling and all
 * `params.routeHops` hops of a river batch over the trees of `roots` (`riverRoots`: every root of
 * the river rectangle, or a worker's share of them, `splitRoots`), as `riverPhases`' phases from
 * the areas to the last hop do; the slots must be worked out for the batch first. The trees share
 * no vertex, so workers can walk shares of them at once. Each root's tree size (its vertices)
 * goes into `sizes` at the root, for the next batch's split.
 */
export function walkRiverBatch(
    params: BatchParams, stepCount: number, grids: RiverWalkGrids, stack: RiverWalkStack, roots: ArrayLike<number>, sizes: Int32Array
): void {
    // `| 0`: the step count comes from the options, whose integers can be doubles (HeapNumbers) in
    // V8 (batchParams.ts says when), and a double here made every key and level sum below floating
    // point, with conversions at every vertex.
    const steps = stepCount | 0;
    const { width, depth } = params;
    const rect = riverRect(params);
    const whole = rect.x0 === 0 && rect.y0 === 0 && rect.x1 === width && rect.y1 === depth;
    const offsets = neighbourOffsets(width);
    const { heights, levels, area, slots, suspended, delta, uplift, donors } = grids;
    const mask = grids.mask;
    const materials = params.materials !== 0 ? (grids.materials ?? null) : null;
    // The rows whose vertices count into the batch's counters (all of them but in a window), as numbers.
    const ownCounters = grids.counters;
    const countedY0 = grids.countedRows?.rows.y0 ?? 0;
    const countedY1 = grids.countedRows?.rows.y1 ?? depth;
    const elsewhere = grids.countedRows?.elsewhere ?? ownCounters;
    // Every parameter a vertex needs, read once here (riverErode.ts's `streamKeep` says why).
    const hops = params.routeHops | 0;
    const erosion = params.riverErosion;
    const capacity = params.riverCapacity;
    const upliftRate = params.riverUplift;
    const ring = arrivalRing(hops);
    const wrapKey = ring - 1;
    const keeps = mask === null ? keepTable(params, stack) : stack.keeps;
    // No uplift (the default) adds nothing anywhere, map or not.
    const lifts = upliftRate !== 0;
    stack.reserve(2, ring);
    let { vertices, pending, upstream, far, floor, lastKey, bound, rowOf, arrivals } = stack;
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
                    stack.reserve(top + 1, ring);
                    ({ vertices, pending, upstream, far, floor, lastKey, bound, rowOf, arrivals } = stack);
                }
                // pushVertex written out: V8 inlines callees into the walk up to a budget of their
                // bytecode, and this call site's share (a call at every vertex) was what left
                // others (the cut, the send) as calls in some processes and not in others.
                vertices[top] = donor;
                pending[top] = donors[donor];
                upstream[top] = 1;
                far[top] = 0;
                floor[top] = HEIGHT_MAX_FIXED;
                lastKey[top] = 0;
                bound[top] = 0;
                continue;
            }
            const vertex = vertices[top];
            const vy = (vertex / width) | 0;
            const vx = vertex - vy * width;
            const counters = vy >= countedY0 && vy < countedY1 ? ownCounters : elsewhere;
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
                // Most areas are small: their keep comes from the batch's table (unmasked only), the
                // diagonal's (slots FIRST_DIAGONAL_SLOT = 4 to 7) at odd entries.
                const vertexArea = area[vertex];
                if (mask === null && vertexArea < KEEP_TABLE_AREAS) cut = cutOfKeep(fall, keeps[(vertexArea << 1) | (slot >> 2)]);
                else cut = cutOfFall(erosion, area, mask, vertex, slot, fall);
                if (materials !== null) cut = materialCut(cut, materials.soil[vertex], vertexHardness(params, heights, materials, vertex, vx, vy));
            }
            // A basin vertex's room serves its erosion and every hop (heights and levels do not
            // change meanwhile), worked out where it has sediment to settle: what waits there, or
            // what arrived from its donors (about half of them). One call site: V8 inlines it once.
            const own = rowOf[top];
            let last = lastKey[top];
            const room = settles && (suspended[vertex] > 0 || last > top) ? basinRoomAt(heights, levels, vx, vy, width, depth) : -1;
            const load = erodeVertex(
                params, capacity, heights, levels, area, mask, vertex, vx, vy, settles, slot, cut, floor[top], fall, room, delta, suspended
            );
            if (lifts && vx > 0 && vy > 0 && vx < width - 1 && vy < depth - 1) upliftVertex(upliftRate, heights, delta, uplift, counters, vertex);
            // settleVertex's rule written out where the vertex has a receiver (pushVertex says why).
            let send = 0;
            if (load > 0) {
                if (slot >= 0) {
                    send = min(load, ROUTE_LIMIT);
                    if (load > send) keepSuspended(suspended, vertex, load - send, counters);
                } else {
                    settleVertex(params, slot, suspended, counters, load, vertex, vx, vy);
                }
            }
            // The hops, from the row the donors filled, kept by key (hop + level: see above).
            const lastHop = top + hops;
            let most = bound[top];
            if (last > top) {
                if ((settles && room - delta[vertex] > 0) || slot < 0 || most > ROUTE_LIMIT) {
                    // A basin settles what arrives, hop by hop, as far as its room goes; a sink
                    // keeps everything; and a send is at most ROUTE_LIMIT.
                    last = sendInOrder(
                        arrivals, own, wrapKey, top, last, lastHop, settles ? room : -1, slot >= 0, bound, vertex, delta, mask, suspended, counters
                    );
                    most = bound[top];
                } else if (last === lastHop) {
                    keepLastHop(arrivals, own + (last & wrapKey), vertex, suspended, counters);
                }
                if (last === lastHop) last--;
            }
            if (top > 0) {
                const below = top - 1;
                if (last > top) {
                    if (lastKey[below] <= below) {
                        // Nothing reached the receiver yet: it takes this row, and this level its empty one.
                        rowOf[top] = rowOf[below];
                        rowOf[below] = own;
                        lastKey[below] = last;
                        bound[below] = most;
                    } else {
                        bound[below] = addRow(arrivals, own, rowOf[below], wrapKey, top + 1, last, bound[below]);
                        if (last > lastKey[below]) lastKey[below] = last;
                    }
                }
                if (send > 0) {
                    // The vertex's own send reaches the receiver at hop 1: key top.
                    const at = rowOf[below] + (top & wrapKey);
                    const total = arrivals[at] + send;
                    arrivals[at] = total;
                    if (total > bound[below]) bound[below] = total;
                    if (top > lastKey[below]) lastKey[below] = top;
                }
            } else if (last > top) {
                // A root's sends leave the rectangle.
                arrivals.fill(0, own, own + ring);
            }
            if (--top >= 0) {
                // The receiver also takes the full upstream sum and the cut floor.
                upstream[top] += full;
                const cutHeight = height - cut;
                if (cutHeight < floor[top]) floor[top] = cutHeight;
            }
        }
        sizes[root] = walked;
    }
}

/**
 * The hops of vertex `vertex` at stack level `level` in order, over the keys level + 1 .. `last`
 * of its row at `own`: a basin vertex settles each arrival as far as its room (`room`, -1 for
 * none) less what it gained so far allows (times the mask); what is left goes on, at most
 * ROUTE_LIMIT, before the last hop (`lastHop`) where the vertex `sends`; the rest stays. Leaves in the row what goes on, with a
 * bound on it in `bound` at `level` (which bounded what arrived), and returns the last key it
 * left anything at. Once the room is used up, and every arrival can go on as it is, only the last
 * hop is left to do.
 */
function sendInOrder(
    arrivals: Int32Array, own: number, wrapKey: number, level: number, last: number, lastHop: number, room: number, sends: boolean, bound: Int32Array,
    vertex: number, delta: Int32Array, mask: Int32Array | null, suspended: Int32Array, counters: Float64Array
): number {
    const most = bound[level];
    const passes = sends && most <= ROUTE_LIMIT;
    let sentMost = 0;
    let sentLast = level;
    for (let key = level + 1; key <= last; key++) {
        const at = own + (key & wrapKey);
        let amount = arrivals[at];
        if (amount === 0) continue;
        if (room >= 0) {
            const left = room - delta[vertex];
            if (left <= 0 && passes) {
                // Nothing more settles and the rest passes as it is, but for the last hop.
                if (last === lastHop) keepLastHop(arrivals, own + (last & wrapKey), vertex, suspended, counters);
                bound[level] = max(sentMost, most);
                return last;
            }
            let settled = min(amount, max(left, 0));
            if (mask !== null) settled = mulQ16(settled, mask[vertex]);
            delta[vertex] += settled;
            amount -= settled;
        }
        let sent = 0;
        if (key < lastHop && amount > 0 && sends) {
            sent = min(amount, ROUTE_LIMIT);
            amount -= sent;
            if (sent > sentMost) sentMost = sent;
            sentLast = key;
        }
        arrivals[at] = sent;
        if (amount > 0) keepSuspended(suspended, vertex, amount, counters);
    }
    bound[level] = sentMost;
    return sentLast;
}

/** What arrives at vertex `vertex` at the last hop (the row's entry `at`) stays there. */
function keepLastHop(arrivals: Int32Array, at: number, vertex: number, suspended: Int32Array, counters: Float64Array): void {
    if (arrivals[at] > 0) keepSuspended(suspended, vertex, arrivals[at], counters);
    arrivals[at] = 0;
}

/**
 * Adds the keys `first`..`last` of the row at `from` into the row at `into` (clearing them at
 * `from`); returns `most` or the largest sum, whichever is larger.
 */
function addRow(arrivals: Int32Array, from: number, into: number, wrapKey: number, first: number, last: number, most: number): number {
    for (let key = first; key <= last; key++) {
        // Every key, zero or not, and the largest by a sign mask: whether a key holds anything is
        // a coin toss the processor mispredicts (the walk at 512² about 0.7 ms less). Amounts are
        // not negative, and a key's sum is at most 8 sends of ROUTE_LIMIT (`keepSuspended`), so
        // the difference fits in 32 bits.
        const wrapped = key & wrapKey;
        const amount = arrivals[from + wrapped];
        arrivals[from + wrapped] = 0;
        const total = arrivals[into + wrapped] + amount;
        arrivals[into + wrapped] = total;
        most -= (most - total) & ((most - total) >> 31);
    }
    return most;
}

/**
 * Puts root i on level `top` with its donors (`riverDonors`), its sums and row empty (the walk
 * pushes donors with these lines written out). Not a closure: one over the walk's stack arrays
 * kept them in a context object the whole walk read through (the walk: about half again slower).
 */
function pushVertex(stack: RiverWalkStack, top: number, i: number, donors: Uint8Array): void {
    stack.vertices[top] = i;
    stack.pending[top] = donors[i];
    stack.upstream[top] = 1;
    stack.far[top] = 0;
    stack.floor[top] = HEIGHT_MAX_FIXED;
    stack.lastKey[top] = 0;
    stack.bound[top] = 0;
}
