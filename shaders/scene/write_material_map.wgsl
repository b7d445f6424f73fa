// write_material_map: the soil and rock into the RGBA32F `materials` texture a material samples,
// on the GPU (no readback): r the soil's thickness (local units), g the bed of the rock at the
// surface (-1: none, and where a ground edit placed the rock), b the rock's hardness (times the soil's), a 1 once the materials exist.
// Floats here are for rendering only. Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.
// params.waterPass is 1 once the material buffer exists; before, a stand-in is bound whose grids
// must not be read, and every texel is bare rock as soft as soil: (0, -1, 1, 0).

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let x = i32(id.x);
    let y = params.dispatchOffset + i32(id.y);
    // The dispatch rounds the field up to whole workgroups: invocations past it idle.
    if (x >= params.width || y >= params.depth) {
        return;
    }
    var texel = vec4<f32>(0.0, -1.0, 1.0, 0.0);
    if (params.waterPass != 0) {
        let i = y * params.width + x;
        let soil = material[i];
        let rock = heights[i] - soil;
        var layer = -1;
        // Rock a ground edit placed (a negative factor) is no bed of the strata.
        if (strataThickness() != 0 && material[params.width * params.depth + i] >= 0) {
            layer = strataBed(rock, x, y);
        }
        let unit = bitcast<f32>(params.cellSizeBits) / f32(FIXED_ONE);
        texel = vec4<f32>(f32(soil) * unit, f32(layer), f32(vertexHardness(i, x, y, heights[i])) / f32(HARDNESS_ONE), 1.0);
    }
    textureStore(materialTexture, vec2<i32>(x, y), texel);
}
