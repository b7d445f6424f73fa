// init_soil: the soil the materials start with where the starting soil depends on slope
// (`materials.initialSoilSlope`): the soil grid just written (`materials.initialSoil`, or the soil
// map's share of it) thinned by `initialSoilAt` of each vertex's `axisSlope`, in place (the
// hardness grid is written before, as no map makes it). Its CPU mirror: KERNELS in
// plugin/gpu/kernelTable.ts. The pass's params carry the slope the soil thins to none at (Q16)
// in regionX1.

// The steepest drop (absolute) from (x, y) to its axis neighbours inside the field.
fn axisSlope(x: i32, y: i32) -> i32 {
    let i = y * params.width + x;
    let h = heights[i];
    var steepest = 0;
    if (x > 0) {
        steepest = max(steepest, abs(h - heights[i - 1]));
    }
    if (x < params.width - 1) {
        steepest = max(steepest, abs(h - heights[i + 1]));
    }
    if (y > 0) {
        steepest = max(steepest, abs(h - heights[i - params.width]));
    }
    if (y < params.depth - 1) {
        steepest = max(steepest, abs(h - heights[i + params.width]));
    }
    return steepest;
}

// `initial` on flat ground, falling linearly to none at `limit`, in Q8 steps.
fn initialSoilAt(initial: i32, slope: i32, limit: i32) -> i32 {
    if (limit <= 0) {
        return initial;
    }
    let fraction = (min(slope, limit) << 8u) / limit;
    return initial - ((initial >> 8u) * fraction + (((initial & 255) * fraction) >> 8u));
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let x = i32(id.x);
    let y = i32(id.y);
    if (x >= params.width || y >= params.depth) {
        return;
    }
    let i = y * params.width + x;
    material[i] = initialSoilAt(material[i], axisSlope(x, y), params.regionX1);
}
