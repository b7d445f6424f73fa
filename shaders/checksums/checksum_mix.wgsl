// checksum_mix: what the region checksum kernels share: one word taken into a region's two lanes
// (lane a FNV-1a 32 over whole words, lane b a MurmurHash3-style mix, both wrapping at 2^32), and
// the region an invocation owns.
// Its CPU mirror: SHADER_MIRRORS in plugin/gpu/kernelTable.ts.

fn mixWord(lanes: vec2<u32>, value: i32) -> vec2<u32> {
    let word = bitcast<u32>(value);
    let a = (lanes.x ^ word) * 0x01000193u;
    let b = lanes.y ^ (word * 0xcc9e2d51u);
    return vec2<u32>(a, ((b << 15u) | (b >> 17u)) * 0x1b873593u + 0xe6546b64u);
}

// The region of invocation `id` as (x0, y0, x1, y1), or x0 = -1 past the last region. The region
// side is params.regionX0, the regions per row params.regionX1, the rows of regions params.regionY1.
fn checksumRegion(id: vec3<u32>) -> vec4<i32> {
    let r = i32(id.x);
    let size = params.regionX0;
    if (r >= params.regionX1 * params.regionY1) {
        return vec4<i32>(-1, 0, 0, 0);
    }
    let x0 = (r % params.regionX1) * size;
    let y0 = (r / params.regionX1) * size;
    return vec4<i32>(x0, y0, min(x0 + size, params.width), min(y0 + size, params.depth));
}
