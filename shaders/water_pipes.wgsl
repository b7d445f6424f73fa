// What a vertex sends through its 8 pipes (positive parts only). Included by the kernels that bind
// the four pipe grids. CPU mirror: outflowAt in plugin/core/cpu/waterPipes.ts.
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
