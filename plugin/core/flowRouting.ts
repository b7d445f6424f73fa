/**
 * Where water goes on the grid for the flow-accumulation operator (seed 004): each vertex drains to
 * its lowest neighbour, if that neighbour is strictly lower. Strictly lower means heights fall along
 * every pointer, so no cycle of pointers can form; ties between equally low neighbours go to the
 * first in slot order (the thermal slot order: +x, -x, +y, -y, then the diagonals). Mirrors
 * `receiverOf` in `shaders/flow_common.wgsl`.
 *
 * With `wrap` (a seamlessly tiling terrain) the grid is a torus of period width x depth: the last
 * column neighbours the first. Otherwise neighbours past an edge do not exist.
 */
import { THERMAL_DX, THERMAL_DY } from "./thermalDirections.js";

/** Neighbour of (x, y) in slot k, as a vertex index, or -1 past a non-wrapping edge. */
export function neighbourIndex(x: number, y: number, k: number, width: number, depth: number, wrap: boolean): number {
    let nx = x + THERMAL_DX[k];
    let ny = y + THERMAL_DY[k];
    if (wrap) {
        nx = (nx + width) % width;
        ny = (ny + depth) % depth;
    } else if (nx < 0 || ny < 0 || nx >= width || ny >= depth) {
        return -1;
    }
    return ny * width + nx;
}

/** The vertex (x, y) drains to, as an index, or -1 (a pit or a flat: no strictly lower neighbour). */
export function receiverOf(heights: Int32Array, x: number, y: number, width: number, depth: number, neighbours: number, wrap: boolean): number {
    let lowest = heights[y * width + x];
    let receiver = -1;
    for (let k = 0; k < neighbours; k++) {
        const n = neighbourIndex(x, y, k, width, depth, wrap);
        if (n >= 0 && heights[n] < lowest) {
            lowest = heights[n];
            receiver = n;
        }
    }
    return receiver;
}
