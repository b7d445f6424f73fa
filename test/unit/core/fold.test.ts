/**
 * The fold of a droplet batch (clipDelta, routeSediment) and the fill levels, on tiny grids
 * whose results are worked out by hand in the comments.
 */
import { resolveOptions } from "../../../plugin/index.js";
import { buildBatchParams, FILL_EPSILON, FIXED_ONE, HEIGHT_MAX_FIXED, priorityFloodFill, type BatchParams } from "../../../plugin/advanced.js";
import { applyDelta, clipDelta, COUNTER_COUNT, COUNTER_OUTFLOW, fillLevelStep, fillRoom, routeSediment, RouteScratch, SEDIMENT_HOPS } from "../../../plugin/internal.js";

const M = FIXED_ONE;

/** A hydraulic batch whose region is the whole `width x depth` field (walks of one step, brush 0). */
function wholeField(width: number, depth: number): BatchParams {
    const options = resolveOptions({ patchSize: 1024, hydraulic: { maxSteps: 1, brushRadius: 0 } });
    return buildBatchParams(options, { width, depth }, { index: 0, x0: 0, y0: 0, x1: width, y1: depth }, "hydraulic", 0, 0);
}

/** Heights from rows of metres. */
function grid(rows: number[][]): Int32Array {
    return Int32Array.from(rows.flat(), (metres) => Math.round(metres * M));
}

function sum(values: Int32Array): number {
    return values.reduce((a, b) => a + b, 0);
}

describe("clipDelta", () => {
    it("cuts at most an eighth of the drop to the lowest neighbour and keeps the rest owed", () => {
        // Centre 8 m over neighbours at 4 m: a 3 m cut is clipped to (8 - 4) / 8 = 0.5 m; 2.5 m stays owed.
        const heights = new Int32Array(9).fill(4 * M);
        heights[4] = 8 * M;
        const levels = priorityFloodFill(heights, 3, 3);
        const delta = new Int32Array(9);
        delta[4] = -3 * M;
        const suspended = new Int32Array(9);
        const routed = new Int32Array(9);
        const params = wholeField(3, 3);
        clipDelta(params, heights, levels, delta, suspended, routed, new Float64Array(COUNTER_COUNT));
        applyDelta(params, heights, delta);
        expect(heights[4]).toBe(7.5 * M);
        expect(suspended[4]).toBe(-2.5 * M);
        expect(Array.from(routed)).toEqual(new Array(9).fill(0));
    });

    it("fills a channel cell at most an eighth of the way to its lowest higher neighbour and sends the rest downhill", () => {
        // A valley falling toward +x on 5 x 3. The centre (2 m) drains to (3, 1) at 1 m; its lowest
        // higher neighbour is (1, 1) at 3 m, so a 5 m deposit settles (3 - 2) / 8 = 0.125 m and the
        // other 4.875 m leave along the valley: the deposit cannot dam it.
        const heights = grid([
            [9, 9, 9, 9, 9],
            [4, 3, 2, 1, 0],
            [9, 9, 9, 9, 9],
        ]);
        const levels = priorityFloodFill(heights, 5, 3);
        const delta = new Int32Array(15);
        delta[7] = 5 * M;
        const suspended = new Int32Array(15);
        const routed = new Int32Array(15);
        clipDelta(wholeField(5, 3), heights, levels, delta, suspended, routed, new Float64Array(COUNTER_COUNT));
        expect(delta[7]).toBe(M / 8);
        expect(routed[7]).toBe(5 * M - M / 8);
        expect(heights[7] + delta[7]).toBeLessThan(heights[6]);
    });

    it("fills the floor of a basin up to its lowest neighbour, never past its fill level, and sends what it cannot take over the spill", () => {
        // A pit at 0 m among neighbours at 4 m on 3 x 3: the fill level there is 4 m + one unit (the
        // edge vertices are the outlets). A 3 m deposit settles whole; of a 5 m deposit 4 m settle
        // (up to the lowest neighbour) and 1 m moves on down the fill levels, over the rim.
        for (const [deposit, settles] of [
            [3 * M, 3 * M],
            [5 * M, 4 * M],
        ]) {
            const heights = new Int32Array(9).fill(4 * M);
            heights[4] = 0;
            const levels = priorityFloodFill(heights, 3, 3);
            expect(levels[4]).toBe(4 * M + FILL_EPSILON);
            const delta = new Int32Array(9);
            delta[4] = deposit;
            const suspended = new Int32Array(9);
            const routed = new Int32Array(9);
            clipDelta(wholeField(3, 3), heights, levels, delta, suspended, routed, new Float64Array(COUNTER_COUNT));
            expect(delta[4]).toBe(settles);
            expect(routed[4]).toBe(deposit - settles);
            expect(suspended[4]).toBe(0);
        }
    });

    it("passes sediment arriving on dry ground that drains on without settling it, and lets it off the field at an edge in a hollow", () => {
        // The valley again: 1 m waiting at the centre moves on whole. The outlet (4, 1) is an edge
        // vertex lower than all its neighbours: of 2 m waiting there it settles an eighth of the way
        // to its lowest higher neighbour (1 m / 8), and the rest leaves the field.
        const heights = grid([
            [9, 9, 9, 9, 9],
            [4, 3, 2, 1, 0],
            [9, 9, 9, 9, 9],
        ]);
        const levels = priorityFloodFill(heights, 5, 3);
        const delta = new Int32Array(15);
        const suspended = new Int32Array(15);
        suspended[7] = M;
        suspended[9] = 2 * M;
        const routed = new Int32Array(15);
        const counters = new Float64Array(COUNTER_COUNT);
        clipDelta(wholeField(5, 3), heights, levels, delta, suspended, routed, counters);
        expect(routed[7]).toBe(M);
        expect(delta[7]).toBe(0);
        expect(delta[9]).toBe(M / 8);
        expect(counters[COUNTER_OUTFLOW]).toBe(2 * M - M / 8);
        expect(sum(suspended)).toBe(0);
    });

    it("under a hydraulic mask of zero settles nothing and sends everything on", () => {
        const heights = new Int32Array(9).fill(4 * M);
        heights[4] = 0;
        const levels = priorityFloodFill(heights, 3, 3);
        const delta = new Int32Array(9);
        delta[4] = M;
        const suspended = new Int32Array(9);
        const routed = new Int32Array(9);
        clipDelta(wholeField(3, 3), heights, levels, delta, suspended, routed, new Float64Array(COUNTER_COUNT), new Int32Array(9));
        expect(delta[4]).toBe(0);
        // The basin drains over its rim (its fill level falls toward the edge): the sediment moves on.
        expect(routed[4]).toBe(M);
        expect(suspended[4]).toBe(0);
    });
});

