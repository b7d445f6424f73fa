// water_apply: last pass of a water step, over the batch's patch: heights += groundChange and the
// water's sediment -= groundChange (the cut or deposit moves between water and ground), cleared,
// the change recorded in the wear and deposition maps; the limiter's factors (read by no later pass
// of the step) are cleared too. With the materials on, a cut takes the soil first and the rock
// beneath at 1 / hardness (materialCut: the water keeps only what it took), and the soil takes the
// change (soilAfter).
// Touches only its own vertex. Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let vertex = patchVertex(id);
    if (vertex.x < 0) {
        return;
    }
    let i = vertex.y * params.width + vertex.x;
    outflowScale[i] = 0;
    var amount = groundChange[i];
    if (amount != 0) {
        if (materials() != 0) {
            if (amount < 0) {
                amount = -materialCut(-amount, material[i], vertexHardness(i, vertex.x, vertex.y, heights[i]));
            }
            material[i] = soilAfter(material[i], amount);
        }
        heights[i] += amount;
        waterSediment[i] -= amount;
        groundChange[i] = 0;
        recordChange(i, amount);
    }
}
