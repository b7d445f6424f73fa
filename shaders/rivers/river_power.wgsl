// How much stream power takes from a vertex in a river batch. CPU mirrors: SHADER_MIRRORS in
// plugin/gpu/kernelTable.ts. Reads the `heights`, `fillLevels`, `drainageArea` and `mask` the
// including kernel declares.

// What vertex (x, y) loses to stream-power erosion this batch: the implicit step toward its
// receiver, h <- h_r + (h - h_r) / (1 + F) with F = erosion x sqrt(A) / run (x mask), so it never
// sinks below the receiver however large F is (Braun & Willett 2013, one vertex at a time against
// the receiver's height before the batch). Zero outside the batch's rectangle, under a fill level
// (in a basin the water has no slope to cut with), or without a receiver below.
fn riverErosionAt(x: i32, y: i32) -> i32 {
    if (!inRect(x, y, riverRect())) {
        return 0;
    }
    let i = y * params.width + x;
    if (params.wrap == 0 && fillLevels[i] > heights[i]) {
        return 0;
    }
    let slot = sedimentSlot(x, y);
    if (slot < 0) {
        return 0;
    }
    let fall = heights[i] - heights[neighbourAt(x, y, slot, params.wrap != 0)];
    if (fall <= 0) {
        return 0;
    }
    // sqrt(A) at most ROOT_AREA_LIMIT (2^15 - 1), so sqrt(A) x 2^16 stays an i32.
    var factor = mulQ16Sat(params.riverErosion, i32(min(isqrt32(u32(drainageArea[i])), ROOT_AREA_LIMIT)) * FIXED_ONE);
    if (slot >= FIRST_DIAGONAL_SLOT) {
        factor = mulQ16(factor, INVERSE_SQRT2_Q16);
    }
    if (params.riversMasked != 0) {
        factor = mulQ16(factor, mask[i]);
    }
    // 1 / (1 + F) in Q16: (2^32 - 1) / (2^16 + F) in u32 (F > 0 never divides 2^32).
    var keep = FIXED_ONE;
    if (factor != 0) {
        keep = i32(U32_MAX / u32(FIXED_ONE + factor));
    }
    return min(fall - mulQ16(fall, keep), ACCUMULATOR_LIMIT);
}