describe("routeSediment", () => {
    it("carries sediment down a dry valley SEDIMENT_HOPS vertices in one fold, fills a basin's floor on the way and carries the rest over its spill", () => {
        // A valley falling toward +x on 12 x 3, with a pit at x = 9 (a basin one vertex wide).
        const floor = [11, 10, 9, 8, 7, 6, 5, 4, 3, -1, 1, 0];
        const heights = grid([floor.map(() => 20), floor, floor.map(() => 20)]);
        const levels = priorityFloodFill(heights, 12, 3);
        const params = wholeField(12, 3);
        const run = (start: number) => {
            const suspended = new Int32Array(36);
            const delta = new Int32Array(36);
            const routed = new Int32Array(36);
            routed[12 + start] = 5 * M;
            routeSediment(params, heights, levels, routed, new Int32Array(36), delta, suspended, new RouteScratch(36), new Float64Array(COUNTER_COUNT));
            return { suspended, delta };
        };
        // From x = 1 it passes x = 2 .. SEDIMENT_HOPS and waits at x = SEDIMENT_HOPS + 1.
        expect(run(1).suspended[12 + 1 + SEDIMENT_HOPS]).toBe(5 * M);
        // From x = 7 it reaches the pit at x = 9 in two hops. The pit's floor (-1 m) fills up to its
        // lowest neighbour (1 m at x = 10): 2 m settle; the other 3 m cross its spill (x = 10) on hop
        // 3 and wait at x = 11 after the last hop.
        const { suspended, delta } = run(7);
        expect(delta[12 + 9]).toBe(2 * M);
        expect(suspended[12 + 11]).toBe(3 * M);
        expect(sum(suspended) + sum(delta)).toBe(5 * M);
    });
});

