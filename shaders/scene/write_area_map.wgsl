// write_area_map: the drainage area (cells, the river operator's state) into an R32F texture a
// material can sample, on the GPU (no readback). Floats here are for rendering only.

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let x = i32(id.x);
    let y = params.dispatchOffset + i32(id.y);
    // The dispatch rounds the field up to whole workgroups: invocations past it idle.
    if (x >= params.width || y >= params.depth) {
        return;
    }
    textureStore(areaTexture, vec2<i32>(x, y), vec4<f32>(f32(drainageArea[y * params.width + x]), 0.0, 0.0, 0.0));
}
