/**
 * CPU mirror of `shaders/erode_droplets.wgsl`: one batch of droplets over one patch.
 *
 * Every droplet reads the heights as they stood when the batch began and adds its changes into
 * `delta` (fixed point); `clipDelta` and `applyDelta` fold them in afterwards. Integer addition
 * commutes, so the result does not depend on the order droplets run in, here or on the GPU, nor on
 * how a batch's droplets are split between threads (`firstDroplet`, `endDroplet`).
 *
 * The arithmetic, names and clamps match the WGSL line for line; see that file for the reasoning.
 * The order differs in one respect: the WGSL does each step's walk, capacity and erosion together;
 * here a droplet's step goes through three passes, each a loop over the droplet's steps:
 * 1. `walkDroplet`: where the droplet goes. The direction depends on the heights and the previous
 *    direction only, never on the droplet's water, speed or sediment, so the whole path (start of
 *    each step and its drop) can be traced first.
 * 2. `capacityAlongPath`: speed and carrying capacity at each step. They depend on the drops only,
 *    and water follows the same sequence on every walk (`DropletKernel.waterAt`).
 * 3. `erodeAlongPath`: erosion and deposition, the only part that depends on the sediment.
 * A step is counted once, in pass 1, as the WGSL counts it.
 *
 * This is the CPU backend's hot loop, so it is written for V8. Measured with `npm run bench`'s
 * setup (one core of a 2-core AMD EPYC (Zen 4) VM, Node 20, the kernel in an esbuild bundle, 512^2
 * noise terrain, one 16384-droplet batch over the whole field), in droplet steps per second with
 * brush radius 3 / 0, before -> after each change, in the order they were made (best of 10 runs on
 * a shared machine; repeat runs agree within about 5%):
 * - `mulQ16` uses the WGSL's 16-bit pieces with `Math.imul`, so values stay 32-bit integers
 *   instead of going through a double multiply, divide and floor: 4.6 -> 5.2 M / 6.2 -> 7.6 M.
 * - A step samples the next position's corner heights once and hands them to the next step, where
 *   the WGSL reads them again: 5.2 -> 5.5 M / 7.6 -> 8.0 M. Handing on the height there as well
 *   (later, once the passes below were in): 7.5 -> 8.7 M / 10.0 -> 11.7 M.
 * - Brush cuts by equal-weight groups and twin pairs (`BrushLayout`): 5.6 -> 8.2 M (radius 3).
 * - The three passes (the split alone changed nothing measurable; it is what the next two build on).
 * - Parameters and module constants as 32-bit integer locals (`| 0`) at the top of each pass: a
 *   value read from an object stays a tagged value that V8 re-checks at every use in a loop, and a
 *   bundler turns a module constant into a `var` that is reloaded at every use (pass 1 alone: 12.5
 *   -> 14.2 M; radius 0: 8.3 -> 10.0 M).
 * - Three functions rather than one: V8 stops inlining into a function once it has inlined about
 *   900 bytes of bytecode, and the single loop had run past that, leaving `mulQ16`, `addBilinear`
 *   and the brush as calls: 8.7 -> 9.0 M / 11.7 -> 13.0 M.
 * - Brush quads (four entries of one weight per loop iteration): 8.6 -> 9.5 M (radius 3).
 * - Droplets in the order of the tile they spawn in (`spawnInTileOrder`), so that consecutive walks
 *   reuse cached heights and deltas: 9.5 -> 10.1 M at 512^2, 7.0 -> 10.2 M at 1024^2.
 * - Tried and dropped: walking droplet n + 1 in the same loop as eroding droplet n (to overlap
 *   their dependency chains), branch-free normalisation through a table of powers of two, and
 *   unsigned bounds checks; none was faster.
 * None of this changes a single integer: the golden fingerprints and the GPU parity tests pin the
 * results, and the CPU reference stays the definition of the contract.
 */
import { COUNTER_DROPLET_STEPS, COUNTER_OUTFLOW } from "../counters.js";
import { MAX_SHARE_SHIFT, type BatchParams } from "../batchParams.js";
import { BRUSH_ENTRY_INTS } from "../brush.js";
import { FIXED_ONE, SATURATION_LIMIT, mulQ16, mulQ16Sat, sqrtQ16 } from "../fixedPoint.js";
import { hash4 } from "../hash.js";
import { discDirection } from "../localErosion.js";

