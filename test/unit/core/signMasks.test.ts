/**
 * The kernels that pick minima and maxima with sign masks instead of branches (the river slots, a
 * vertex's neighbour bounds, the fill levels' step) against the plain rules, on fields that reach
 * both ends of the fixed-point range: a difference of two heights there needs all 32 bits, and a
 * difference of two falls more (the slots once took a diagonal with no fall over a cardinal one
 * falling 2^31 - 1, which GPU parity caught on a checkerboard of the two limits).
 */
import { resolveOptions } from "../../../plugin/index.js";
import { buildBatchParams, HEIGHT_MAX_FIXED, HEIGHT_MIN_FIXED, priorityFloodFill } from "../../../plugin/advanced.js";
import { ALL_ROWS, fillLevelStep, fillRoom, neighbourBounds, riverSlot, riverSlots, THERMAL_DX, THERMAL_DY } from "../../../plugin/internal.js";

const SIZE = 12;

/** Fields of SIZE² fixed-point heights at and between the limits, with fill levels of each. */
function extremeFields(): { name: string; heights: Int32Array; levels: Int32Array }[] {
    let seed = 7;
    const random = () => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return seed / 2 ** 32;
    };
    const shapes: [string, (x: number, y: number) => number][] = [
        ["checkerboard of both limits", (x, y) => ((x + y) % 2 === 0 ? HEIGHT_MAX_FIXED : HEIGHT_MIN_FIXED)],
        ["stripes of both limits", (x) => (x % 3 === 0 ? HEIGHT_MIN_FIXED : HEIGHT_MAX_FIXED)],
        ["random over the whole range", () => HEIGHT_MIN_FIXED + Math.floor(random() * (HEIGHT_MAX_FIXED - HEIGHT_MIN_FIXED + 1))],
        ["random limits with a few in between", () => [HEIGHT_MIN_FIXED, HEIGHT_MAX_FIXED, 0, HEIGHT_MAX_FIXED - 1][Math.floor(random() * 4)]],
    ];
    return shapes.flatMap(([name, shape]) => {
        const heights = Int32Array.from({ length: SIZE * SIZE }, (_, i) => shape(i % SIZE, Math.floor(i / SIZE)));
        // Exact levels, and levels anywhere in the range (a state's levels lag its heights).
        const anyLevels = Int32Array.from(heights, (height) => (random() < 0.5 ? height : HEIGHT_MIN_FIXED + Math.floor(random() * (HEIGHT_MAX_FIXED - HEIGHT_MIN_FIXED + 1))));
        return [
            { name: `${name}, flooded`, heights, levels: priorityFloodFill(heights, SIZE, SIZE) },
            { name: `${name}, any levels`, heights, levels: anyLevels },
        ];
    });
}

const interior = (visit: (x: number, y: number, i: number) => void) => {
    for (let y = 1; y < SIZE - 1; y++) for (let x = 1; x < SIZE - 1; x++) visit(x, y, y * SIZE + x);
};

describe("kernels with sign-mask minima equal the plain rules at the ends of the height range", () => {
    const params = buildBatchParams(resolveOptions({ patchSize: 64 }), { width: SIZE, depth: SIZE }, { index: 0, x0: 0, y0: 0, x1: SIZE, y1: SIZE }, "rivers", 0, 0);

    it.each(extremeFields())("river slots: $name", ({ heights, levels }) => {
        const slots = new Int32Array(SIZE * SIZE);
        riverSlots(params, heights, levels, slots, ALL_ROWS);
        interior((x, y, i) => expect([x, y, slots[i]]).toEqual([x, y, riverSlot(heights, levels, x, y, SIZE, SIZE, false)]));
    });

    it.each(extremeFields())("neighbour bounds and room: $name", ({ heights, levels }) => {
        interior((x, y, i) => {
            const height = heights[i];
            const level = Math.max(levels[i], height);
            let lowest = HEIGHT_MAX_FIXED;
            let lowestHigher = HEIGHT_MAX_FIXED;
            let lowestHigherLevel = HEIGHT_MAX_FIXED;
            for (let k = 0; k < 8; k++) {
                const n = (y + THERMAL_DY[k]) * SIZE + x + THERMAL_DX[k];
                const neighbourLevel = Math.max(levels[n], heights[n]);
                lowest = Math.min(lowest, heights[n]);
                if (heights[n] > height) lowestHigher = Math.min(lowestHigher, heights[n]);
                if (neighbourLevel > level) lowestHigherLevel = Math.min(lowestHigherLevel, neighbourLevel);
            }
            const bounds = { ...neighbourBounds(heights, levels, x, y, SIZE, SIZE) };
            expect([x, y, bounds]).toEqual([x, y, { lowest, lowestHigher, lowestHigherLevel }]);
            expect(fillRoom(height, levels[i], bounds.lowest, bounds.lowestHigher, bounds.lowestHigherLevel)).toBe(fillRoom(height, levels[i], lowest, lowestHigher, lowestHigherLevel));
        });
    });

    it.each(extremeFields())("fill level step: $name", ({ heights, levels }) => {
        const next = new Int32Array(SIZE * SIZE);
        fillLevelStep({ ...params, extentX0: 0, extentY0: 0, extentX1: SIZE, extentY1: SIZE }, heights, levels, next, { level: new Int32Array(SIZE * SIZE) });
        interior((x, y, i) => {
            let lowest = HEIGHT_MAX_FIXED;
            for (let k = 0; k < 8; k++) {
                const n = (y + THERMAL_DY[k]) * SIZE + x + THERMAL_DX[k];
                lowest = Math.min(lowest, Math.max(levels[n], heights[n]));
            }
            expect([x, y, next[i]]).toEqual([x, y, Math.max(heights[i], Math.min(lowest + 1, HEIGHT_MAX_FIXED))]);
        });
    });
});
