/**
 * The river walk (`riverWalk.ts`) in AssemblyScript, compiled to WebAssembly by
 * `scripts/build-wasm.mjs`: the same integers, rule for rule and in the same order, as the
 * TypeScript walk, which stays the reference, the fallback where WebAssembly cannot run, and the
 * place whose comments say why each rule is there. Tests compare the two on every path (masks,
 * uplift, windows, rectangles, a stack that grows).
 *
 * Why a second copy: the TypeScript walk costs about 1160 instructions a vertex under V8, most of
 * it the checks V8 puts around every typed-array access (map, length, backing pointer); here an
 * access is one load off the linear memory (bench/README.md has the figures). The rules it shares
 * with other TypeScript modules are in `riverRules.as.ts`. The glue (`riverWalkWasm.ts`) copies
 * the grids' rows in, and the walked vertices' cells back.
 *
 * Memory: a control block of 32-bit words at address 0 (the `C_` constants: the glue writes the
 * same indices), the glue's grids from `--memoryBase` on, the stack last. Grid pointers are
 * biased so a vertex's grid index addresses its cell. Wasm arithmetic wraps at 32 bits as
 * `| 0` and `Math.imul` do, and f64 is IEEE double as in JavaScript, so every rule gives the same
 * integer.
 */

import {
    ACCUMULATOR_LIMIT, COUNTER_OUTFLOW, COUNTER_UPLIFT_ADDED, DRAINAGE_AREA_LIMIT, FIRST_DIAGONAL_SLOT, HEIGHT_MAX_FIXED, INVERSE_SQRT2_Q16, KEEP_TABLE_AREAS,
    ROUTE_LIMIT, addF64, basinRoomAt, cutOfKeep, getF64, getI32, getU8, keepSuspended, maxI32, minI32, mulQ16, mulQ16Sat, overCapacity, setF64, setI32, setU8,
    streamKeep,
} from "./riverRules.as";
import { materialCut } from "../../materials.as";

// The control block's words (`riverWalkWasm.ts` writes them).
const C_HEIGHTS: i32 = 0;
const C_LEVELS: i32 = 1;
const C_AREA: i32 = 2;
const C_SLOTS: i32 = 3;
const C_MASK: i32 = 4;
const C_SUSPENDED: i32 = 5;
const C_DELTA: i32 = 6;
const C_UPLIFT: i32 = 7;
const C_DONORS: i32 = 8;
const C_COUNTERS: i32 = 9;
const C_ELSEWHERE: i32 = 10;
const C_KEEPS: i32 = 11;
const C_OFFSETS: i32 = 12;
const C_ROOTS: i32 = 13;
const C_ROOT_COUNT: i32 = 14;
const C_SIZES: i32 = 15;
const C_MARKS: i32 = 16;
const C_STEPS: i32 = 17;
const C_WIDTH: i32 = 18;
const C_DEPTH: i32 = 19;
const C_X0: i32 = 20;
const C_Y0: i32 = 21;
const C_X1: i32 = 22;
const C_Y1: i32 = 23;
const C_COUNTED_Y0: i32 = 24;
const C_COUNTED_Y1: i32 = 25;
const C_HOPS: i32 = 26;
const C_EROSION: i32 = 27;
const C_CAPACITY: i32 = 28;
const C_UPLIFT_RATE: i32 = 29;
const C_DEPOSITION: i32 = 30;
const C_STACK: i32 = 31;
const C_STACK_LEVELS: i32 = 32;
const C_RING: i32 = 33;
const C_NEXT_ROOT: i32 = 34;
const C_RESUME_TOP: i32 = 35;
const C_RESUME_WALKED: i32 = 36;
const C_WALKED: i32 = 37;
const C_STACK_UPSTREAM: i32 = 38;
const C_STACK_FAR: i32 = 39;
const C_STACK_FLOOR: i32 = 40;
const C_STACK_LAST_KEY: i32 = 41;
const C_STACK_BOUND: i32 = 42;
const C_STACK_ROW_OF: i32 = 43;
const C_STACK_PENDING: i32 = 44;
const C_STACK_ARRIVALS: i32 = 45;
const C_SOIL: i32 = 46;
const C_HARDNESS: i32 = 47;

@inline function control(word: i32): i32 { return load<i32>(word << 2); }
@inline function setControl(word: i32, value: i32): void { store<i32>(word << 2, value); }

/** `keepLastHop` (riverWalk.ts). */
function keepLastHop(arrivals: i32, at: i32, vertex: i32, suspended: i32, counters: i32): void {
    const amount = getI32(arrivals, at);
    if (amount > 0) keepSuspended(suspended, vertex, amount, counters);
    setI32(arrivals, at, 0);
}