describe("fill levels", () => {
    it("are the priority-flood surface: basins filled to their spill with one unit of fall per cell toward it", () => {
        // 5 x 3: a two-cell basin at x = 1..2 behind a rim at x = 3 (2 m), draining to the edge at x = 4.
        const heights = grid([
            [9, 9, 9, 9, 9],
            [9, 0, 0.5, 2, 1],
            [9, 9, 9, 9, 9],
        ]);
        const levels = priorityFloodFill(heights, 5, 3);
        expect(levels[5 + 3]).toBe(2 * M);
        expect(levels[5 + 2]).toBe(2 * M + FILL_EPSILON);
        expect(levels[5 + 1]).toBe(2 * M + 2 * FILL_EPSILON);
        expect(levels[5 + 4]).toBe(M);
    });

    it("come down to a lowered spill one vertex a step (they only ever need to come down)", () => {
        // The same field after its rim was cut from 2 m to 0.25 m: the old levels stand above the new
        // exact ones, and each Jacobi step lowers them one vertex further from the rim.
        const before = grid([
            [9, 9, 9, 9, 9],
            [9, 0, 0.5, 2, 1],
            [9, 9, 9, 9, 9],
        ]);
        const heights = grid([
            [9, 9, 9, 9, 9],
            [9, 0, 0.5, 0.25, 1],
            [9, 9, 9, 9, 9],
        ]);
        let levels = priorityFloodFill(before, 5, 3);
        const params = wholeField(5, 3);
        const next = new Int32Array(15);
        const scratch = { level: new Int32Array(15) };
        let steps = 0;
        const exact = priorityFloodFill(heights, 5, 3);
        while (Array.from(levels).some((level, i) => Math.max(level, heights[i]) !== Math.max(exact[i], heights[i])) && steps < 10) {
            fillLevelStep(params, heights, levels, next, scratch);
            levels = next.slice();
            steps++;
        }
        expect(Array.from(levels, (level, i) => Math.max(level, heights[i]))).toEqual(Array.from(exact, (level, i) => Math.max(level, heights[i])));
        expect(steps).toBeLessThanOrEqual(3);
    });
});

describe("a fill-level step", () => {
    /** The rule as the WGSL states it: an edge vertex keeps its height; any other rises to its lowest neighbouring level (never below that neighbour's height) plus FILL_EPSILON, never below its own height. */
    function reference(params: BatchParams, heights: Int32Array, levels: Int32Array, next: Int32Array): void {
        const { width, depth } = params;
        for (let y = params.extentY0; y < params.extentY1; y++) {
            for (let x = params.extentX0; x < params.extentX1; x++) {
                const i = y * width + x;
                if (x === 0 || y === 0 || x === width - 1 || y === depth - 1) {
                    next[i] = heights[i];
                    continue;
                }
                let lowest = HEIGHT_MAX_FIXED;
                for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (dx !== 0 || dy !== 0) lowest = Math.min(lowest, Math.max(levels[i + dy * width + dx], heights[i + dy * width + dx]));
                next[i] = Math.max(heights[i], lowest + FILL_EPSILON);
            }
        }
    }

    it.each([
        ["the whole of a 9 x 7 field", 9, 7, { x0: 0, y0: 0, x1: 9, y1: 7 }],
        ["a region inside the field", 12, 10, { x0: 3, y0: 2, x1: 8, y1: 9 }],
        ["a region touching the left and bottom edges", 12, 10, { x0: 0, y0: 4, x1: 5, y1: 10 }],
        ["a field two vertices wide", 2, 9, { x0: 0, y0: 0, x1: 2, y1: 9 }],
        ["a field three vertices wide", 3, 5, { x0: 0, y0: 0, x1: 3, y1: 5 }],
    ] as const)("gives the rule's levels over %s", (_name, width, depth, extent) => {
        // Random heights and levels a little above them: the vertices' minima fall in every direction.
        let seed = width * 131 + depth;
        const random = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 2000) * 977;
        const heights = Int32Array.from({ length: width * depth }, random);
        const levels = Int32Array.from(heights, (height) => height + (random() % 3 === 0 ? random() : 0));
        const params = { ...wholeField(width, depth), extentX0: extent.x0, extentY0: extent.y0, extentX1: extent.x1, extentY1: extent.y1 };
        const next = new Int32Array(width * depth).fill(-7);
        const expected = next.slice();
        fillLevelStep(params, heights, levels, next, { level: new Int32Array(width * depth) });
        reference(params, heights, levels, expected);
        expect(Array.from(next)).toEqual(Array.from(expected));
    });
});

describe("fillRoom", () => {
    const NONE = HEIGHT_MAX_FIXED;
    it("lets a dry vertex rise an eighth of the way to its lowest higher neighbour", () => {
        expect(fillRoom(0, 0, -M, 8 * M, NONE)).toBe(M);
    });

    it("fills a basin's floor up to its lowest neighbour, never past the level", () => {
        expect(fillRoom(0, 3 * M, M, M, NONE)).toBe(M);
        expect(fillRoom(0, M / 2, M, M, NONE)).toBe(M / 2);
    });

    it("never raises a vertex to within FILL_EPSILON of a neighbouring level above its own, so no deposit blocks a neighbour's way down", () => {
        // The floor could take 1 m, but a neighbour drains through it at a level of 0.5 m.
        expect(fillRoom(0, 3 * M, M, M, M / 2)).toBe(M / 2 - FILL_EPSILON);
        expect(fillRoom(0, 3 * M, M, M, FILL_EPSILON)).toBe(0);
    });
});