/** a x c / 2^16 for a >= 0 and a Q16 cosine or sine c of either sign (truncating toward zero). Mirrors WGSL. */
function signedMulQ16(a: number, c: number): number {
    return c >= 0 ? mulQ16(a, c) : -mulQ16(a, -c);
}
import { addBilinear, addBilinearMasked } from "./bilinear.js";

// Math's functions as module constants: a global lookup of `Math` is twenty times slower in a
// vm context (jest's test environment, some worker sandboxes) and these run per droplet step.
const { abs, clz32, max, min, sqrt } = Math;

/** Largest gradient component a droplet uses, in fixed-point metres per cell (2^30). */
export const GRADIENT_LIMIT = 2 ** 30;

/**
 * Runs droplets `firstDroplet .. endDroplet - 1` of a batch (all of them by default).
 * @param params the batch's parameters
 * @param heights fixed-point heights, read only
 * @param delta fixed-point change accumulator, added to
 * @param brush brush table (`buildBrush`), empty for radius 0
 * @param counters counters, added to (`COUNTER_*` indices)
 * @param water per-batch water visits, added to (each step counts 1 at the vertex nearest where it starts), or null
 * @param mask per-vertex Q16 mask scaling what each step cuts and lays down at each vertex, or null
 */
export function erodeDroplets(params: BatchParams, heights: Int32Array, delta: Int32Array, brush: Int32Array, counters: Float64Array, firstDroplet = 0, endDroplet = params.dropletCount, water: Int32Array | null = null, mask: Int32Array | null = null): void {
    const kernel = new DropletKernel(params, brush);
    const depositAtEnd = params.depositAtEnd !== 0;
    let totalSteps = 0;
    let outflow = 0;
    const spawns = spawnInTileOrder(kernel, firstDroplet, endDroplet);
    for (let index = 0; index < spawns.x.length; index++) {
        walkDroplet(kernel, heights, spawns.x[index], spawns.y[index], water);
        capacityAlongPath(kernel);
        const sediment = mask === null ? erodeAlongPath(kernel, delta) : erodeAlongPathMasked(kernel, delta, mask);
        totalSteps += kernel.steps;
        if (kernel.leftField || !depositAtEnd) {
            outflow += sediment;
        } else if (sediment > 0) {
            addBilinear(delta, kernel.width, kernel.endX, kernel.endY, sediment, 1);
        }
    }
    counters[COUNTER_DROPLET_STEPS] += totalSteps;
    counters[COUNTER_OUTFLOW] += outflow;
}

/**
 * The spawn positions (Q16 cells) of droplets `firstDroplet .. endDroplet - 1`, in the order of the
 * 32 x 32-cell tile they spawn in (row by row; by index within a tile). The order droplets run in
 * changes no result (their changes add up), and neighbours in this order walk over the same cache
 * lines of `heights` and `delta`. Spawning here, once, also keeps the hashing out of the walk: V8
 * inlines only so much into one function, and the hashes had sometimes taken the place of the
 * walk's `mulQ16` calls, leaving a whole process about 20% slower.
 */
