/**
 * Fixed-point arithmetic shared by every kernel that changes simulation state.
 *
 * Heights, sediment and every other quantity that carries over between batches are `i32` in
 * Q16 fixed point of the grid's cell size: one unit is 1/65536 of the distance between
 * neighbouring vertices, so a slope of 1 is 65536 units per cell whatever the ground's scale, and a
 * terrain scaled uniformly in x, y and z runs on the same integers. The helpers here
 * are the JavaScript half of `shaders/shared/common.wgsl`: the WGSL versions compute the same integers
 * with 16-bit pieces, these with whatever V8 runs fastest: `Math.imul` on the same pieces
 * (`mulQ16`) or plain double arithmetic, which holds every integer below 2^53 exactly. They must
 * agree in value, not in instructions.
 */

// Math's functions as module constants: a global lookup of `Math` is twenty times slower in a
// vm context (jest's test environment, some worker sandboxes) and these run per droplet step.
const { clz32, floor, imul, sqrt } = Math;

/** One cell (or one unit of any Q16 quantity) in fixed-point units: 2^16. */
export const FIXED_ONE = 65536;

/** Lowest height the state can hold, in fixed-point units (-16 384 cells). */
export const HEIGHT_MIN_FIXED = -(2 ** 30);

/**
 * Highest height the state can hold, in fixed-point units (16 384 cells minus one unit), chosen so that
 * the difference of any two heights fits in an `i32`.
 */
export const HEIGHT_MAX_FIXED = 2 ** 30 - 1;

/** Lowest height the state accepts, in cells (-16 384; times the cell size in metres). */
export const HEIGHT_MIN_METRES = HEIGHT_MIN_FIXED / FIXED_ONE;

/** Highest height the state accepts, in cells (just under 16 384; times the cell size in metres). */
export const HEIGHT_MAX_METRES = HEIGHT_MAX_FIXED / FIXED_ONE;

/**
 * Ceiling of saturating products (2^30 - 1): any two saturated values still add without
 * overflowing an `i32`.
 */
export const SATURATION_LIMIT = 2 ** 30 - 1;

/**
 * round(value x 2^16), saturating at SATURATION_LIMIT: how the batch parameters quantise a float
 * option (a derived parameter past the limit is as good as infinite).
 */
export function quantiseQ16(value: number): number {
    return Math.min(SATURATION_LIMIT, Math.round(value * FIXED_ONE));
}

/** Largest u32 (2^32 - 1): where u32 arithmetic saturates or divides into a Q16 reciprocal. */
export const U32_MAX = 2 ** 32 - 1;

/**
 * floor(a * f / 2^16) for a in the i32 range and 0 <= f <= 2^16. Mirrors `mulQ16` in WGSL, piece
 * for piece: a = high * 2^16 + low, so a * f / 2^16 = high * f + floor(low * f / 2^16); both
 * products fit 32 bits (imul), and the sum, being the result, fits an i32.
 */
export function mulQ16(a: number, f: number): number {
    return (imul(a >> 16, f) + (imul(a & 0xffff, f) >>> 16)) | 0;
}

/**
 * min(floor(a * b / 2^16), SATURATION_LIMIT) for 0 <= a, b < 2^31. Mirrors `mulQ16Sat` in WGSL.
 * Exact in doubles: a product below 2^53 is exact, multiplying it by 2^-16 is exact (a power of
 * two, and a multiply is several times quicker than a divide), and a product above 2^53 is far
 * past the limit. Neither factor is negative, so truncating (`| 0`) floors.
 */
export function mulQ16Sat(a: number, b: number): number {
    // 2^-16 and SATURATION_LIMIT (0x3fffffff) written out: this is inlined into the droplet loop,
    // where a module constant, which a bundler turns into a `var`, is reloaded at every use.
    const product = a * b * 0.0000152587890625;
    return product >= 0x3fffffff ? 0x3fffffff : product | 0;
}

/** floor(sqrt(x)) for 0 <= x < 2^32. Mirrors `isqrt32` in WGSL. */
export function isqrt32(x: number): number {
    return floor(sqrt(x));
}

