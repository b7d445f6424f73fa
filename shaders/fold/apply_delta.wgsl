// apply_delta: second half of the fold, over the batch's extent (its region and as far as its
// sediment was routed). Adds each cell's clipped change to its height, clears the
// accumulator for the next batch, and records the change in the maps: lowering as wear, raising as
// deposition, and the batch's droplet visits into the water map, each saturating rather than
// wrapping. With the materials on, the soil takes the change first (soilAfter), less the uplift a
// river batch's accumulator holds, which raises the rock (nominalUplift). Touches only its own cell.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

// The uplift a river batch's accumulator holds at (x, y) as river_uplift computes it before its cap
// at the top of the height range: riverUplift (times the uplift mask) in the river rectangle, none
// on the field's edge off a torus; 0 on any other batch (only a river batch's params carry riverUplift).
fn nominalUplift(x: i32, y: i32, i: i32) -> i32 {
    if (params.riverUplift == 0) {
        return 0;
    }
    if (!inRect(x, y, riverRect())) {
        return 0;
    }
    if (params.wrap == 0 && (x == 0 || y == 0 || x == params.width - 1 || y == params.depth - 1)) {
        return 0;
    }
    if (params.upliftMasked != 0) {
        return mulQ16(params.riverUplift, mask[i]);
    }
    return params.riverUplift;
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let x = params.extentX0 + i32(id.x);
    let y = params.extentY0 + params.dispatchOffset + i32(id.y);
    // The dispatch rounds the extent up to whole workgroups: invocations past it idle.
    if (x >= params.extentX1 || y >= params.extentY1) {
        return;
    }
    let i = y * params.width + x;
    let change = delta[i];
    if (materials() != 0) {
        material[i] = soilAfter(material[i], change - nominalUplift(x, y, i));
    }
    heights[i] += change;
    delta[i] = 0;
    recordChange(i, change);
    mapWater[i] = addSaturating(mapWater[i], u32(waterBatch[i]));
    waterBatch[i] = 0;
}
