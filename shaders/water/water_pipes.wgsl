// Helpers of the kernels that bind the four pipe grids.

// What a vertex sends through its 8 pipes (positive parts only). CPU mirrors: SHADER_MIRRORS in plugin/gpu/kernelTable.ts.
fn outflowAt(x: i32, y: i32) -> i32 {
    let width = params.width;
    let i = y * width + x;
    var out = max(fluxX[i], 0) + max(fluxY[i], 0) + max(fluxD1[i], 0);
    if (x > 0) {
        out += max(-fluxX[i - 1], 0);
        // The pipe (x - 1, y) owns runs from here to (x - 1, y + 1): positive leaves this vertex.
        out += max(fluxD2[i - 1], 0);
    }
    if (y > 0) {
        out += max(-fluxY[i - width], 0);
        // The pipe (x, y - 1) owns runs from (x + 1, y - 1) to here: negative leaves this vertex.
        out += max(-fluxD2[i - width], 0);
        if (x > 0) {
            out += max(-fluxD1[i - width - 1], 0);
        }
    }
    return out;
}

// The pipes' flows through (x, y) summed as vectors (along +x, along +y), twice the vertex's net
// flow: a diagonal pipe carries (1, 1) or (-1, 1) per unit. CPU mirrors: SHADER_MIRRORS in plugin/gpu/kernelTable.ts.
fn flowVector(x: i32, y: i32) -> vec2<i32> {
    let width = params.width;
    let i = y * width + x;
    var along = fluxX[i] + fluxD1[i];
    var across = fluxY[i] + fluxD1[i];
    if (x > 0) {
        along += fluxX[i - 1] - fluxD2[i - 1];
        across += fluxD2[i - 1];
    }
    if (y > 0) {
        along -= fluxD2[i - width];
        across += fluxY[i - width] + fluxD2[i - width];
        if (x > 0) {
            along += fluxD1[i - width - 1];
            across += fluxD1[i - width - 1];
        }
    }
    return vec2<i32>(along, across);
}

// |flow| summed over the 8 pipes through (x, y): what left it plus what reached it in the step.
// CPU mirrors: SHADER_MIRRORS in plugin/gpu/kernelTable.ts.
fn flowThrough(x: i32, y: i32) -> i32 {
    let width = params.width;
    let i = y * width + x;
    var through = abs(fluxX[i]) + abs(fluxY[i]) + abs(fluxD1[i]);
    if (x > 0) {
        through += abs(fluxX[i - 1]) + abs(fluxD2[i - 1]);
    }
    if (y > 0) {
        through += abs(fluxY[i - width]) + abs(fluxD2[i - width]);
        if (x > 0) {
            through += abs(fluxD1[i - width - 1]);
        }
    }
    return through;
}
