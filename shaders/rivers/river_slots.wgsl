// river_slots: each vertex's receiver slot (sedimentSlot: 0..7, or -1) over a river batch's
// rectangle grown by one (across the seam of a tileable terrain), worked out once per batch for
// the drainage-area steps. Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts. Where the
// grown rectangle covers a whole period of the torus two invocations may name one vertex; they
// write the same value.

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let rect = riverRect();
    var x = rect.x - 1 + i32(id.x);
    var y = rect.y - 1 + params.dispatchOffset + i32(id.y);
    // The dispatch rounds the grown rectangle up to whole workgroups: invocations past it idle.
    if (x > rect.z || y > rect.w) {
        return;
    }
    if (params.wrap != 0) {
        let columns = params.width - 1;
        let rows = params.depth - 1;
        x = ((x % columns) + columns) % columns;
        y = ((y % rows) + rows) % rows;
    } else if (x < 0 || y < 0 || x >= params.width || y >= params.depth) {
        return;
    }
    riverSlots[y * params.width + x] = sedimentSlot(x, y);
}