function spawnInTileOrder(kernel: DropletKernel, firstDroplet: number, endDroplet: number): { x: Int32Array; y: Int32Array } {
    const count = endDroplet - firstDroplet;
    const tileColumns = ((kernel.width - 1) >> TILE_SHIFT) + 1;
    const tiles = tileColumns * (((kernel.depth - 1) >> TILE_SHIFT) + 1);
    const spawnX = new Int32Array(count);
    const spawnY = new Int32Array(count);
    const tileOf = new Int32Array(count);
    const start = new Int32Array(tiles + 1);
    let spawned = 0;
    for (let i = 0; i < count; i++) {
        const dropletId = firstDroplet + i;
        const hashX = hash4(kernel.seed, kernel.cycle, kernel.patchIndex, (2 * dropletId) >>> 0);
        const hashY = hash4(kernel.seed, kernel.cycle, kernel.patchIndex, (2 * dropletId + 1) >>> 0);
        let x: number;
        let y: number;
        if (kernel.disc === null) {
            x = kernel.spawnX0 + (hashX % kernel.spanX);
            y = kernel.spawnY0 + (hashY % kernel.spanY);
        } else {
            // A local event's disc: radius x sqrt(u) out at angle a (docs in localErosion.ts).
            const distance = mulQ16(kernel.disc.radius, sqrtQ16(hashX >>> 16));
            const [cosine, sine] = discDirection(hashY >>> 24);
            x = kernel.disc.centreX + signedMulQ16(distance, cosine);
            y = kernel.disc.centreY + signedMulQ16(distance, sine);
            if (x < 0 || y < 0 || x >= (kernel.width - 1) * FIXED_ONE || y >= (kernel.depth - 1) * FIXED_ONE) {
                continue; // starts outside the field: skipped, as the WGSL does
            }
        }
        spawnX[spawned] = x;
        spawnY[spawned] = y;
        const tile = (y >> (16 + TILE_SHIFT)) * tileColumns + (x >> (16 + TILE_SHIFT));
        tileOf[spawned++] = tile;
        start[tile + 1]++;
    }
    for (let tile = 0; tile < tiles; tile++) {
        start[tile + 1] += start[tile];
    }
    const x = new Int32Array(spawned);
    const y = new Int32Array(spawned);
    for (let i = 0; i < spawned; i++) {
        const slot = start[tileOf[i]]++;
        x[slot] = spawnX[i];
        y[slot] = spawnY[i];
    }
    return { x, y };
}

const TILE_SHIFT = 5;

/** A batch's parameters as the three passes read them, and the path of the droplet in progress. */
class DropletKernel {
    public readonly width: number;
    public readonly depth: number;
    public readonly spawnX0: number;
    public readonly spawnY0: number;
    public readonly spanX: number;
    public readonly spanY: number;
    public readonly seed: number;
    public readonly cycle: number;
    public readonly patchIndex: number;
    public readonly inertia: number;
    public readonly capacity: number;
    public readonly minSlope: number;
    public readonly erosion: number;
    public readonly deposition: number;
    public readonly gravity: number;
    public readonly share: number;
    public readonly stepCap: number;
    public readonly initialSpeed: number;
    public readonly brushRadius: number;
    /** A local event's disc (Q16 cells), or null to spawn over the rectangle. */
    public readonly disc: { centreX: number; centreY: number; radius: number } | null;
    /** The brush, or null for radius 0 (bilinear cuts). */
    public readonly brush: BrushLayout | null;
    /**
     * Water during step k. Water follows the same sequence on every walk (initialWater, then x
     * waterRetained each step), so it is worked out once per batch.
     */
    public readonly waterAt: Int32Array;
    /** Steps after which the WGSL's `water < minWater` check ends every walk (at most maxSteps). */
    public readonly walkLimit: number;

    // The droplet in progress. Per step that goes on to erode or deposit: where it starts, its
    // drop (negative going downhill) and the droplet's carrying capacity.
    public readonly pathX: Int32Array;
    public readonly pathY: Int32Array;
    public readonly pathDrop: Int32Array;
    public readonly pathCarry: Int32Array;
    /** Steps taken (as the WGSL counts them). */
    public steps = 0;
    /** Steps that go on to erode or deposit (the last one does not when the droplet left the field). */
    public erodingSteps = 0;
    public leftField = false;
    /** Where the walk ended. */
    public endX = 0;
    public endY = 0;

