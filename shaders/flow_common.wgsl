// Flow routing shared by the flow-accumulation kernels (seed 004). CPU mirror:
// plugin/core/flowRouting.ts. Each vertex drains to its lowest neighbour if that neighbour is
// strictly lower, so heights fall along every pointer and no cycle can form; ties go to the first
// in slot order. With flowWrap the grid is a torus of period width x depth.

// Neighbour of (x, y) in slot k as a vertex index, or -1 past a non-wrapping edge.
fn neighbourIndex(x: i32, y: i32, k: i32) -> i32 {
    var nx = x + THERMAL_DX[k];
    var ny = y + THERMAL_DY[k];
    if (params.flowWrap != 0) {
        nx = (nx + params.width) % params.width;
        ny = (ny + params.depth) % params.depth;
    } else if (nx < 0 || ny < 0 || nx >= params.width || ny >= params.depth) {
        return -1;
    }
    return ny * params.width + nx;
}

// The vertex (x, y) drains to, or -1 for a pit or a flat.
fn receiverOf(x: i32, y: i32) -> i32 {
    var lowest = heights[y * params.width + x];
    var receiver = -1;
    for (var k = 0; k < params.flowNeighbours; k++) {
        let n = neighbourIndex(x, y, k);
        if (n >= 0 && heights[n] < lowest) {
            lowest = heights[n];
            receiver = n;
        }
    }
    return receiver;
}
