// thermal_apply: second pass of one thermal step. Each vertex of the patch grown by one gives what
// its own flux slots say and receives what its neighbours' slots send it; material sent off an open
// edge is counted as outflow. Reads only flux and its own height, so no vertex is written by two
// invocations and none reads a height another writes. The net change goes into the wear and
// deposition maps. What a river channel receives (drainage area at least params.channelArea) joins
// its load (`suspended`) instead of raising its bed: slopes shed into rivers, and rivers carry it.
// With the materials on, the net change goes into the soil (soilAfter).
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

fn inPatch(x: i32, y: i32) -> bool {
    return x >= params.patchX0 && y >= params.patchY0 && x < params.patchX1 && y < params.patchY1;
}

fn fluxSlot(x: i32, y: i32) -> i32 {
    return params.dispatchOffset + ((y - params.patchY0) * (params.patchX1 - params.patchX0) + (x - params.patchX0)) * THERMAL_SLOTS;
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let x = params.regionX0 + i32(id.x);
    let y = params.regionY0 + i32(id.y);
    // The dispatch rounds the region up to whole workgroups: invocations past it idle.
    if (x >= params.regionX1 || y >= params.regionY1) {
        return;
    }
    let width = params.width;
    let depth = params.depth;
    var change = 0;
    var received = 0;
    if (inPatch(x, y)) {
        let slot = fluxSlot(x, y);
        for (var k = 0; k < params.neighbours; k++) {
            let given = flux[slot + k];
            change -= given;
            let nx = x + THERMAL_DX[k];
            let ny = y + THERMAL_DY[k];
            if (nx < 0 || ny < 0 || nx >= width || ny >= depth) {
                addCounter(COUNTER_OUTFLOW, u32(given));
            }
        }
    }
    for (var k = 0; k < params.neighbours; k++) {
        // The neighbour whose slot k points here.
        let sx = x - THERMAL_DX[k];
        let sy = y - THERMAL_DY[k];
        if (inPatch(sx, sy)) {
            received += flux[fluxSlot(sx, sy) + k];
        }
    }
    let i = y * width + x;
    if (params.channelArea > 0 && drainageArea[i] >= params.channelArea && received > 0) {
        var load = suspended[i] + received;
        if (load > ACCUMULATOR_LIMIT) {
            addCounter(COUNTER_SATURATION_REMOVED, u32(load - ACCUMULATOR_LIMIT));
            load = ACCUMULATOR_LIMIT;
        }
        suspended[i] = load;
    } else {
        change += received;
    }
    var height = heights[i] + change;
    if (height < HEIGHT_MIN_FIXED) {
        addCounter(COUNTER_SATURATION_ADDED, u32(HEIGHT_MIN_FIXED - height));
        height = HEIGHT_MIN_FIXED;
    }
    recordChange(i, height - heights[i]);
    if (materials() != 0) {
        material[i] = soilAfter(material[i], height - heights[i]);
        // Soil production, once a step at each vertex of the patch (the region's ring belongs to its neighbours' patches).
        if (weathering() != 0 && inPatch(x, y)) {
            material[i] = weatheredSoil(material[i], vertexHardness(i, x, y, height));
        }
    }
    heights[i] = height;
}