    constructor(params: BatchParams, brush: Int32Array) {
        this.width = params.width;
        this.depth = params.depth;
        this.spawnX0 = params.spawnX0 * FIXED_ONE;
        this.spawnY0 = params.spawnY0 * FIXED_ONE;
        this.spanX = (params.spawnX1 - params.spawnX0) * FIXED_ONE;
        this.spanY = (params.spawnY1 - params.spawnY0) * FIXED_ONE;
        this.seed = params.seed >>> 0;
        this.cycle = params.cycle >>> 0;
        this.patchIndex = params.patchIndex >>> 0;
        this.inertia = params.inertia;
        this.capacity = params.capacity;
        this.minSlope = params.minSlope;
        this.erosion = params.erosion;
        this.deposition = params.deposition;
        this.gravity = params.gravity;
        this.share = params.share;
        this.stepCap = params.stepCap;
        this.initialSpeed = params.initialSpeed;
        this.brushRadius = params.brushRadius;
        this.disc = params.spawnDisc !== 0 ? { centreX: params.discCentreX, centreY: params.discCentreY, radius: params.discRadius } : null;
        this.brush = params.brushCount > 0 ? new BrushLayout(brush, params.brushCount, params.width) : null;
        const maxSteps = params.maxSteps;
        this.waterAt = new Int32Array(maxSteps);
        let walkLimit = 0;
        for (let water = params.initialWater; walkLimit < maxSteps; ) {
            this.waterAt[walkLimit++] = water;
            water = mulQ16(water, params.waterRetained);
            if (water < params.minWater) {
                break;
            }
        }
        this.walkLimit = walkLimit;
        this.pathX = new Int32Array(maxSteps);
        this.pathY = new Int32Array(maxSteps);
        this.pathDrop = new Int32Array(maxSteps);
        this.pathCarry = new Int32Array(maxSteps);
    }
}

/** Pass 1: traces the walk of a droplet spawned at (spawnX, spawnY) into `kernel`'s path (and its visits into `water`). */
function walkDroplet(kernel: DropletKernel, heights: Int32Array, spawnX: number, spawnY: number, water: Int32Array | null): void {
    const fixedOne = FIXED_ONE | 0;
    const gradientLimit = GRADIENT_LIMIT | 0;
    const width = kernel.width | 0;
    const limitX = ((width - 1) * fixedOne) | 0;
    const limitY = ((kernel.depth - 1) * fixedOne) | 0;
    const inertia = kernel.inertia | 0;
    const gradientWeight = fixedOne - inertia;
    const walkLimit = kernel.walkLimit | 0;
    const pathX = kernel.pathX;
    const pathY = kernel.pathY;
    const pathDrop = kernel.pathDrop;

    let px = spawnX | 0;
    let py = spawnY | 0;
    let dirX = 0;
    let dirY = 0;
    let leftField = false;
    let steps = 0;
    // The corner heights of the cell under the droplet and the height there. The WGSL reads them
    // at the top of every step; here each step hands on what it sampled at the next position.
    const i00 = (py >> 16) * width + (px >> 16);
    let fx = px & 0xffff;
    let fy = py & 0xffff;
    let h00 = heights[i00];
    let h10 = heights[i00 + 1];
    let h01 = heights[i00 + width];
    let h11 = heights[i00 + width + 1];
    const h0 = h00 + mulQ16(h10 - h00, fx);
    const h1 = h01 + mulQ16(h11 - h01, fx);
    let heightHere = h0 + mulQ16(h1 - h0, fy);

    while (steps < walkLimit) {
        let gradX = mulQ16(h10 - h00, fixedOne - fy) + mulQ16(h11 - h01, fy);
        let gradY = mulQ16(h01 - h00, fixedOne - fx) + mulQ16(h11 - h10, fx);
        gradX = gradX > gradientLimit ? gradientLimit : gradX < -gradientLimit ? -gradientLimit : gradX;
        gradY = gradY > gradientLimit ? gradientLimit : gradY < -gradientLimit ? -gradientLimit : gradY;

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
        // isqrt32: the root is positive, so `| 0` floors it.
        const length = sqrt(reducedX * reducedX + reducedY * reducedY) | 0;
        dirX = ((reducedX * fixedOne) / length) | 0;
        dirY = ((reducedY * fixedOne) / length) | 0;

        const nextX = px + dirX;
        const nextY = py + dirY;
        steps++;
        if (water !== null) {
            water[((py + 0x8000) >> 16) * width + ((px + 0x8000) >> 16)]++;
        }
        if (nextX < 0 || nextY < 0 || nextX >= limitX || nextY >= limitY) {
            leftField = true;
            break;
        }
        // sampleHeight(nextX, nextY), keeping the corners for the next step.
        const nextI00 = (nextY >> 16) * width + (nextX >> 16);
        const nextFx = nextX & 0xffff;
        const nextFy = nextY & 0xffff;
        const n00 = heights[nextI00];
        const n10 = heights[nextI00 + 1];
        const n01 = heights[nextI00 + width];
        const n11 = heights[nextI00 + width + 1];
        const n0 = n00 + mulQ16(n10 - n00, nextFx);
        const n1 = n01 + mulQ16(n11 - n01, nextFx);
        const heightNext = n0 + mulQ16(n1 - n0, nextFy);

        pathX[steps - 1] = px;
        pathY[steps - 1] = py;
        pathDrop[steps - 1] = heightNext - heightHere;
        px = nextX;
        py = nextY;
        fx = nextFx;
        fy = nextFy;
        h00 = n00;
        h10 = n10;
        h01 = n01;
        h11 = n11;
        heightHere = heightNext;
    }
    kernel.steps = steps;
    kernel.erodingSteps = leftField ? steps - 1 : steps;
    kernel.leftField = leftField;
    kernel.endX = px;
    kernel.endY = py;
}

