// One Jacobi step of the drainage area over a river batch's rectangle, shared by river_accumulate
// and river_accumulate_odd. Each vertex's area is itself plus the areas of the neighbours whose
// water comes to it (their riverSlots point here), as they were before the step, saturating at
// DRAINAGE_AREA_LIMIT. The steps alternate between `drainageArea` and `areaNext` (no copy between
// them); a neighbour outside the rectangle is never stepped, so its area is always the one in
// `drainageArea`. CPU mirrors: SHADER_MIRRORS in plugin/gpu/kernelTable.ts.

// `fromNext`: this step reads the areas the previous step wrote into `areaNext` (inside the
// rectangle) and writes `drainageArea`; otherwise it reads `drainageArea` and writes `areaNext`.
fn areaStep(id: vec3<u32>, fromNext: bool) {
    let rect = riverRect();
    let x = rect.x + i32(id.x);
    let y = rect.y + params.dispatchOffset + i32(id.y);
    // The dispatch rounds the rectangle up to whole workgroups: invocations past it idle.
    if (x >= rect.z || y >= rect.w) {
        return;
    }
    var total = 1u;
    for (var k = 0; k < THERMAL_SLOTS; k++) {
        let n = neighbourAt(x, y, k, params.wrap != 0);
        if (n >= 0 && riverSlots[n] == OPPOSITE_SLOT[k]) {
            var area = drainageArea[n];
            if (fromNext && inRect(n % params.width, n / params.width, rect)) {
                area = areaNext[n];
            }
            total = min(total + u32(area), u32(DRAINAGE_AREA_LIMIT));
        }
    }
    let i = y * params.width + x;
    if (fromNext) {
        drainageArea[i] = i32(total);
    } else {
        areaNext[i] = i32(total);
    }
}
