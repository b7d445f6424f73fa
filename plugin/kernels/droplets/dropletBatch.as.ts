/**
 * The CPU droplet kernel (`erodeDroplets.ts` and the `droplet*.ts` beside it) in
 * AssemblyScript, compiled to WebAssembly by `scripts/build-wasm.mjs`: the same integers, rule for
 * rule and in the same order, as the TypeScript passes, which stay the reference, the fallback
 * where WebAssembly cannot run, and the place whose comments say why each rule is there. Tests
 * compare the two on every path (brush radii, masks, water visits, the field's edges, local
 * events' discs, windows).
 *
 * Why a second copy: the issue asks the walk for 0.75x the plain-JavaScript float walk in every
 * process, and the TypeScript walk stood at 0.71-0.78x (bench/README.md): V8 guards each typed
 * array access (map, length, backing pointer), and how it inlines the three passes changes from
 * process to process. Here an access is one load off the linear memory, and the code is the same
 * in every process.
 *
 * Memory: a control block of 32-bit words at address 0 (the `C_` constants; the glue,
 * `dropletBatchWasm.ts`, writes the same indices), the glue's grids and tables from
 * `--memoryBase` on. The grids are a window of the field (the droplets' spawns grown by how far a
 * droplet can reach), `C_STRIDE` vertices wide; positions are Q16 cells from the window's corner,
 * and the field's edges, in the same frame, are `C_FIELD_X0` .. `C_FIELD_Y1` (cells). Wasm
 * arithmetic wraps at 32 bits as `| 0` and `Math.imul` do, its i32 division truncates as `/` then
 * `| 0` does on these operands, and f64 is IEEE double as in JavaScript, so every rule gives the
 * same integer.
 */

import { FIXED_ONE, getI32, maxI32, minI32, mulQ16, mulQ16Sat, setI32 } from "../fixedPoint.as";
import { materialCut } from "../materials.as";

// Constants of the TypeScript modules the kernel reads, their values written out (AssemblyScript
// compiles apart from them). `wasmSources.test.ts` checks them against the modules.
export const GRADIENT_LIMIT: i32 = 1073741824;
export const SATURATION_LIMIT: i32 = 0x3fffffff;
export const MAX_SHARE_SHIFT: i32 = 2;

// The control block's words (`dropletBatchWasm.ts` writes them).
const C_HEIGHTS: i32 = 0;
const C_DELTA: i32 = 1;
const C_WATER: i32 = 2;
const C_MASK: i32 = 3;
const C_SPAWN_X: i32 = 4;
const C_SPAWN_Y: i32 = 5;
const C_WATER_AT: i32 = 6;
const C_QUAD_OFFSETS: i32 = 7;
const C_QUAD_WEIGHTS: i32 = 8;
const C_QUADS: i32 = 9;
const C_BRUSH_DX: i32 = 10;
const C_BRUSH_DY: i32 = 11;
const C_BRUSH_WEIGHTS: i32 = 12;
const C_BRUSH_COUNT: i32 = 13;
const C_STRIDE: i32 = 14;
const C_FIELD_X0: i32 = 15;
const C_FIELD_Y0: i32 = 16;
const C_FIELD_X1: i32 = 17;
const C_FIELD_Y1: i32 = 18;
const C_INERTIA: i32 = 19;
const C_CAPACITY: i32 = 20;
const C_MIN_SLOPE: i32 = 21;
const C_EROSION: i32 = 22;
const C_DEPOSITION: i32 = 23;
const C_GRAVITY: i32 = 24;
const C_SHARE: i32 = 25;
const C_STEP_CAP: i32 = 26;
const C_INITIAL_SPEED: i32 = 27;
const C_BRUSH_RADIUS: i32 = 28;
const C_HAS_BRUSH: i32 = 29;
const C_WALK_LIMIT: i32 = 30;
const C_DEPOSIT_AT_END: i32 = 31;
const C_RESULTS: i32 = 32;
const C_MATERIALS: i32 = 33;

@inline function control(word: i32): i32 { return load<i32>(word << 2); }

