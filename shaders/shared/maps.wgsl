// The erosion maps' counters, for the passes that change heights. CPU mirrors: SHADER_MIRRORS in
// plugin/gpu/kernelTable.ts. Each is a u32 per vertex that saturates at MAP_LIMIT (2^32 - 1)
// rather than wrapping; each is written only by the invocation that owns the vertex.

fn addSaturating(total: u32, value: u32) -> u32 {
    if (value > MAP_LIMIT - total) {
        return MAP_LIMIT;
    }
    return total + value;
}

// A vertex's net change of one pass: lowering as wear, raising as deposition.
fn recordChange(i: i32, change: i32) {
    if (change < 0) {
        mapWear[i] = addSaturating(mapWear[i], u32(-change));
    } else if (change > 0) {
        mapDeposition[i] = addSaturating(mapDeposition[i], u32(change));
    }
}
