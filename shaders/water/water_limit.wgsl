// water_limit: third pass of a water step, over the batch's patch. Each pipe the vertex owns is
// scaled by its source's factor (floor, on the magnitude), so no vertex sends more than it holds.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

fn limited(flow: i32, a: i32, b: i32) -> i32 {
    if (flow > 0) {
        return mulQ16(flow, outflowScale[a]);
    }
    if (flow < 0) {
        return -mulQ16(-flow, outflowScale[b]);
    }
    return 0;
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let vertex = patchVertex(id);
    if (vertex.x < 0) {
        return;
    }
    let width = params.width;
    let i = vertex.y * width + vertex.x;
    let lastColumn = vertex.x + 1 >= width;
    let lastRow = vertex.y + 1 >= params.depth;
    if (!lastColumn) {
        fluxX[i] = limited(fluxX[i], i, i + 1);
    }
    if (!lastRow) {
        fluxY[i] = limited(fluxY[i], i, i + width);
    }
    if (!lastColumn && !lastRow) {
        fluxD1[i] = limited(fluxD1[i], i, i + width + 1);
        fluxD2[i] = limited(fluxD2[i], i + 1, i + width);
    }
}
