// region_checksums: the first pass of the region checksums, one invocation per region: the lanes
// start, then take in each vertex of the region row by row, for each the state's four grids and,
// when water has run (params.waterPass 1), the water's depth, sediment and first pipe.
// region_checksums_water takes in the other water grids. Writes only its region's two lanes.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

@compute @workgroup_size(CHECKSUM_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[0];
    let region = checksumRegion(id);
    if (region.x < 0) {
        return;
    }
    var lanes = vec2<u32>(LANE_A_START, LANE_B_START);
    for (var y = region.y; y < region.w; y++) {
        for (var x = region.x; x < region.z; x++) {
            let i = y * params.width + x;
            lanes = mixWord(lanes, heights[i]);
            lanes = mixWord(lanes, suspended[i]);
            lanes = mixWord(lanes, drainageArea[i]);
            lanes = mixWord(lanes, fillLevels[i]);
            if (params.waterPass != 0) {
                lanes = mixWord(lanes, waterDepth[i]);
                lanes = mixWord(lanes, waterSediment[i]);
                lanes = mixWord(lanes, fluxX[i]);
            }
        }
    }
    checksums[2u * id.x] = lanes.x;
    checksums[2u * id.x + 1u] = lanes.y;
}
