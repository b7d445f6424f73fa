// ground_edit: a ground edit's integers over its rectangle (the batch's region): each vertex's
// amount, which the simulation wrote into the accumulator (delta) before the dispatch, added to
// its height (kept in the height range), or taken as the Q16 share of the way to the target
// (editLevels()); the accumulator cleared again, the fill level kept at or above the new height,
// and what the edit added and removed counted; with editSediment(), what it removes joins the
// shallow water's sediment instead (up to WATER_SEDIMENT_LIMIT a vertex; the rest counted removed).
// Without it the simulation may bind a 16-byte stand-in for waterSediment, never read. With the
// materials on, a raise lays down soil (or with editRock(), raises the rock under the soil and makes
// it that hardness) and a cut takes the soil first (soilAfter). Touches only its own vertex.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let x = params.regionX0 + i32(id.x);
    let y = params.regionY0 + i32(id.y);
    if (x >= params.regionX1 || y >= params.regionY1) {
        return;
    }
    let i = y * params.width + x;
    let amount = delta[i];
    delta[i] = 0;
    let height = heights[i];
    var next: i32;
    if (editLevels() != 0) {
        // Truncated toward the height: |gap| < 2^31 since both ends are in the height range.
        let gap = editTarget() - height;
        next = height + select(-mulQ16(-gap, amount), mulQ16(gap, amount), gap >= 0);
    } else {
        // Both in [-2^30, 2^30): the sum fits an i32 before it is kept in range.
        next = clamp(height + amount, HEIGHT_MIN_FIXED, HEIGHT_MAX_FIXED);
    }
    heights[i] = next;
    if (materials() != 0) {
        if (editRock() != 0 && next > height) {
            // Rock the edit places: the rock raised under the soil, of the edit's hardness (a
            // negative factor, which hardnessOf takes as the rock's own).
            material[params.width * params.depth + i] = -editRock();
        } else {
            material[i] = soilAfter(material[i], next - height);
        }
    }
    if (next > height) {
        addCounter(COUNTER_EDIT_ADDED, u32(next - height));
    } else if (next < height) {
        var kept = 0;
        if (editSediment() != 0) {
            kept = min(height - next, WATER_SEDIMENT_LIMIT - waterSediment[i]);
            waterSediment[i] += kept;
        }
        addCounter(COUNTER_EDIT_REMOVED, u32(height - next - kept));
    }
    fillLevels[i] = max(fillLevels[i], next);
}
