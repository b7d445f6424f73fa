// river_accumulate: one Jacobi step of the drainage area over a river batch's rectangle. Each
// vertex's area is itself plus the areas of the neighbours whose water comes to it (their
// riverSlots point here), reading the areas as they were before the step (copy_area writes them
// back), saturating at DRAINAGE_AREA_LIMIT. A chain of n vertices is counted in full after n steps;
// the areas persist, so across batches and cycles they keep converging as the ground changes.
// CPU mirror: riverAccumulate in plugin/core/cpu/riverAccumulate.ts.

@group(0) @binding(BINDING_RIVER_SLOTS) var<storage, read> riverSlots: array<i32>;
@group(0) @binding(BINDING_DRAINAGE_AREA) var<storage, read> drainageArea: array<i32>;
@group(0) @binding(BINDING_AREA_NEXT) var<storage, read_write> areaNext: array<i32>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let rect = riverRect();
    let x = rect.x + i32(id.x);
    let y = rect.y + i32(id.y);
    // The dispatch rounds the rectangle up to whole workgroups: invocations past it idle.
    if (x >= rect.z || y >= rect.w) {
        return;
    }
    var total = 1u;
    for (var k = 0; k < THERMAL_SLOTS; k++) {
        let n = neighbourAt(x, y, k, params.wrap != 0);
        if (n >= 0 && riverSlots[n] == OPPOSITE_SLOT[k]) {
            total = min(total + u32(drainageArea[n]), u32(DRAINAGE_AREA_LIMIT));
        }
    }
    areaNext[y * params.width + x] = i32(total);
}
