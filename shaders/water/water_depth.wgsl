// water_depth: sixth pass of a water step, over the batch's patch. Each vertex's water and sediment
// for the next step: the exchange, what the water cut (+) or laid down (-), rain (times the rain
// mask) and sources, the open edges and evaporation; the exchange's grids are cleared. Counts
// what it adds and removes. Touches only its own vertex. Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

// A water batch's options by their own names: waterRain() and the like (WATER_PARAM_SLOTS in
// plugin/core/batchParams.ts).

// Water the sources add at (x, y) a step (plugin/core/waterSources.ts: count, then column, row,
// radius^2 and units per vertex per source).
fn sourceInput(x: i32, y: i32) -> i32 {
    var total = 0;
    let count = waterSources[0];
    for (var k = 0; k < count; k++) {
        let base = 1 + k * SOURCE_ENTRY_INTS;
        let dx = x - waterSources[base];
        let dy = y - waterSources[base + 1];
        if (dx * dx + dy * dy <= waterSources[base + 2]) {
            total += waterSources[base + 3];
        }
    }
    return total;
}

// The Q16 fraction of its water an edge vertex loses over an open edge a step (openEdgeFraction).
fn openEdgeFraction(x: i32, y: i32) -> i32 {
    let missingX = select(0, 1, x == 0) + select(0, 1, x == params.width - 1);
    let missingY = select(0, 1, y == 0) + select(0, 1, y == params.depth - 1);
    if (missingX + missingY == 0) {
        return 0;
    }
    let missingDiagonals = 4 - (2 - missingX) * (2 - missingY);
    return (missingX + missingY) * PIPE_AXIS_Q16 + missingDiagonals * PIPE_DIAGONAL_Q16;
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let vertex = patchVertex(id);
    if (vertex.x < 0) {
        return;
    }
    let x = vertex.x;
    let y = vertex.y;
    let i = y * params.width + x;
    var depthNow = waterNext[i];
    var load = sedimentNext[i] - groundChange[i];
    var rain = waterRain();
    if (waterRainMasked() != 0) {
        rain = mulQ16(rain, mask[i]);
    }
    let input = rain + sourceInput(x, y);
    depthNow += input;
    addCounter(COUNTER_WATER_ADDED, u32(input));
    if (depthNow > WATER_LIMIT) {
        addCounter(COUNTER_WATER_REMOVED, u32(depthNow - WATER_LIMIT));
        depthNow = WATER_LIMIT;
    }
    if (waterOpenEdges() != 0) {
        let fraction = openEdgeFraction(x, y);
        if (fraction > 0) {
            let waterOut = mulQ16(depthNow, fraction);
            let sedimentOut = mulQ16(load, fraction);
            depthNow -= waterOut;
            load -= sedimentOut;
            addCounter(COUNTER_WATER_OUTFLOW, u32(waterOut));
            addCounter(COUNTER_OUTFLOW, u32(sedimentOut));
        }
    }
    let evaporated = depthNow - mulQ16(depthNow, waterKept());
    depthNow -= evaporated;
    addCounter(COUNTER_WATER_EVAPORATED, u32(evaporated));
    if (load > WATER_SEDIMENT_LIMIT) {
        addCounter(COUNTER_SATURATION_REMOVED, u32(load - WATER_SEDIMENT_LIMIT));
        load = WATER_SEDIMENT_LIMIT;
    }
    waterDepth[i] = depthNow;
    // What the water cut or laid down stays in its sediment until water_apply moves it.
    waterSediment[i] = load + groundChange[i];
    waterNext[i] = 0;
    sedimentNext[i] = 0;
}
