/**
 * CPU mirror of `shaders/clip_delta.wgsl`, the first half of folding a batch's changes into the
 * heights. See the WGSL for why each cell's change is clipped to an eighth of its local relief.
 */
import { ACCUMULATOR_LIMIT, FOLD_RELIEF_SHIFT, MIN_SETTLE_SHIFT, type BatchParams } from "../batchParams.js";
import { COUNTER_SATURATION_ADDED, COUNTER_SATURATION_REMOVED } from "../counters.js";
import { HEIGHT_MAX_FIXED, HEIGHT_MIN_FIXED } from "../fixedPoint.js";

// Math's functions as module constants: a global lookup of `Math` is twenty times slower in a
// vm context (jest's test environment, some worker sandboxes) and these run per droplet step.
const { max, min } = Math;

/**
 * For every vertex of the batch's region: adds the suspended sediment to the batch's change,
 * applies what the local relief allows, keeps the rest suspended, and leaves the change to apply
 * in `delta`.
 */
export function clipDelta(params: BatchParams, heights: Int32Array, delta: Int32Array, suspended: Int32Array, counters: Float64Array): void {
    const { width, depth, regionX0, regionY0, regionX1, regionY1 } = params;
    for (let y = regionY0; y < regionY1; y++) {
        for (let x = regionX0; x < regionX1; x++) {
            const i = y * width + x;
            const change = delta[i] + suspended[i];
            if (change === 0) {
                delta[i] = 0;
                suspended[i] = 0;
                continue;
            }
            const height = heights[i];
            let lowest = HEIGHT_MAX_FIXED;
            let highest = HEIGHT_MIN_FIXED;
            for (let dy = -1; dy <= 1; dy++) {
                const ny = y + dy;
                if (ny < 0 || ny >= depth) continue;
                for (let dx = -1; dx <= 1; dx++) {
                    const nx = x + dx;
                    if ((dx === 0 && dy === 0) || nx < 0 || nx >= width) continue;
                    const neighbour = heights[ny * width + nx];
                    lowest = min(lowest, neighbour);
                    highest = max(highest, neighbour);
                }
            }
            let applied: number;
            if (change < 0) {
                const room = max(height - lowest, 0);
                applied = max(change, -(room >> FOLD_RELIEF_SHIFT));
            } else {
                const fillTo = height < lowest ? lowest : highest;
                const room = max(fillTo - height, 0);
                const settle = height <= highest ? change >> MIN_SETTLE_SHIFT : 0;
                applied = min(change, max(room >> FOLD_RELIEF_SHIFT, settle));
            }
            let rest = change - applied;
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
            suspended[i] = rest;
            delta[i] = applied;
        }
    }
}
