// Fixed-point and hashing helpers shared by every kernel. The TypeScript mirrors (SHADER_MIRRORS in
// plugin/gpu/kernelTable.ts) compute the same integers with plain
// double arithmetic, these compute them with 16-bit pieces so no intermediate leaves 32 bits.
// Runtime i32 arithmetic in WGSL wraps; every product below is split so that it never needs to.

// floor(a * f / 2^16) for any i32 a and 0 <= f <= 2^16.
// a = high * 2^16 + low, so a * f / 2^16 = high * f + low * f / 2^16 and only the last term needs a floor.
fn mulQ16(a: i32, f: i32) -> i32 {
    let high = a >> 16u;
    let low = u32(a & 0xffff);
    return high * f + i32((low * u32(f)) >> 16u);
}

// min(floor(a * b / 2^16), SATURATION_LIMIT) for 0 <= a, b < 2^31.
fn mulQ16Sat(a: i32, b: i32) -> i32 {
    let ua = u32(a);
    let ub = u32(b);
    let ah = ua >> 16u;
    let al = ua & 0xffffu;
    let bh = ub >> 16u;
    let bl = ub & 0xffffu;
    let limit = u32(SATURATION_LIMIT);
    // a * b / 2^16 = ah * bh * 2^16 + ah * bl + al * bh + al * bl / 2^16. The first term alone
    // passes the limit once ah * bh > limit >> 16 (2^14 - 1), and below that it cannot wrap.
    let highHigh = ah * bh;
    if (highHigh > (limit >> 16u)) {
        return SATURATION_LIMIT;
    }
    var total = highHigh << 16u;
    total += ah * bl;
    if (total > limit) {
        return SATURATION_LIMIT;
    }
    total += al * bh;
    if (total > limit) {
        return SATURATION_LIMIT;
    }
    total += (al * bl) >> 16u;
    return i32(min(total, limit));
}

// floor(sqrt(x)) for any u32: the f32 square root lands within two of it, then integer steps
// move it onto the exact root (f32 keeps 24 bits of x, and SwiftShader's sqrt is not correctly
// rounded, so the correction is needed in both directions).
fn isqrt32(x: u32) -> u32 {
    var root = min(u32(sqrt(f32(x))), 65535u);
    for (var i = 0; i < 2; i++) {
        if (root * root > x) {
            root -= 1u;
        }
    }
    for (var i = 0; i < 2; i++) {
        if (root < 65535u && (root + 1u) * (root + 1u) <= x) {
            root += 1u;
        }
    }
    return root;
}

// Square root of a Q16 value as a Q16 value, for 0 <= x <= 2^30: shift x up by the largest even
// amount (at most 16) that keeps it in 32 bits, take the integer root, shift the rest back.
fn sqrtQ16(x: i32) -> i32 {
    if (x <= 0) {
        return 0;
    }
    let bits = 32u - countLeadingZeros(u32(x));
    let shift = min(16u, (32u - bits) & ~1u);
    return i32(isqrt32(u32(x) << shift) << ((16u - shift) >> 1u));
}

// lowbias32 (Chris Wellons): a two-multiply integer finaliser.
fn hashU32(value: u32) -> u32 {
    var x = value;
    x ^= x >> 16u;
    x *= HASH_MULTIPLIER_1;
    x ^= x >> 15u;
    x *= HASH_MULTIPLIER_2;
    x ^= x >> 16u;
    return x;
}

fn hash4(a: u32, b: u32, c: u32, d: u32) -> u32 {
    return hashU32(hashU32(hashU32(hashU32(a) ^ b) ^ c) ^ d);
}

// Grid neighbours (CPU mirror: SHADER_MIRRORS in plugin/gpu/kernelTable.ts). On a tileable river
// batch the grid is a torus of period (width - 1) x (depth - 1): its last column and row repeat the first.
// Index of the neighbour of (x, y) in slot k: past the field's edge -1, or with `wrap` across it on
// the torus.
fn neighbourAt(x: i32, y: i32, k: i32, wrap: bool) -> i32 {
    var nx = x + THERMAL_DX[k];
    var ny = y + THERMAL_DY[k];
    if (wrap) {
        let columns = params.width - 1;
        let rows = params.depth - 1;
        if (nx < 0) {
            nx += columns;
        } else if (nx >= columns) {
            nx -= columns;
        }
        if (ny < 0) {
            ny += rows;
        } else if (ny >= rows) {
            ny -= rows;
        }
    } else if (nx < 0 || ny < 0 || nx >= params.width || ny >= params.depth) {
        return -1;
    }
    return ny * params.width + nx;
}
