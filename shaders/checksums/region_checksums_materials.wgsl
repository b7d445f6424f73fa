// region_checksums_materials: the last pass of the region checksums (only once the materials have
// run), one invocation per region: its lanes, as the passes before left them, take in each vertex
// of the region row by row, for each its soil and its hardness factor (the material buffer's two
// grids, one after the other).
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

@compute @workgroup_size(CHECKSUM_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[0];
    let region = checksumRegion(id);
    if (region.x < 0) {
        return;
    }
    let cells = params.width * params.depth;
    var lanes = vec2<u32>(checksums[2u * id.x], checksums[2u * id.x + 1u]);
    for (var y = region.y; y < region.w; y++) {
        for (var x = region.x; x < region.z; x++) {
            let i = y * params.width + x;
            lanes = mixWord(lanes, material[i]);
            lanes = mixWord(lanes, material[cells + i]);
        }
    }
    checksums[2u * id.x] = lanes.x;
    checksums[2u * id.x + 1u] = lanes.y;
}