/** `addRow` (riverWalk.ts). */
function addRow(arrivals: i32, from: i32, into: i32, wrapKey: i32, first: i32, last: i32, most: i32): i32 {
    for (let key = first; key <= last; key++) {
        const wrapped = key & wrapKey;
        const amount = getI32(arrivals, from + wrapped);
        setI32(arrivals, from + wrapped, 0);
        const total = getI32(arrivals, into + wrapped) + amount;
        setI32(arrivals, into + wrapped, total);
        most -= (most - total) & ((most - total) >> 31);
    }
    return most;
}

/** `sendInOrder` (riverWalk.ts); `mask` 0: none. */
function sendInOrder(
    arrivals: i32, own: i32, wrapKey: i32, level: i32, last: i32, lastHop: i32, room: i32, sends: bool, bound: i32, vertex: i32, delta: i32, mask: i32,
    suspended: i32, counters: i32
): i32 {
    const most = getI32(bound, level);
    const passes = sends && most <= ROUTE_LIMIT;
    let sentMost = 0;
    let sentLast = level;
    for (let key = level + 1; key <= last; key++) {
        const at = own + (key & wrapKey);
        let amount = getI32(arrivals, at);
        if (amount == 0) continue;
        if (room >= 0) {
            const left = room - getI32(delta, vertex);
            if (left <= 0 && passes) {
                if (last == lastHop) keepLastHop(arrivals, own + (last & wrapKey), vertex, suspended, counters);
                setI32(bound, level, maxI32(sentMost, most));
                return last;
            }
            let settled = minI32(amount, maxI32(left, 0));
            if (mask != 0) settled = mulQ16(settled, getI32(mask, vertex));
            setI32(delta, vertex, getI32(delta, vertex) + settled);
            amount -= settled;
        }
        let sent = 0;
        if (key < lastHop && amount > 0 && sends) {
            sent = minI32(amount, ROUTE_LIMIT);
            amount -= sent;
            if (sent > sentMost) sentMost = sent;
            sentLast = key;
        }
        setI32(arrivals, at, sent);
        if (amount > 0) keepSuspended(suspended, vertex, amount, counters);
    }
    setI32(bound, level, sentMost);
    return sentLast;
}

/**
 * `walkRiverBatch` (riverWalk.ts) over the roots from C_NEXT_ROOT on, with the grids and
 * parameters of the control block. Each root's tree size goes to C_SIZES at the root's index in
 * the list; each walked vertex is marked 1 in C_MARKS (a byte a vertex, all 0 before) and counted
 * in C_WALKED, for the glue to copy back.
 * Returns 0 when every root is walked, or 1 when the stack is full: the walk's place is then in
 * C_NEXT_ROOT, C_RESUME_TOP and C_RESUME_WALKED, and the glue calls again once it has grown
 * the stack (C_RESUME_TOP -1: start at C_NEXT_ROOT's root).
 */
