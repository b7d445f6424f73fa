/**
 * CPU mirror of `shaders/erode_droplets.wgsl`: one batch of droplets over one patch.
 *
 * Every droplet reads the heights as they stood when the batch began and adds its changes into
 * `delta` (fixed point); `clipDelta` and `applyDelta` fold them in afterwards. Integer addition
 * commutes, so the result does not depend on the order droplets run in, here or on the GPU.
 * The step, names and clamps match the WGSL line for line; see that file for the reasoning.
 */
import { COUNTER_DROPLET_STEPS, COUNTER_OUTFLOW } from "../counters.js";
import { MAX_SHARE_SHIFT, type BatchParams } from "../batchParams.js";
import { BRUSH_ENTRY_INTS } from "../brush.js";
import { FIXED_ONE, SATURATION_LIMIT, mulQ16, mulQ16Sat, sqrtQ16 } from "../fixedPoint.js";
import { hash4 } from "../hash.js";
import { addBilinear, sampleHeight } from "./bilinear.js";

// Math's functions as module constants: a global lookup of `Math` is twenty times slower in a
// vm context (jest's test environment, some worker sandboxes) and these run per droplet step.
const { abs, clz32, floor, max, min, sqrt } = Math;

/** Largest gradient component a droplet uses, in fixed-point metres per cell (2^30). */
export const GRADIENT_LIMIT = 2 ** 30;

/**
 * Runs droplets `firstDroplet .. endDroplet - 1` of a batch (all of them by default).
 * @param params the batch's parameters
 * @param heights fixed-point heights, read only
 * @param delta fixed-point change accumulator, added to
 * @param brush brush table (`buildBrush`), empty for radius 0
 * @param counters counters, added to (`COUNTER_*` indices)
 */
export function erodeDroplets(params: BatchParams, heights: Int32Array, delta: Int32Array, brush: Int32Array, counters: Float64Array, firstDroplet = 0, endDroplet = params.dropletCount): void {
    const width = params.width;
    const depth = params.depth;
    const limitX = (width - 1) * FIXED_ONE;
    const limitY = (depth - 1) * FIXED_ONE;
    const spanX = (params.spawnX1 - params.spawnX0) * FIXED_ONE;
    const spanY = (params.spawnY1 - params.spawnY0) * FIXED_ONE;
    const seed = params.seed >>> 0;
    const cycle = params.cycle >>> 0;
    const patchIndex = params.patchIndex >>> 0;
    const { maxSteps, inertia, capacity, minSlope, erosion, deposition, waterRetained, gravity, minWater, share, stepCap, brushCount } = params;
    const gradientWeight = FIXED_ONE - inertia;
    const brushLayout = brushCount > 0 ? new BrushLayout(brush, brushCount, width, params.brushRadius) : null;
    let totalSteps = 0;
    let outflow = 0;

    for (let dropletId = firstDroplet; dropletId < endDroplet; dropletId++) {
        let px = params.spawnX0 * FIXED_ONE + (hash4(seed, cycle, patchIndex, (2 * dropletId) >>> 0) % spanX);
        let py = params.spawnY0 * FIXED_ONE + (hash4(seed, cycle, patchIndex, (2 * dropletId + 1) >>> 0) % spanY);
        let dirX = 0;
        let dirY = 0;
        let speed = params.initialSpeed;
        let water = params.initialWater;
        let sediment = 0;
        let leftField = false;
        let steps = 0;

        for (let step = 0; step < maxSteps; step++) {
            const cellX = px >> 16;
            const cellY = py >> 16;
            const fx = px & 0xffff;
            const fy = py & 0xffff;
            const i00 = cellY * width + cellX;
            const h00 = heights[i00];
            const h10 = heights[i00 + 1];
            const h01 = heights[i00 + width];
            const h11 = heights[i00 + width + 1];
            let gradX = mulQ16(h10 - h00, FIXED_ONE - fy) + mulQ16(h11 - h01, fy);
            let gradY = mulQ16(h01 - h00, FIXED_ONE - fx) + mulQ16(h11 - h10, fx);
            gradX = gradX > GRADIENT_LIMIT ? GRADIENT_LIMIT : gradX < -GRADIENT_LIMIT ? -GRADIENT_LIMIT : gradX;
            gradY = gradY > GRADIENT_LIMIT ? GRADIENT_LIMIT : gradY < -GRADIENT_LIMIT ? -GRADIENT_LIMIT : gradY;
            const h0 = h00 + mulQ16(h10 - h00, fx);
            const h1 = h01 + mulQ16(h11 - h01, fx);
            const heightHere = h0 + mulQ16(h1 - h0, fy);

            // New direction: keep `inertia` of the old one, turn the rest toward the downhill gradient.
            const wantX = mulQ16(dirX, inertia) - mulQ16(gradX, gradientWeight);
            const wantY = mulQ16(dirY, inertia) - mulQ16(gradY, gradientWeight);
            if (wantX === 0 && wantY === 0) {
                break; // on flat ground with no momentum: the walk ends here
            }
            // Normalise to one cell: bring the larger component to 15 bits (exact shifts), then divide.
            const largest = max(abs(wantX), abs(wantY));
            const bits = 32 - clz32(largest);
            let reducedX: number;
            let reducedY: number;
            if (bits > 15) {
                reducedX = wantX >> (bits - 15);
                reducedY = wantY >> (bits - 15);
            } else {
                reducedX = wantX << (15 - bits);
                reducedY = wantY << (15 - bits);
            }
            const length = floor(sqrt(reducedX * reducedX + reducedY * reducedY));
            dirX = ((reducedX * FIXED_ONE) / length) | 0;
            dirY = ((reducedY * FIXED_ONE) / length) | 0;

            const nextX = px + dirX;
            const nextY = py + dirY;
            steps++;
            if (nextX < 0 || nextY < 0 || nextX >= limitX || nextY >= limitY) {
                leftField = true;
                break;
            }
            const heightNext = sampleHeight(heights, width, nextX, nextY);
            const drop = heightNext - heightHere; // negative going downhill

            let carry = mulQ16Sat(max(-drop, minSlope), speed);
            carry = mulQ16Sat(carry, water);
            carry = mulQ16Sat(carry, capacity);
            carry = mulQ16(carry, share);

            if (sediment > carry || drop > 0) {
                // Deposit: fill (at most a quarter of) the rise, or lay down part of the surplus.
                let amount = drop > 0 ? min(sediment, mulQ16(drop >> MAX_SHARE_SHIFT, share)) : mulQ16(sediment - carry, deposition);
                amount = min(amount, stepCap);
                if (amount > 0) {
                    addBilinear(delta, width, px, py, amount, 1);
                    sediment -= amount;
                }
            } else {
                // Erode: pick up part of the deficit, never more than a quarter of the drop.
                let amount = min(mulQ16(carry - sediment, erosion), mulQ16(-drop >> MAX_SHARE_SHIFT, share));
                amount = min(amount, stepCap);
                if (amount > 0) {
                    if (brushLayout === null) {
                        addBilinear(delta, width, px, py, amount, -1);
                        sediment += amount;
                    } else {
                        sediment += cutWithBrush(delta, width, depth, px, py, amount, brushLayout);
                    }
                }
            }

            // Physical sign: descending (drop < 0) speeds the droplet up; seed 002's pseudocode has
            // it backwards. Speed^2 is floored at zero as in seed 000.
            let speedSquared = mulQ16Sat(speed, speed);
            const gained = mulQ16Sat(abs(drop), gravity);
            speedSquared = drop < 0 ? min(speedSquared + gained, SATURATION_LIMIT) : max(speedSquared - gained, 0);
            speed = sqrtQ16(speedSquared);
            water = mulQ16(water, waterRetained);
            px = nextX;
            py = nextY;
            if (water < minWater) {
                break;
            }
        }

        totalSteps += steps;
        if (leftField || params.depositAtEnd === 0) {
            outflow += sediment;
        } else if (sediment > 0) {
            addBilinear(delta, width, px, py, sediment, 1);
        }
    }
    counters[COUNTER_DROPLET_STEPS] += totalSteps;
    counters[COUNTER_OUTFLOW] += outflow;
}