/**
 * floor(sqrt(x * 2^16)) to about 15 significant bits, for 0 <= x <= 2^30: the square root of a Q16
 * value, as a Q16 value. Shifts x up by the largest even amount (at most 16) that keeps it in 32
 * bits, takes the integer root and shifts the rest back. Mirrors `sqrtQ16` in WGSL.
 */
export function sqrtQ16(x: number): number {
    if (x <= 0) {
        return 0;
    }
    const leadingZeros = clz32(x);
    const shift = leadingZeros >= 16 ? 16 : leadingZeros & ~1;
    // Multiplying by 1 << n rather than 2 ** n: exponentiation here cost half the walk's time. The
    // root is below 2^16 and not negative, so `| 0` floors it.
    return (sqrt(x * (1 << shift)) | 0) << ((16 - shift) >> 1);
}

/**
 * Metres to fixed-point units of a grid with cells `cellSize` metres apart (one unit is 1/65536 of
 * the cell size), rounding to nearest (halves toward +infinity).
 */
export function metresToFixed(metres: number, cellSize = 1): number {
    return Math.round((metres / cellSize) * FIXED_ONE);
}

/** Fixed-point units of a grid with cells `cellSize` metres apart to metres. */
export function fixedToMetres(fixed: number, cellSize = 1): number {
    return (fixed / FIXED_ONE) * cellSize;
}

/**
 * Converts heights in metres to the fixed-point state (1/65536 of the cell size), rejecting NaN,
 * infinities and heights outside [-16 384, 16 384) cells with an error naming the first bad index.
 * @param metres heights in metres, row-major
 * @param name what the heights are called in the error message
 * @param target optional array to write into (same length)
 * @param cellSize distance between neighbouring vertices, in the heights' unit (default 1)
 */
export function heightsToFixed(metres: ArrayLike<number>, name = "heights", target?: Int32Array, cellSize = 1): Int32Array {
    const out = target ?? new Int32Array(metres.length);
    for (let i = 0; i < metres.length; i++) {
        const value = metres[i];
        const fixed = metresToFixed(value, cellSize);
        if (!Number.isFinite(value) || fixed < HEIGHT_MIN_FIXED || fixed > HEIGHT_MAX_FIXED) {
            throw new RangeError(
                `${name}[${i}] is ${value}: heights must be finite numbers in [${HEIGHT_MIN_METRES * cellSize}, ` +
                    `${HEIGHT_MAX_METRES * cellSize}] (16 384 cells of ${cellSize} either way).`
            );
        }
        out[i] = fixed;
    }
    return out;
}

/** Checks fixed-point heights against the state's range; throws a `RangeError` naming the first bad index. */
export function assertFixedHeightsInRange(fixed: Int32Array, name = "heights"): void {
    for (let i = 0; i < fixed.length; i++) {
        const value = fixed[i];
        if (value < HEIGHT_MIN_FIXED || value > HEIGHT_MAX_FIXED) {
            throw new RangeError(
                `${name}[${i}] is ${value} fixed-point units: heights must lie in [${HEIGHT_MIN_FIXED}, ${HEIGHT_MAX_FIXED}] (1/65536 of the cell size each).`
            );
        }
    }
}

/**
 * The length of one fixed-point unit in local units (metres when the cell is metres): a fixed-point
 * height times it is the height a ground's positions, the maps and the textures hold. The one place
 * the state's unit meets the rendering's (floats, never fed back into the state).
 * @param cellSize distance between neighbouring vertices, local units
 */
export function fixedUnitLength(cellSize: number): number {
    return cellSize / FIXED_ONE;
}

/**
 * Converts fixed-point heights to metres (as `Float32Array`, the precision Babylon renders with).
 * @param cellSize distance between neighbouring vertices, in metres (default 1)
 */
export function fixedToHeights(fixed: Int32Array, target?: Float32Array, cellSize = 1): Float32Array {
    const out = target ?? new Float32Array(fixed.length);
    const scale = fixedUnitLength(cellSize);
    for (let i = 0; i < fixed.length; i++) {
        out[i] = fixed[i] * scale;
    }
    return out;
}
