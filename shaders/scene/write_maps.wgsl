// write_maps: turns the erosion maps into a texture a material can sample, on the GPU (no readback):
// r = droplet visits (water), g = wear and b = deposition in the ground's local units, a = drainage
// direction (the slot 0..7 the river operator sends the vertex's water along, or -1 where nothing is
// lower). Floats here are for rendering only. CPU mirror of the direction: SHADER_MIRRORS in
// plugin/gpu/kernelTable.ts (params.wrap is set for a tileable terrain).

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let x = i32(id.x);
    let y = params.dispatchOffset + i32(id.y);
    // The dispatch rounds the field up to whole workgroups: invocations past it idle.
    if (x >= params.width || y >= params.depth) {
        return;
    }
    let i = y * params.width + x;
    var slot = -1;
    if (params.wrap != 0 && x < params.width - 1 && y < params.depth - 1) {
        slot = steepestDropSlot(x, y, true);
    } else {
        slot = steepestLevelSlot(x, y);
    }
    // The maps count 1/FIXED_ONE of a cell.
    let unit = bitcast<f32>(params.cellSizeBits) / f32(FIXED_ONE);
    textureStore(mapsTexture, vec2<i32>(x, y), vec4<f32>(f32(mapWater[i]), f32(mapWear[i]) * unit, f32(mapDeposition[i]) * unit, f32(slot)));
}
