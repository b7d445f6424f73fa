// region_checksums_water: the second pass of the region checksums (only where water has run), one
// invocation per region: its lanes, as the first pass left them, take in each vertex of the region
// row by row, for each the water's other seven grids.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

@compute @workgroup_size(CHECKSUM_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[0];
    let region = checksumRegion(id);
    if (region.x < 0) {
        return;
    }
    var lanes = vec2<u32>(checksums[2u * id.x], checksums[2u * id.x + 1u]);
    for (var y = region.y; y < region.w; y++) {
        for (var x = region.x; x < region.z; x++) {
            let i = y * params.width + x;
            lanes = mixWord(lanes, fluxY[i]);
            lanes = mixWord(lanes, fluxD1[i]);
            lanes = mixWord(lanes, fluxD2[i]);
            lanes = mixWord(lanes, outflowScale[i]);
            lanes = mixWord(lanes, waterNext[i]);
            lanes = mixWord(lanes, sedimentNext[i]);
            lanes = mixWord(lanes, groundChange[i]);
        }
    }
    checksums[2u * id.x] = lanes.x;
    checksums[2u * id.x + 1u] = lanes.y;
}
