// water_scale: second pass of a water step, over the batch's patch. Each vertex's outflow over its
// 8 pipes; where that is more than its water, the Q16 factor floor(water x 2^16 / outflow) that
// brings it within the water, else 2^16. Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let vertex = patchVertex(id);
    if (vertex.x < 0) {
        return;
    }
    let i = vertex.y * params.width + vertex.x;
    let out = outflowAt(vertex.x, vertex.y);
    let water = waterDepth[i];
    outflowScale[i] = select(FIXED_ONE, fractionQ16(water, out), out > water);
}
