// tile_seam: on a tileable terrain the last column and row repeat the first; after every batch they
// are made equal to them again (droplets and thermal treat the edges as edges and may have moved
// them; the river operator never writes them), heights and drainage area, and what that adds or
// removes is counted so mass stays exact. One invocation per seam vertex: the first depth - 1 copy
// column 0 into the last column, the next width copy row 0 into the last row (its last vertex takes
// vertex 0), and the soil with the materials on. No target is a source, so the order does not matter.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

@compute @workgroup_size(DROPLET_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let t = i32(id.x);
    let width = params.width;
    let depth = params.depth;
    var src = 0;
    var dst = 0;
    if (t < depth - 1) {
        src = t * width;
        dst = t * width + width - 1;
    } else if (t < depth - 1 + width) {
        let x = t - (depth - 1);
        src = select(x, 0, x == width - 1);
        dst = (depth - 1) * width + x;
    } else {
        return;
    }
    let change = heights[src] - heights[dst];
    if (change > 0) {
        addCounter(COUNTER_SEAM_ADDED, u32(change));
    } else if (change < 0) {
        addCounter(COUNTER_SEAM_REMOVED, u32(-change));
    }
    heights[dst] = heights[src];
    drainageArea[dst] = drainageArea[src];
    if (materials() != 0) {
        material[dst] = material[src];
    }
}
