// fill_levels: one Jacobi step of the fill levels over the batch's region, after its heights
// changed. CPU mirror: fillLevelStep in plugin/core/cpu/fillLevels.ts; the rule and why it converges
// are in plugin/core/fillLevels.ts.
//
// A cell's new level is max(height, lowest neighbouring level + FILL_EPSILON), reading the levels
// as they were before the step (copy_levels writes them back), and its height on the field's edge
// (the outlets). A neighbour whose own lowest neighbour is this cell is left out of the minimum
// (unless every neighbour is): otherwise two cells of a new depression would lift each other by one
// unit a step, and a basin deepened by a dam would take as many steps as it has units to fill.

@group(0) @binding(BINDING_HEIGHTS) var<storage, read> heights: array<i32>;
@group(0) @binding(BINDING_FILL_LEVELS) var<storage, read> fillLevels: array<i32>;
@group(0) @binding(BINDING_LEVELS_NEXT) var<storage, read_write> levelsNext: array<i32>;

fn onEdge(x: i32, y: i32) -> bool {
    return x == 0 || y == 0 || x == params.width - 1 || y == params.depth - 1;
}

// Index of the neighbour of (x, y) with the lowest level (the first in slot order on ties), or -1
// on the field's edge.
fn lowestNeighbour(x: i32, y: i32) -> i32 {
    if (onEdge(x, y)) {
        return -1;
    }
    var best = -1;
    var lowest = 0;
    for (var k = 0; k < 8; k++) {
        let n = (y + THERMAL_DY[k]) * params.width + x + THERMAL_DX[k];
        let level = levelAt(n);
        if (best < 0 || level < lowest) {
            best = n;
            lowest = level;
        }
    }
    return best;
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = params.regionX0 + i32(id.x);
    let y = params.regionY0 + i32(id.y);
    // The dispatch rounds the region up to whole workgroups: invocations past it idle.
    if (x >= params.regionX1 || y >= params.regionY1) {
        return;
    }
    let i = y * params.width + x;
    if (onEdge(x, y)) {
        levelsNext[i] = heights[i];
        return;
    }
    var lowest = HEIGHT_MAX_FIXED;
    var lowestOfAll = HEIGHT_MAX_FIXED;
    for (var k = 0; k < 8; k++) {
        let nx = x + THERMAL_DX[k];
        let ny = y + THERMAL_DY[k];
        let level = levelAt(ny * params.width + nx);
        lowestOfAll = min(lowestOfAll, level);
        if (lowestNeighbour(nx, ny) != i) {
            lowest = min(lowest, level);
        }
    }
    if (lowest == HEIGHT_MAX_FIXED) {
        lowest = lowestOfAll;
    }
    levelsNext[i] = max(heights[i], min(lowest, HEIGHT_MAX_FIXED - FILL_EPSILON) + FILL_EPSILON);
}