/** Pass 2: the droplet's carrying capacity at each step of its path, from its speed and water there. */
function capacityAlongPath(kernel: DropletKernel): void {
    const saturationLimit = SATURATION_LIMIT | 0;
    const minSlope = kernel.minSlope | 0;
    const capacity = kernel.capacity | 0;
    const share = kernel.share | 0;
    const gravity = kernel.gravity | 0;
    const erodingSteps = kernel.erodingSteps | 0;
    const waterAt = kernel.waterAt;
    const pathDrop = kernel.pathDrop;
    const pathCarry = kernel.pathCarry;
    let speed = kernel.initialSpeed | 0;
    for (let step = 0; step < erodingSteps; step++) {
        const drop = pathDrop[step];
        // 0 - drop rather than -drop: the same integer, but never -0, which V8 would leave the
        // 32-bit integer path for (a deoptimisation on the first flat step).
        let carry = mulQ16Sat(max(0 - drop, minSlope), speed);
        carry = mulQ16Sat(carry, waterAt[step]);
        carry = mulQ16Sat(carry, capacity);
        pathCarry[step] = mulQ16(carry, share);

        // Physical sign: descending (drop < 0) speeds the droplet up; seed 002's pseudocode has
        // it backwards. Speed^2 is floored at zero as in seed 000.
        let speedSquared = mulQ16Sat(speed, speed);
        const gained = mulQ16Sat(abs(drop), gravity);
        speedSquared = drop < 0 ? min(speedSquared + gained, saturationLimit) : max(speedSquared - gained, 0);
        speed = sqrtQ16(speedSquared);
    }
}

/** Pass 3: erodes and deposits along the droplet's path; returns the sediment it still carries. */
function erodeAlongPath(kernel: DropletKernel, delta: Int32Array): number {
    const maxShareShift = MAX_SHARE_SHIFT | 0;
    const width = kernel.width | 0;
    const depth = kernel.depth | 0;
    const share = kernel.share | 0;
    const erosion = kernel.erosion | 0;
    const deposition = kernel.deposition | 0;
    const stepCap = kernel.stepCap | 0;
    const brushRadius = kernel.brushRadius | 0;
    const brush = kernel.brush;
    const erodingSteps = kernel.erodingSteps | 0;
    const pathX = kernel.pathX;
    const pathY = kernel.pathY;
    const pathDrop = kernel.pathDrop;
    const pathCarry = kernel.pathCarry;
    let sediment = 0;
    for (let step = 0; step < erodingSteps; step++) {
        const drop = pathDrop[step];
        const carry = pathCarry[step];
        // What the step lays down (sign 1) or picks up bilinearly (sign -1).
        let amount = 0;
        let sign = 1;
        if (sediment > carry || drop > 0) {
            // Deposit: fill (at most a quarter of) the rise, or lay down part of the surplus.
            amount = drop > 0 ? min(sediment, mulQ16(drop >> maxShareShift, share)) : mulQ16(sediment - carry, deposition);
            amount = min(amount, stepCap);
            sediment -= amount > 0 ? amount : 0;
        } else {
            // Erode: pick up part of the deficit, never more than a quarter of the drop.
            amount = min(mulQ16(carry - sediment, erosion), mulQ16(-drop >> maxShareShift, share));
            amount = min(amount, stepCap);
            if (amount > 0 && brush !== null) {
                sediment += cutWithBrush(delta, width, depth, pathX[step], pathY[step], amount, brushRadius, brush);
                amount = 0; // done
            } else {
                sediment += amount > 0 ? amount : 0;
                sign = -1;
            }
        }
        if (amount > 0) {
            addBilinear(delta, width, pathX[step], pathY[step], amount, sign);
        }
    }
    return sediment;
}

