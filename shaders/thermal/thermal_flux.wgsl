// thermal_flux: first pass of one thermal (talus) erosion step over a patch.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.
//
// Each vertex of the patch works out what it sheds toward each neighbour lower than it by more
// than the talus threshold (diagonals use talus * sqrt 2): rate / (2 * neighbours) of the excess,
// which keeps a step monotone (at most half the largest excess leaves a vertex, and no vertex can
// be pushed past the neighbour it receives from), so slopes settle to the threshold without the
// checkerboard a larger rate makes. Off an open edge the ground continues the edge's slope, so
// material on slopes that run off the field falls off; a closed edge has no neighbour there.
// With thermalMasked, what moves between two vertices is scaled by the smaller of their masks (the
// vertex itself stands in for a neighbour off an open edge), so a vertex the mask holds out neither
// gives nor receives; a mask of ones changes nothing. With the materials on, soil and rock shed by
// thermalMaterialAmount: the soil at its own angle, at most its share, the rock at 1 / hardness
// past its own angle (rockThreshold: from the soil's for rock as soft as soil up toward talus).
// Reads heights, writes only this vertex's flux slots; thermal_apply reads them.

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    // MATERIALS: this build runs the materials' rule (thermal_flux_materials); the other has none.
    materialsOn = MATERIALS && materials() != 0;
    let x = params.patchX0 + i32(id.x);
    let y = params.patchY0 + i32(id.y);
    // The dispatch rounds the patch up to whole workgroups: invocations past it idle.
    if (x >= params.patchX1 || y >= params.patchY1) {
        return;
    }
    let width = params.width;
    let depth = params.depth;
    let height = heights[y * width + x];
    var soilShare = 0;
    var hardness = 0;
    if (MATERIALS && materialsOn) {
        soilShare = material[y * width + x] / params.neighbours;
        hardness = vertexHardness(y * width + x, x, y, height);
    }
    let slot = params.dispatchOffset + ((y - params.patchY0) * (params.patchX1 - params.patchX0) + (x - params.patchX0)) * THERMAL_SLOTS;
    for (var k = 0; k < THERMAL_SLOTS; k++) {
        var drop = 0;
        if (k < params.neighbours) {
            let nx = x + THERMAL_DX[k];
            let ny = y + THERMAL_DY[k];
            if (nx >= 0 && ny >= 0 && nx < width && ny < depth) {
                drop = height - heights[ny * width + nx];
            } else if (params.openBoundary != 0) {
                let mx = x - THERMAL_DX[k];
                let my = y - THERMAL_DY[k];
                if (mx >= 0 && my >= 0 && mx < width && my < depth) {
                    drop = heights[my * width + mx] - height;
                }
            }
        }
        var threshold = params.talus;
        if (k >= FIRST_DIAGONAL_SLOT) {
            threshold = params.talusDiagonal;
        }
        var amount = 0;
        if (MATERIALS && materialsOn) {
            var soilThreshold = soilTalus();
            if (k >= FIRST_DIAGONAL_SLOT) {
                soilThreshold = soilTalusDiagonal();
            }
            amount = thermalMaterialAmount(drop, soilThreshold, rockThreshold(soilThreshold, threshold, hardness), params.thermalRate, soilShare, hardness);
        } else if (drop > threshold) {
            amount = mulQ16(drop - threshold, params.thermalRate);
        }
        if (params.thermalMasked != 0 && amount > 0) {
            var other = y * width + x;
            let nx = x + THERMAL_DX[k];
            let ny = y + THERMAL_DY[k];
            if (nx >= 0 && ny >= 0 && nx < width && ny < depth) {
                other = ny * width + nx;
            }
            amount = mulQ16(amount, min(mask[y * width + x], mask[other]));
        }
        flux[slot + k] = amount;
    }
}
