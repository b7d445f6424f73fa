// hardness_factors: the hardness factor grid written from the hardness map where the map or its
// scale changed, or after an upload: the factors worked out on the CPU (writeHardnessFactors of a
// fresh grid) come in the accumulator (delta, zero between batches) and replace each vertex's,
// except where a ground edit placed rock (a negative factor: the edit's rock keeps its hardness);
// the accumulator is cleared again. Touches only its own vertex.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let x = i32(id.x);
    let y = i32(id.y);
    if (x >= params.width || y >= params.depth) {
        return;
    }
    let i = y * params.width + x;
    let at = params.width * params.depth + i;
    if (material[at] >= 0) {
        material[at] = delta[i];
    }
    delta[i] = 0;
}