// The change and the mask lie in one grid of cells of 4 bytes without a mask, 8 with one (the
// change, then its mask: a cut's read of the mask shares the cache line of its write to the
// change); with the materials, 12 without a mask (the change, the soil, the rock's hardness the
// batch started from: `MaterialCuts`; not 16 with a mask of 65536, which cost a quarter more bytes
// and a mask's load and product per cut), 16 with one. The functions that touch the change take
// the cell as a type, i32 (4), i64 (8), f64 (12: a marker, never loaded as one) or v128 (16), so
// each is compiled per layout with the cell's size a constant (read from the control block, it
// cost the unmasked walk 3-4%).
@inline function cellBytes<Cell>(): i32 { return isFloat<Cell>() ? 12 : sizeof<Cell>(); }
@inline function hasMaterials<Cell>(): bool { return isFloat<Cell>() || sizeof<Cell>() == 16; }
@inline function getCell<Cell>(grid: i32, i: i32): i32 { return load<i32>(grid + i * cellBytes<Cell>()); }
@inline function setCell<Cell>(grid: i32, i: i32, value: i32): void { store<i32>(grid + i * cellBytes<Cell>(), value); }

/**
 * With the materials, what a step that would cut `moved` (already masked) at vertex i cuts: the soil
 * first, then the rock at 1 / hardness (`MaterialCuts.cut`); `moved` without them, or if not positive.
 */
@inline function cellMaterialCut<Cell>(delta: i32, i: i32, moved: i32): i32 {
    if (!hasMaterials<Cell>() || moved <= 0) return moved;
    const cell = delta + i * cellBytes<Cell>();
    const soilAt = cellBytes<Cell>() - 8;
    // Most parts a brush cuts are within the soil: the hardness is loaded only for those that are not.
    const soil = load<i32>(cell + soilAt);
    return moved <= soil ? moved : materialCut(moved, soil, load<i32>(cell + soilAt + 4));
}

/** `sqrtQ16` (fixedPoint.ts). */
@inline function sqrtQ16(x: i32): i32 {
    if (x <= 0) return 0;
    const leadingZeros = <i32>clz<i32>(x);
    const shift = leadingZeros >= 16 ? 16 : leadingZeros & ~1;
    return <i32>Math.sqrt(<f64>x * <f64>(1 << shift)) << ((16 - shift) >> 1);
}

/** `addBilinear` (bilinear.ts) in the window; with a mask (not 0) `addBilinearMasked`. Returns what was moved. */
@inline function addBilinear<Cell>(delta: i32, mask: i32, width: i32, px: i32, py: i32, amount: i32, sign: i32): i32 {
    const i00 = (py >> 16) * width + (px >> 16);
    const fx = px & 0xffff;
    const fy = py & 0xffff;
    const w00 = mulQ16(FIXED_ONE - fx, FIXED_ONE - fy);
    const w10 = mulQ16(fx, FIXED_ONE - fy);
    const w01 = mulQ16(FIXED_ONE - fx, fy);
    let p00 = mulQ16(amount, w00);
    let p10 = mulQ16(amount, w10);
    let p01 = mulQ16(amount, w01);
    let p11 = amount - p00 - p10 - p01;
    if (mask != 0) {
        p00 = mulQ16(p00, getCell<Cell>(mask, i00));
        p10 = mulQ16(p10, getCell<Cell>(mask, i00 + 1));
        p01 = mulQ16(p01, getCell<Cell>(mask, i00 + width));
        p11 = mulQ16(p11, getCell<Cell>(mask, i00 + width + 1));
    }
    if (sign < 0) {
        p00 = cellMaterialCut<Cell>(delta, i00, p00);
        p10 = cellMaterialCut<Cell>(delta, i00 + 1, p10);
        p01 = cellMaterialCut<Cell>(delta, i00 + width, p01);
        p11 = cellMaterialCut<Cell>(delta, i00 + width + 1, p11);
    }
    setCell<Cell>(delta, i00, getCell<Cell>(delta, i00) + sign * p00);
    setCell<Cell>(delta, i00 + 1, getCell<Cell>(delta, i00 + 1) + sign * p10);
    setCell<Cell>(delta, i00 + width, getCell<Cell>(delta, i00 + width) + sign * p01);
    setCell<Cell>(delta, i00 + width + 1, getCell<Cell>(delta, i00 + width + 1) + sign * p11);
    return p00 + p10 + p01 + p11;
}

/** Subtracts `amount` at vertex `i`, scaled by the mask there when there is one (not 0); returns what it took. */
@inline function take<Cell>(delta: i32, mask: i32, i: i32, amount: i32): i32 {
    const taken = cellMaterialCut<Cell>(delta, i, mask == 0 ? amount : mulQ16(amount, getCell<Cell>(mask, i)));
    setCell<Cell>(delta, i, getCell<Cell>(delta, i) - taken);
    return taken;
}