/**
 * Pass 3 under a mask (seed 003's semantics): each part a step cuts or lays down at a vertex is
 * scaled by the mask there, and what the mask declines stays where it was, in the ground or in the
 * droplet, so a droplet carries its load across ground the mask holds out. The parts are computed
 * exactly as without a mask, so a mask of ones (65536 everywhere) changes nothing. Mirrors the
 * masked branches of `erode_droplets.wgsl`.
 */
function erodeAlongPathMasked(kernel: DropletKernel, delta: Int32Array, mask: Int32Array): number {
    const width = kernel.width;
    const depth = kernel.depth;
    let sediment = 0;
    for (let step = 0; step < kernel.erodingSteps; step++) {
        const drop = kernel.pathDrop[step];
        const carry = kernel.pathCarry[step];
        const px = kernel.pathX[step];
        const py = kernel.pathY[step];
        if (sediment > carry || drop > 0) {
            let amount = drop > 0 ? min(sediment, mulQ16(drop >> MAX_SHARE_SHIFT, kernel.share)) : mulQ16(sediment - carry, kernel.deposition);
            amount = min(amount, kernel.stepCap);
            if (amount > 0) {
                sediment -= addBilinearMasked(delta, mask, width, px, py, amount, 1);
            }
        } else {
            let amount = min(mulQ16(carry - sediment, kernel.erosion), mulQ16(-drop >> MAX_SHARE_SHIFT, kernel.share));
            amount = min(amount, kernel.stepCap);
            if (amount > 0) {
                sediment += kernel.brush === null ? addBilinearMasked(delta, mask, width, px, py, amount, -1) : cutWithBrushMasked(delta, mask, width, depth, px, py, amount, kernel.brush);
            }
        }
    }
    return sediment;
}

/** `cutWithBrush` with each entry's part scaled by the mask at its vertex; returns what was cut. */
function cutWithBrushMasked(delta: Int32Array, mask: Int32Array, width: number, depth: number, px: number, py: number, amount: number, brush: BrushLayout): number {
    const centreX = (px + 0x8000) >> 16;
    const centreY = (py + 0x8000) >> 16;
    const count = brush.weight.length;
    let remainder = amount;
    let cut = 0;
    for (let k = 1; k < count; k++) {
        const part = mulQ16(amount, brush.weight[k]);
        remainder -= part;
        const x = centreX + brush.dx[k];
        const y = centreY + brush.dy[k];
        if (x >= 0 && y >= 0 && x < width && y < depth) {
            const masked = mulQ16(part, mask[y * width + x]);
            delta[y * width + x] -= masked;
            cut += masked;
        }
    }
    const centre = centreY * width + centreX;
    const maskedRemainder = mulQ16(remainder, mask[centre]);
    delta[centre] -= maskedRemainder;
    return cut + maskedRemainder;
}

/**
 * The brush as the droplet loop uses it (built once per batch). Three things make a cut cheaper
 * than walking the table entry by entry, without changing what any vertex gets:
 * - Entries of equal weight (the same distance from the centre) share one part, computed once.
 * - The brush is symmetric through its centre: the entry at (dx, dy) has a twin at (-dx, -dy) with
 *   the same weight, so one offset of the vertex index, dy * width + dx, serves both
 *   (`centre + offset` and `centre - offset`).
 * - Equal-weight entries come in whole orbits of the brush's symmetries (4 or 8 entries), so they
 *   can be taken four at a time: a quad is two twin pairs of one weight.
 * For radius 3 that is 7 quads (7 parts, 7 loop iterations) instead of 28 entries.
 */
