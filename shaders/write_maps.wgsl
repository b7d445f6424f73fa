// write_maps: turns the erosion maps into a texture a material can sample, on the GPU (no readback):
// r = droplet visits (water), g = wear and b = deposition in the ground's local units, a = flow direction (the slot
// 0..7 of the vertex's lowest strictly lower neighbour, as flow_common routes it, or -1 for pits and
// flats). Floats here are for rendering only. CPU mirror of the direction: plugin/core/erosionMaps.ts.

@group(0) @binding(BINDING_HEIGHTS) var<storage, read> heights: array<i32>;
@group(0) @binding(BINDING_MAP_WATER) var<storage, read> mapWater: array<u32>;
@group(0) @binding(BINDING_MAP_WEAR) var<storage, read> mapWear: array<u32>;
@group(0) @binding(BINDING_MAP_DEPOSITION) var<storage, read> mapDeposition: array<u32>;
@group(0) @binding(BINDING_MAPS_TEXTURE) var mapsTexture: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = i32(id.x);
    let y = i32(id.y);
    // The dispatch rounds the field up to whole workgroups: invocations past it idle.
    if (x >= params.width || y >= params.depth) {
        return;
    }
    let i = y * params.width + x;
    let receiver = receiverOf(x, y);
    var direction = -1.0;
    if (receiver >= 0) {
        for (var k = 0; k < params.flowNeighbours; k++) {
            if (neighbourIndex(x, y, k) == receiver) {
                direction = f32(k);
                break;
            }
        }
    }
    // The maps count 1/65536 of a cell.
    let unit = bitcast<f32>(params.cellSizeBits) / f32(FIXED_ONE);
    textureStore(mapsTexture, vec2<i32>(x, y), vec4<f32>(f32(mapWater[i]), f32(mapWear[i]) * unit, f32(mapDeposition[i]) * unit, direction));
}
