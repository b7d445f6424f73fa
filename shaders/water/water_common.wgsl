// Helpers of the shallow-water kernels. CPU mirrors: SHADER_MIRRORS in plugin/gpu/kernelTable.ts.
// The pipes: fluxX (x, y) -> (x + 1, y), fluxY -> (x, y + 1), fluxD1 -> (x + 1, y + 1),
// fluxD2 (x + 1, y) -> (x, y + 1), each stored at (x, y), signed, zero where the far end is off the field.

// a * f / 2^16 truncated toward zero (0 <= f <= 2^16): mirrored inputs give mirrored outputs.
fn truncMulQ16(a: i32, f: i32) -> i32 {
    if (a >= 0) {
        return mulQ16(a, f);
    }
    return -mulQ16(-a, f);
}

// floor(part * 2^16 / whole) for 0 <= part <= whole < 2^31, whole > 0: long division, bit by bit
// (the remainder stays below whole, so doubling it stays inside a u32).
fn fractionQ16(part: i32, whole: i32) -> i32 {
    if (part >= whole) {
        return FIXED_ONE;
    }
    var remainder = u32(part);
    let divisor = u32(whole);
    var quotient = 0u;
    for (var bit = 0; bit < 16; bit++) {
        remainder = remainder << 1u;
        quotient = quotient << 1u;
        if (remainder >= divisor) {
            remainder -= divisor;
            quotient |= 1u;
        }
    }
    return i32(quotient);
}

// floor(sqrt(a^2 + b^2)) to about 15 significant bits, |a|, |b| < 2^29.
fn hypotenuse(a: i32, b: i32) -> i32 {
    var x = u32(abs(a));
    var y = u32(abs(b));
    var shift = 0u;
    loop {
        if (x < 32768u && y < 32768u) {
            break;
        }
        x = x >> 1u;
        y = y >> 1u;
        shift += 1u;
    }
    return i32(isqrt32(x * x + y * y) << shift);
}

// The patch's vertex this invocation runs, or (-1, -1) past the patch (the dispatch rounds up).
fn patchVertex(id: vec3<u32>) -> vec2<i32> {
    params = batchParams[id.z];
    let x = params.patchX0 + i32(id.x);
    let y = params.patchY0 + i32(id.y);
    if (x >= params.patchX1 || y >= params.patchY1) {
        return vec2<i32>(-1, -1);
    }
    return vec2<i32>(x, y);
}
