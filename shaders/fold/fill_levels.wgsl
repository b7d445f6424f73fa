// fill_levels: one Jacobi step of the fill levels over the batch's extent, after its heights
// changed. Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts; the
// rule and why it converges are in plugin/core/fillLevels.ts.
//
// A vertex's new level is max(height, lowest neighbouring level + FILL_EPSILON), reading the levels
// as they were before the step (copy_levels writes them back), and its height on the field's edge
// (the outlets). No deposit ever comes within FILL_EPSILON of a neighbouring level above its own
// (fillRoom), so the levels stay at or above the exact ones and only ever need to come down, which
// this step does one vertex a step from the outlets.

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
    let height = heights[i];
    if (x == 0 || y == 0 || x == params.width - 1 || y == params.depth - 1) {
        levelsNext[i] = height;
        return;
    }
    var lowest = HEIGHT_MAX_FIXED;
    for (var k = 0; k < THERMAL_SLOTS; k++) {
        lowest = min(lowest, levelAt((y + THERMAL_DY[k]) * params.width + x + THERMAL_DX[k]));
    }
    var lifted = HEIGHT_MAX_FIXED;
    if (lowest < HEIGHT_MAX_FIXED - FILL_EPSILON) {
        lifted = lowest + FILL_EPSILON;
    }
    levelsNext[i] = max(lifted, height);
}