/**
 * The brush as the droplet loop uses it: per entry, the x and y offsets, the offset of the vertex
 * index (dy * width + dx) and the Q16 weight, so the common case (brush wholly inside the field)
 * needs no per-vertex bounds check. Built once per batch.
 */
class BrushLayout {
    public readonly dx: Int32Array;
    public readonly dy: Int32Array;
    public readonly indexOffset: Int32Array;
    public readonly weight: Int32Array;

    constructor(brush: Int32Array, count: number, width: number, public readonly radius: number) {
        this.dx = new Int32Array(count);
        this.dy = new Int32Array(count);
        this.indexOffset = new Int32Array(count);
        this.weight = new Int32Array(count);
        for (let k = 0; k < count; k++) {
            this.dx[k] = brush[k * BRUSH_ENTRY_INTS];
            this.dy[k] = brush[k * BRUSH_ENTRY_INTS + 1];
            this.indexOffset[k] = this.dy[k] * width + this.dx[k];
            this.weight[k] = brush[k * BRUSH_ENTRY_INTS + 2];
        }
    }
}

/**
 * Cuts `amount` from the vertices of the brush centred on the vertex nearest (px, py); returns
 * what was cut (vertices outside the field are skipped). Mirrors `cutWithBrush` in WGSL: every
 * entry but the centre takes floor(amount * weight / 2^16), the centre takes the rest.
 */
function cutWithBrush(delta: Int32Array, width: number, depth: number, px: number, py: number, amount: number, brush: BrushLayout): number {
    const centreX = (px + 0x8000) >> 16;
    const centreY = (py + 0x8000) >> 16;
    const centre = centreY * width + centreX;
    const count = brush.weight.length;
    const weight = brush.weight;
    const radius = brush.radius;
    let remainder = amount;
    if (centreX >= radius && centreY >= radius && centreX + radius < width && centreY + radius < depth) {
        const indexOffset = brush.indexOffset;
        for (let k = 1; k < count; k++) {
            const part = floor((amount * weight[k]) / FIXED_ONE);
            remainder -= part;
            delta[centre + indexOffset[k]] -= part;
        }
        delta[centre] -= remainder;
        return amount;
    }
    let cut = 0;
    for (let k = 1; k < count; k++) {
        const part = floor((amount * weight[k]) / FIXED_ONE);
        remainder -= part;
        const x = centreX + brush.dx[k];
        const y = centreY + brush.dy[k];
        if (x >= 0 && y >= 0 && x < width && y < depth) {
            delta[y * width + x] -= part;
            cut += part;
        }
    }
    delta[centre] -= remainder;
    return cut + remainder;
}
