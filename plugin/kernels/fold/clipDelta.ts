/**
 * CPU mirror of `shaders/fold/clip_delta.wgsl`, the first half of folding a batch's changes into the
 * heights. The WGSL says why each rule is there; `docs/simulation.md` ("The fold") what was measured.
 */
import { ACCUMULATOR_LIMIT, FOLD_RELIEF_SHIFT, ROUTE_LIMIT, type BatchParams } from "../../core/batchParams.js";
import { COUNTER_OUTFLOW, COUNTER_SATURATION_ADDED, COUNTER_SATURATION_REMOVED } from "../../core/counters.js";
import { HEIGHT_MAX_FIXED, HEIGHT_MIN_FIXED, mulQ16 } from "../../core/fixedPoint.js";
import { fillRoom, neighbourBounds } from "../../core/settling.js";
import { sedimentSlot } from "../../core/steepestDescent.js";

// Math's functions as module constants: a global lookup of `Math` is twenty times slower in a
// vm context (jest's test environment, some worker sandboxes).
const { max, min } = Math;

/**
 * For every vertex of the batch's region: settles what the ground there can take of the batch's
 * change and the sediment waiting there, leaves it in `delta`, and sends the sediment that does not
 * settle on (`routed`, for `routeSedimentHop`), off the field, or keeps it in `suspended` (with any
 * material a cut still owes).
 * @param levels the fill levels (`plugin/core/fillLevels.ts`)
 * @param mask the hydraulic mask (Q16 per vertex, scaling what settles), or null
 */
export function clipDelta(
    params: BatchParams, heights: Int32Array, levels: Int32Array, delta: Int32Array, suspended: Int32Array, routed: Int32Array, counters: Float64Array,
    mask: Int32Array | null = null
): void {
    const { width, depth, regionX0, regionY0, regionX1, regionY1 } = params;
    for (let y = regionY0; y < regionY1; y++) {
        for (let x = regionX0; x < regionX1; x++) {
            const i = y * width + x;
            routed[i] = 0;
            const waiting = suspended[i];
            if (delta[i] === 0 && waiting === 0) continue;
            const height = heights[i];
            const level = levels[i];
            const flooded = level > height;
            const { lowest, lowestHigher, lowestHigherLevel } = neighbourBounds(heights, levels, x, y, width, depth);
            // The slot is worked out only where it matters: for sediment waiting here, or left over.
            // Sediment waiting on dry ground that drains is in transit: it settles where the ground
            // stops falling (a basin, or the field's edge), not on the way.
            let slot = waiting > 0 && !flooded ? sedimentSlot(heights, levels, x, y, width, depth) : -2;
            const transit = slot >= 0 ? waiting : 0;
            const change = delta[i] + waiting - transit;
            let applied = 0;
            if (change < 0) {
                applied = max(change, -(max(height - lowest, 0) >> FOLD_RELIEF_SHIFT));
            } else if (change > 0) {
                applied = min(change, fillRoom(height, level, lowest, lowestHigher, lowestHigherLevel));
                if (mask !== null) applied = mulQ16(applied, mask[i]);
            }
            let rest = change - applied + transit;
            if (rest > ACCUMULATOR_LIMIT) {
                applied += rest - ACCUMULATOR_LIMIT;
                rest = ACCUMULATOR_LIMIT;
            } else if (rest < -ACCUMULATOR_LIMIT) {
                applied += rest + ACCUMULATOR_LIMIT;
                rest = -ACCUMULATOR_LIMIT;
            }
            if (applied > HEIGHT_MAX_FIXED - height) {
                counters[COUNTER_SATURATION_REMOVED] += applied - (HEIGHT_MAX_FIXED - height);
                applied = HEIGHT_MAX_FIXED - height;
            } else if (applied < HEIGHT_MIN_FIXED - height) {
                counters[COUNTER_SATURATION_ADDED] += HEIGHT_MIN_FIXED - height - applied;
                applied = HEIGHT_MIN_FIXED - height;
            }
            if (rest > 0) {
                if (slot === -2) slot = sedimentSlot(heights, levels, x, y, width, depth);
                if (slot >= 0) {
                    const passed = min(rest, ROUTE_LIMIT);
                    routed[i] = passed;
                    rest -= passed;
                } else if (x === 0 || y === 0 || x === width - 1 || y === depth - 1) {
                    counters[COUNTER_OUTFLOW] += rest;
                    rest = 0;
                }
            }
            suspended[i] = rest;
            delta[i] = applied;
        }
    }
}