class BrushLayout {
    public readonly dx: Int32Array;
    public readonly dy: Int32Array;
    public readonly weight: Int32Array;
    /**
     * Two pairs of twin entries of equal weight per quad: for each pair, dy * width + dx of the entry
     * with dy > 0, or dy = 0 and dx > 0 (its twin is at minus that offset).
     */
    public readonly quadOffsets: Int32Array;
    /** The weight of each quad's four entries. */
    public readonly quadWeight: Int32Array;

    constructor(brush: Int32Array, count: number, width: number) {
        this.dx = new Int32Array(count);
        this.dy = new Int32Array(count);
        this.weight = new Int32Array(count);
        for (let k = 0; k < count; k++) {
            this.dx[k] = brush[k * BRUSH_ENTRY_INTS];
            this.dy[k] = brush[k * BRUSH_ENTRY_INTS + 1];
            this.weight[k] = brush[k * BRUSH_ENTRY_INTS + 2];
        }
        const groups = new Map<number, number[]>();
        for (let k = 1; k < count; k++) {
            if (this.dy[k] > 0 || (this.dy[k] === 0 && this.dx[k] > 0)) {
                const pairs = groups.get(this.weight[k]) ?? [];
                pairs.push(this.dy[k] * width + this.dx[k]);
                groups.set(this.weight[k], pairs);
            }
        }
        this.quadOffsets = new Int32Array((count - 1) / 2);
        this.quadWeight = new Int32Array((count - 1) / 4);
        let pair = 0;
        for (const [weight, offsets] of groups) {
            // A group holds whole orbits of the brush's symmetries (2 or 4 pairs each), so an even
            // number of pairs, which `cutInsideField` takes two at a time.
            if (offsets.length % 2 !== 0) {
                throw new Error("Internal error: a brush group has an odd number of twin pairs.");
            }
            for (const offset of offsets) {
                this.quadWeight[pair >> 1] = weight;
                this.quadOffsets[pair++] = offset;
            }
        }
    }
}

/**
 * Cuts `amount` from the vertices of the brush centred on the vertex nearest (px, py); returns
 * what was cut (vertices outside the field are skipped). Mirrors `cutWithBrush` in WGSL: every
 * entry but the centre takes floor(amount * weight / 2^16), the centre takes the rest.
 */
function cutWithBrush(delta: Int32Array, width: number, depth: number, px: number, py: number, amount: number, radius: number, brush: BrushLayout): number {
    const centreX = (px + 0x8000) >> 16;
    const centreY = (py + 0x8000) >> 16;
    if (centreX >= radius && centreY >= radius && centreX + radius < width && centreY + radius < depth) {
        cutInsideField(delta, centreY * width + centreX, amount, brush.quadOffsets, brush.quadWeight);
        return amount;
    }
    return cutNearEdge(delta, width, depth, centreX, centreY, amount, brush);
}

/** `cutWithBrush` for a brush wholly inside the field, four entries of equal weight at a time (`BrushLayout`). */
function cutInsideField(delta: Int32Array, centre: number, amount: number, quadOffsets: Int32Array, quadWeight: Int32Array): void {
    let remainder = amount;
    for (let quad = 0; quad < quadWeight.length; quad++) {
        const part = mulQ16(amount, quadWeight[quad]);
        const first = quadOffsets[2 * quad];
        const second = quadOffsets[2 * quad + 1];
        delta[centre + first] -= part;
        delta[centre - first] -= part;
        delta[centre + second] -= part;
        delta[centre - second] -= part;
        remainder -= 4 * part;
    }
    delta[centre] -= remainder;
}

/** `cutWithBrush` for a brush that reaches past the field's edge: entry by entry, as the WGSL does. */
function cutNearEdge(delta: Int32Array, width: number, depth: number, centreX: number, centreY: number, amount: number, brush: BrushLayout): number {
    const count = brush.weight.length;
    let remainder = amount;
    let cut = 0;
    for (let k = 1; k < count; k++) {
        const part = mulQ16(amount, brush.weight[k]);
        remainder -= part;
        const x = centreX + brush.dx[k];
        const y = centreY + brush.dy[k];
        if (x >= 0 && y >= 0 && x < width && y < depth) {
            delta[y * width + x] -= part;
            cut += part;
        }
    }
    delta[centreY * width + centreX] -= remainder;
    return cut + remainder;
}
