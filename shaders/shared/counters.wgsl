// 64-bit counters as pairs of u32 atomics (low word, high word), for kernels that report where
// material went. CPU mirrors: SHADER_MIRRORS in plugin/gpu/kernelTable.ts.

// Adds a non-negative amount below 2^32 to counter `slot`. atomicAdd returns the exact previous
// low word, so the carry into the high word is exact whatever order threads add in.
fn addCounter(slot: u32, value: u32) {
    if (value == 0u) {
        return;
    }
    let previous = atomicAdd(&counters[slot * COUNTER_WORDS], value);
    if (previous > U32_MAX - value) {
        atomicAdd(&counters[slot * COUNTER_WORDS + 1u], 1u);
    }
}