/** `take` under a mask. */
@inline function takeMasked<Cell>(delta: i32, mask: i32, i: i32, amount: i32): i32 {
    const taken = cellMaterialCut<Cell>(delta, i, mulQ16(amount, getCell<Cell>(mask, i)));
    setCell<Cell>(delta, i, getCell<Cell>(delta, i) - taken);
    return taken;
}

/** `cutWithBrush` (dropletBrush.ts), and with a mask (not 0) `cutWithBrushMasked`: returns what was cut. */
function cutWithBrush<Cell>(delta: i32, mask: i32, px: i32, py: i32, amount: i32): i32 {
    const width = control(C_STRIDE);
    const fieldX0 = control(C_FIELD_X0);
    const fieldY0 = control(C_FIELD_Y0);
    const fieldX1 = control(C_FIELD_X1);
    const fieldY1 = control(C_FIELD_Y1);
    const radius = control(C_BRUSH_RADIUS);
    const centreX = (px + 0x8000) >> 16;
    const centreY = (py + 0x8000) >> 16;
    const centre = centreY * width + centreX;
    let remainder = amount;
    let cut = 0;
    if (centreX - fieldX0 >= radius && centreY - fieldY0 >= radius && centreX + radius < fieldX1 && centreY + radius < fieldY1) {
        // Inside the field: four entries of one weight at a time (`BrushLayout`).
        const offsets = control(C_QUAD_OFFSETS);
        const weights = control(C_QUAD_WEIGHTS);
        const quads = control(C_QUADS);
        if (mask == 0 && hasMaterials<Cell>()) {
            // Each entry's part through its soil and hardness (`MaterialCuts.cutBrush`), summed.
            for (let quad = 0; quad < quads; quad++) {
                const part = mulQ16(amount, getI32(weights, quad));
                const first = getI32(offsets, 2 * quad);
                const second = getI32(offsets, 2 * quad + 1);
                cut += take<Cell>(delta, 0, centre + first, part);
                cut += take<Cell>(delta, 0, centre - first, part);
                cut += take<Cell>(delta, 0, centre + second, part);
                cut += take<Cell>(delta, 0, centre - second, part);
                remainder -= 4 * part;
            }
            return cut + take<Cell>(delta, 0, centre, remainder);
        }
        if (mask == 0) {
            // `cutInsideField`: everything is cut, and the loop carries no sum.
            for (let quad = 0; quad < quads; quad++) {
                const part = mulQ16(amount, getI32(weights, quad));
                const first = centre + getI32(offsets, 2 * quad);
                const twin = centre - getI32(offsets, 2 * quad);
                const second = centre + getI32(offsets, 2 * quad + 1);
                const secondTwin = centre - getI32(offsets, 2 * quad + 1);
                setCell<Cell>(delta, first, getCell<Cell>(delta, first) - part);
                setCell<Cell>(delta, twin, getCell<Cell>(delta, twin) - part);
                setCell<Cell>(delta, second, getCell<Cell>(delta, second) - part);
                setCell<Cell>(delta, secondTwin, getCell<Cell>(delta, secondTwin) - part);
                remainder -= 4 * part;
            }
            setCell<Cell>(delta, centre, getCell<Cell>(delta, centre) - remainder);
            return amount;
        }
        for (let quad = 0; quad < quads; quad++) {
            const part = mulQ16(amount, getI32(weights, quad));
            const first = getI32(offsets, 2 * quad);
            const second = getI32(offsets, 2 * quad + 1);
            cut += takeMasked<Cell>(delta, mask, centre + first, part);
            cut += takeMasked<Cell>(delta, mask, centre - first, part);
            cut += takeMasked<Cell>(delta, mask, centre + second, part);
            cut += takeMasked<Cell>(delta, mask, centre - second, part);
            remainder -= 4 * part;
        }
        return cut + takeMasked<Cell>(delta, mask, centre, remainder);
    }
    // Near the field's edge: entry by entry, skipping those outside (`cutNearEdge`).
    const dxs = control(C_BRUSH_DX);
    const dys = control(C_BRUSH_DY);
    const brushWeights = control(C_BRUSH_WEIGHTS);
    const count = control(C_BRUSH_COUNT);
    for (let k = 1; k < count; k++) {
        const part = mulQ16(amount, getI32(brushWeights, k));
        remainder -= part;
        const x = centreX + getI32(dxs, k);
        const y = centreY + getI32(dys, k);
        if (x >= fieldX0 && y >= fieldY0 && x < fieldX1 && y < fieldY1) {
            cut += take<Cell>(delta, mask, y * width + x, part);
        }
    }
    return cut + take<Cell>(delta, mask, centre, remainder);
}