export function walk(): i32 {
    const heights = control(C_HEIGHTS);
    const levels = control(C_LEVELS);
    const area = control(C_AREA);
    const slots = control(C_SLOTS);
    const mask = control(C_MASK);
    // With the materials: the soil and the rock's hardness (Q8) the batch started from; 0 without.
    const soil = control(C_SOIL);
    const hardness = control(C_HARDNESS);
    const suspended = control(C_SUSPENDED);
    const delta = control(C_DELTA);
    const uplift = control(C_UPLIFT);
    const donors = control(C_DONORS);
    const ownCounters = control(C_COUNTERS);
    const elsewhere = control(C_ELSEWHERE);
    const keeps = control(C_KEEPS);
    const offsets = control(C_OFFSETS);
    const roots = control(C_ROOTS);
    const rootCount = control(C_ROOT_COUNT);
    const sizes = control(C_SIZES);
    const marks = control(C_MARKS);
    const steps = control(C_STEPS);
    const width = control(C_WIDTH);
    const depth = control(C_DEPTH);
    const x0 = control(C_X0);
    const y0 = control(C_Y0);
    const x1 = control(C_X1);
    const y1 = control(C_Y1);
    const countedY0 = control(C_COUNTED_Y0);
    const countedY1 = control(C_COUNTED_Y1);
    const hops = control(C_HOPS);
    const erosion = control(C_EROSION);
    const capacity = control(C_CAPACITY);
    const upliftRate = control(C_UPLIFT_RATE);
    const deposition = control(C_DEPOSITION);
    const stackLevels = control(C_STACK_LEVELS);
    const ring = control(C_RING);
    const whole = x0 == 0 && y0 == 0 && x1 == width && y1 == depth;
    const wrapKey = ring - 1;
    const lifts = upliftRate != 0;
    const masked = mask != 0;
    // The stack's arrays, where the glue laid them out (`riverWalkWasm.ts`' stackLayout).
    const vertices = control(C_STACK);
    const upstream = control(C_STACK_UPSTREAM);
    const far = control(C_STACK_FAR);
    const floor = control(C_STACK_FLOOR);
    const lastKey = control(C_STACK_LAST_KEY);
    const bound = control(C_STACK_BOUND);
    const rowOf = control(C_STACK_ROW_OF);
    const pending = control(C_STACK_PENDING);
    const arrivals = control(C_STACK_ARRIVALS);
    let walkedAll = control(C_WALKED);
    let resumeTop = control(C_RESUME_TOP);
    for (let n = control(C_NEXT_ROOT); n < rootCount; n++) {
        let walked = 0;
        let top = 0;
        if (resumeTop >= 0) {
            top = resumeTop;
            walked = control(C_RESUME_WALKED);
            resumeTop = -1;
        } else {
            const root = getI32(roots, n);
            setI32(vertices, 0, root);
            setU8(pending, 0, getU8(donors, root));
            setF64(upstream, 0, 1.0);
            setF64(far, 0, 0.0);
            setI32(floor, 0, HEIGHT_MAX_FIXED);
            setI32(lastKey, 0, 0);
            setI32(bound, 0, 0);
        }
        while (top >= 0) {
            const bits = getU8(pending, top);
            if (bits != 0) {
                if (top + 1 == stackLevels) {
                    setControl(C_NEXT_ROOT, n);
                    setControl(C_RESUME_TOP, top);
                    setControl(C_RESUME_WALKED, walked);
                    setControl(C_WALKED, walkedAll);
                    return 1;
                }
                setU8(pending, top, bits & (bits - 1));
                const donor = getI32(vertices, top) + getI32(offsets, ctz(bits));
                if (!whole) {
                    const dy = donor / width;
                    const dx = donor - dy * width;
                    if (dx < x0 || dx >= x1 || dy < y0 || dy >= y1) {
                        addF64(upstream, top, <f64>getI32(area, donor));
                        const donorHeight = getI32(heights, donor);
                        if (donorHeight < getI32(floor, top)) setI32(floor, top, donorHeight);
                        continue;
                    }
                }
                top++;
                setI32(vertices, top, donor);
                setU8(pending, top, getU8(donors, donor));
                setF64(upstream, top, 1.0);
                setF64(far, top, 0.0);
                setI32(floor, top, HEIGHT_MAX_FIXED);
                setI32(lastKey, top, 0);
                setI32(bound, top, 0);
                continue;
            }
            const vertex = getI32(vertices, top);
            const vy = vertex / width;
            const vx = vertex - vy * width;
            const counters = vy >= countedY0 && vy < countedY1 ? ownCounters : elsewhere;
            walked++;
            walkedAll++;
            setU8(marks, vertex, 1);
            // Drainage area.
            const full = getF64(upstream, top);
            if (steps > 0) {
                const before = getI32(area, vertex);
                const stepped = full + getF64(far, top);
                setI32(area, vertex, stepped > DRAINAGE_AREA_LIMIT ? <i32>DRAINAGE_AREA_LIMIT : <i32>stepped);
                if (top >= steps) addF64(far, top - steps, <f64>before - full);
            }
            // Cut.
            const slot = getI32(slots, vertex);
            const height = getI32(heights, vertex);
            const fall = slot < 0 ? 0 : height - getI32(heights, vertex + getI32(offsets, slot));
            const settles = getI32(levels, vertex) > height;
            let cut = 0;
            if (!settles && slot >= 0 && fall > 0) {
                const vertexArea = getI32(area, vertex);
                if (!masked && vertexArea < KEEP_TABLE_AREAS) cut = cutOfKeep(fall, getI32(keeps, (vertexArea << 1) | (slot >> 2)));
                else cut = cutOfKeep(fall, streamKeep(erosion, vertexArea, slot >= FIRST_DIAGONAL_SLOT, masked, masked ? getI32(mask, vertex) : 0));
                if (soil != 0) cut = materialCut(cut, getI32(soil, vertex), getI32(hardness, vertex));
            }
            const own = getI32(rowOf, top);
            let last = getI32(lastKey, top);
            const waiting = getI32(suspended, vertex);
            const room = settles && (waiting > 0 || last > top) ? basinRoomAt(heights, levels, vx, vy, width, depth) : -1;
            // Erosion and deposition (`erodeVertex`).
            let load = maxI32(waiting, 0) + cut;
            let deposited = 0;
            if (settles) {
                if (load > 0) deposited = minI32(load, room >= 0 ? room : basinRoomAt(heights, levels, vx, vy, width, depth));
            } else {
                const drop = slot < 0 ? 0 : maxI32(fall, 0);
                const slope = slot >= FIRST_DIAGONAL_SLOT ? mulQ16(drop, INVERSE_SQRT2_Q16) : drop;
                // `saturatingProduct`: exact in 64 bits (the TypeScript's doubles compare the same).
                const product = <i64>mulQ16Sat(capacity, slope) * <i64>getI32(area, vertex);
                const carried = product >= <i64>ACCUMULATOR_LIMIT ? ACCUMULATOR_LIMIT : <i32>product;
                const donorFloor = getI32(floor, top);
                if (load > carried && donorFloor != HEIGHT_MAX_FIXED)
                    deposited = overCapacity(heights, vx, vy, width, deposition, cut, donorFloor, load - carried);
            }
            if (masked) deposited = mulQ16(deposited, getI32(mask, vertex));
            setI32(delta, vertex, deposited - cut);
            setI32(suspended, vertex, minI32(waiting, 0));
            load -= deposited;
            // Uplift (`upliftVertex`).
            if (lifts && vx > 0 && vy > 0 && vx < width - 1 && vy < depth - 1) {
                let lift = uplift == 0 ? upliftRate : mulQ16(upliftRate, getI32(uplift, vertex));
                lift = minI32(lift, maxI32(HEIGHT_MAX_FIXED - (height + getI32(delta, vertex)), 0));
                setI32(delta, vertex, getI32(delta, vertex) + lift);
                addF64(counters, COUNTER_UPLIFT_ADDED, <f64>lift);
            }
            // Settling (`settleVertex`).
            let send = 0;
            if (load > 0) {
                if (slot >= 0) {
                    send = minI32(load, ROUTE_LIMIT);
                    if (load > send) keepSuspended(suspended, vertex, load - send, counters);
                } else if (vx == 0 || vy == 0 || vx == width - 1 || vy == depth - 1) {
                    addF64(counters, COUNTER_OUTFLOW, <f64>load);
                } else {
                    keepSuspended(suspended, vertex, load, counters);
                }
            }
            // The hops.
            const lastHop = top + hops;
            let most = getI32(bound, top);
            if (last > top) {
                if ((settles && room - getI32(delta, vertex) > 0) || slot < 0 || most > ROUTE_LIMIT) {
                    last = sendInOrder(
                        arrivals, own, wrapKey, top, last, lastHop, settles ? room : -1, slot >= 0, bound, vertex, delta, mask, suspended, counters
                    );
                    most = getI32(bound, top);
                } else if (last == lastHop) {
                    keepLastHop(arrivals, own + (last & wrapKey), vertex, suspended, counters);
                }
                if (last == lastHop) last--;
            }
            if (top > 0) {
                const below = top - 1;
                if (last > top) {
                    if (getI32(lastKey, below) <= below) {
                        setI32(rowOf, top, getI32(rowOf, below));
                        setI32(rowOf, below, own);
                        setI32(lastKey, below, last);
                        setI32(bound, below, most);
                    } else {
                        setI32(bound, below, addRow(arrivals, own, getI32(rowOf, below), wrapKey, top + 1, last, getI32(bound, below)));
                        if (last > getI32(lastKey, below)) setI32(lastKey, below, last);
                    }
                }
                if (send > 0) {
                    const at = getI32(rowOf, below) + (top & wrapKey);
                    const total = getI32(arrivals, at) + send;
                    setI32(arrivals, at, total);
                    if (total > getI32(bound, below)) setI32(bound, below, total);
                    if (top > getI32(lastKey, below)) setI32(lastKey, below, top);
                }
            } else if (last > top) {
                memory.fill(arrivals + (own << 2), 0, ring << 2);
            }
            if (--top >= 0) {
                addF64(upstream, top, full);
                const cutHeight = height - cut;
                if (cutHeight < getI32(floor, top)) setI32(floor, top, cutHeight);
            }
        }
        setI32(sizes, n, walked);
    }
    setControl(C_NEXT_ROOT, rootCount);
    setControl(C_WALKED, walkedAll);
    return 0;
}
