// write_water_map: the shallow water into the RGBA32F `shallowWater` texture a material or the
// water surface samples, on the GPU (no readback): r depth, g and b the velocity along local x and
// z (units per water step: the view grids water_velocity writes in each depth pass, so mid-step it
// is the last depth pass's), a the water surface (ground + water), all in local units. Floats here
// are for rendering only. Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts. params.waterPass is 1
// once the water exists (else its buffers are stand-ins and the water is taken as dry).

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
    let cellSize = bitcast<f32>(params.cellSizeBits);
    let unit = cellSize / f32(FIXED_ONE);
    var depth = 0;
    var velocity = vec2<f32>(0.0, 0.0);
    if (params.waterPass != 0) {
        depth = waterDepth[i];
        // Field rows run toward -z.
        velocity = vec2<f32>(f32(velocityX[i]), -f32(velocityY[i])) * unit;
    }
    textureStore(waterTexture, vec2<i32>(x, y), vec4<f32>(f32(depth) * unit, velocity.x, velocity.y, f32(heights[i] + depth) * unit));
}