// Where the droplet in progress ended, and whether it left the field.
let endX: i32 = 0;
let endY: i32 = 0;
let leftField: bool = false;

/**
 * One droplet from (spawnX, spawnY): `walkDroplet` (dropletWalk.ts), `capacityAlongPath` and
 * `erodeAlongPath` / `erodeAlongPathMasked` (dropletErosion.ts) in one loop over its steps, as the
 * WGSL runs them. The TypeScript splits them into three passes because V8 stops inlining into a
 * long function; here one loop lets the processor overlap the walk's chain of dependent
 * operations (direction, normalisation, next corners) with the speed's (a square root a step)
 * and the sediment's, which do not depend on each other within a step. Adds the steps to
 * `C_RESULTS`; returns the sediment still carried (`endX`, `endY`, `leftField` say where).
 */
function erodeDroplet<Cell>(spawnX: i32, spawnY: i32, mask: i32): i32 {
    const heights = control(C_HEIGHTS);
    const delta = control(C_DELTA);
    const water = control(C_WATER);
    const width = control(C_STRIDE);
    const lowX = control(C_FIELD_X0) * FIXED_ONE;
    const lowY = control(C_FIELD_Y0) * FIXED_ONE;
    const limitX = (control(C_FIELD_X1) - 1) * FIXED_ONE;
    const limitY = (control(C_FIELD_Y1) - 1) * FIXED_ONE;
    const inertia = control(C_INERTIA);
    const gradientWeight = FIXED_ONE - inertia;
    const walkLimit = control(C_WALK_LIMIT);
    const waterAt = control(C_WATER_AT);
    const minSlope = control(C_MIN_SLOPE);
    const capacity = control(C_CAPACITY);
    const share = control(C_SHARE);
    const gravity = control(C_GRAVITY);
    const erosion = control(C_EROSION);
    const deposition = control(C_DEPOSITION);
    const stepCap = control(C_STEP_CAP);
    const hasBrush = control(C_HAS_BRUSH) != 0;

    let px = spawnX;
    let py = spawnY;
    let dirX = 0;
    let dirY = 0;
    let left = false;
    let steps = 0;
    let speed = control(C_INITIAL_SPEED);
    let sediment = 0;
    const i00 = (py >> 16) * width + (px >> 16);
    let fx = px & 0xffff;
    let fy = py & 0xffff;
    let h00 = getI32(heights, i00);
    let h10 = getI32(heights, i00 + 1);
    let h01 = getI32(heights, i00 + width);
    let h11 = getI32(heights, i00 + width + 1);
    const h0 = h00 + mulQ16(h10 - h00, fx);
    const h1 = h01 + mulQ16(h11 - h01, fx);
    let heightHere = h0 + mulQ16(h1 - h0, fy);

    while (steps < walkLimit) {
        // The walk (`walkDroplet`).
        let gradX = mulQ16(h10 - h00, FIXED_ONE - fy) + mulQ16(h11 - h01, fy);
        let gradY = mulQ16(h01 - h00, FIXED_ONE - fx) + mulQ16(h11 - h10, fx);
        gradX = gradX > GRADIENT_LIMIT ? GRADIENT_LIMIT : gradX < -GRADIENT_LIMIT ? -GRADIENT_LIMIT : gradX;
        gradY = gradY > GRADIENT_LIMIT ? GRADIENT_LIMIT : gradY < -GRADIENT_LIMIT ? -GRADIENT_LIMIT : gradY;
        const wantX = mulQ16(dirX, inertia) - mulQ16(gradX, gradientWeight);
        const wantY = mulQ16(dirY, inertia) - mulQ16(gradY, gradientWeight);
        if ((wantX | wantY) == 0) break;
        const largest = maxI32(abs<i32>(wantX), abs<i32>(wantY));
        const bits = 32 - <i32>clz<i32>(largest);
        let reducedX: i32;
        let reducedY: i32;
        if (bits > 15) {
            reducedX = wantX >> (bits - 15);
            reducedY = wantY >> (bits - 15);
        } else {
            reducedX = wantX << (15 - bits);
            reducedY = wantY << (15 - bits);
        }
        // Each square is below 2^30; their sum may pass 2^31, so it is taken in doubles, as in JavaScript.
        const length = <i32>Math.sqrt(<f64>(reducedX * reducedX) + <f64>(reducedY * reducedY));
        dirX = (reducedX * FIXED_ONE) / length;
        dirY = (reducedY * FIXED_ONE) / length;

        const nextX = px + dirX;
        const nextY = py + dirY;
        if (water != 0) {
            const visit = ((py + 0x8000) >> 16) * width + ((px + 0x8000) >> 16);
            setI32(water, visit, getI32(water, visit) + 1);
        }
        if (nextX < lowX || nextY < lowY || nextX >= limitX || nextY >= limitY) {
            steps++;
            left = true;
            break;
        }
        const nextI00 = (nextY >> 16) * width + (nextX >> 16);
        const nextFx = nextX & 0xffff;
        const nextFy = nextY & 0xffff;
        const n00 = getI32(heights, nextI00);
        const n10 = getI32(heights, nextI00 + 1);
        const n01 = getI32(heights, nextI00 + width);
        const n11 = getI32(heights, nextI00 + width + 1);
        const n0 = n00 + mulQ16(n10 - n00, nextFx);
        const n1 = n01 + mulQ16(n11 - n01, nextFx);
        const heightNext = n0 + mulQ16(n1 - n0, nextFy);
        const drop = heightNext - heightHere;

        // The capacity (`capacityAlongPath`), from the speed before this step's change.
        let carry = mulQ16Sat(maxI32(0 - drop, minSlope), speed);
        carry = mulQ16Sat(carry, getI32(waterAt, steps));
        carry = mulQ16Sat(carry, capacity);
        carry = mulQ16(carry, share);
        let speedSquared = mulQ16Sat(speed, speed);
        const gained = mulQ16Sat(abs<i32>(drop), gravity);
        speedSquared = drop < 0 ? minI32(speedSquared + gained, SATURATION_LIMIT) : maxI32(speedSquared - gained, 0);
        speed = sqrtQ16(speedSquared);

        // The erosion (`erodeAlongPath`, `erodeAlongPathMasked`).
        if (sediment > carry || drop > 0) {
            let amount = drop > 0 ? minI32(sediment, mulQ16(drop >> MAX_SHARE_SHIFT, share)) : mulQ16(sediment - carry, deposition);
            amount = minI32(amount, stepCap);
            if (amount > 0) sediment -= addBilinear<Cell>(delta, mask, width, px, py, amount, 1);
        } else {
            let amount = minI32(mulQ16(carry - sediment, erosion), mulQ16(-drop >> MAX_SHARE_SHIFT, share));
            amount = minI32(amount, stepCap);
            if (amount > 0) sediment += hasBrush ? cutWithBrush<Cell>(delta, mask, px, py, amount) : addBilinear<Cell>(delta, mask, width, px, py, amount, -1);
        }

        steps++;
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
    const results = control(C_RESULTS);
    store<f64>(results, load<f64>(results) + <f64>steps);
    endX = px;
    endY = py;
    leftField = left;
    return sediment;
}

/**
 * `erodeDroplets`' loop over droplets `first .. end - 1` of the spawn lists: each droplet, then
 * what it still holds laid down where its walk ends, or counted as outflow (the second double at
 * `C_RESULTS`).
 */
export function run(first: i32, end: i32): void {
    const spawnX = control(C_SPAWN_X);
    const spawnY = control(C_SPAWN_Y);
    const delta = control(C_DELTA);
    const mask = control(C_MASK);
    const width = control(C_STRIDE);
    const depositAtEnd = control(C_DEPOSIT_AT_END) != 0;
    const results = control(C_RESULTS);
    const materials = control(C_MATERIALS) != 0;
    for (let index = first; index < end; index++) {
        const x = getI32(spawnX, index);
        const y = getI32(spawnY, index);
        const sediment = materials
            ? (mask == 0 ? erodeDroplet<f64>(x, y, 0) : erodeDroplet<v128>(x, y, mask))
            : mask == 0 ? erodeDroplet<i32>(x, y, 0) : erodeDroplet<i64>(x, y, mask);
        if (leftField || !depositAtEnd) {
            store<f64>(results + 8, load<f64>(results + 8) + <f64>sediment);
        } else if (sediment > 0) {
            if (materials && mask == 0) addBilinear<f64>(delta, 0, width, endX, endY, sediment, 1);
            else if (materials) addBilinear<v128>(delta, 0, width, endX, endY, sediment, 1);
            else if (mask == 0) addBilinear<i32>(delta, 0, width, endX, endY, sediment, 1);
            else addBilinear<i64>(delta, 0, width, endX, endY, sediment, 1);
        }
    }
}
