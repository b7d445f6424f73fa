// water_transport: fourth pass of a water step, over the batch's patch. Each vertex's water after
// the pipes' exchange, and the sediment it carries: a pipe carrying the fraction f / w of its
// source's water carries floor(s x that fraction in Q16) of the source's sediment, computed from the
// same integers by both ends, so the transport is exact. Reads the previous pass's water, sediment and
// pipes (nobody writes them here), writes only its own vertex.
// Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.

var<private> waterChange: i32;
var<private> sedimentChange: i32;

// `flow` leaves vertex i toward n when positive, arrives from n when negative.
fn exchangeWith(i: i32, flow: i32, n: i32) {
    if (flow > 0) {
        waterChange -= flow;
        sedimentChange -= mulQ16(waterSediment[i], fractionQ16(flow, waterDepth[i]));
    } else if (flow < 0) {
        waterChange -= flow;
        sedimentChange += mulQ16(waterSediment[n], fractionQ16(-flow, waterDepth[n]));
    }
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let vertex = patchVertex(id);
    if (vertex.x < 0) {
        return;
    }
    let x = vertex.x;
    let y = vertex.y;
    let width = params.width;
    let i = y * width + x;
    let hasRight = x + 1 < width;
    let hasDown = y + 1 < params.depth;
    waterChange = 0;
    sedimentChange = 0;
    if (hasRight) {
        exchangeWith(i, fluxX[i], i + 1);
    }
    if (x > 0) {
        exchangeWith(i, -fluxX[i - 1], i - 1);
    }
    if (hasDown) {
        exchangeWith(i, fluxY[i], i + width);
    }
    if (y > 0) {
        exchangeWith(i, -fluxY[i - width], i - width);
    }
    if (hasRight && hasDown) {
        exchangeWith(i, fluxD1[i], i + width + 1);
    }
    if (x > 0 && y > 0) {
        exchangeWith(i, -fluxD1[i - width - 1], i - width - 1);
    }
    if (x > 0 && hasDown) {
        exchangeWith(i, fluxD2[i - 1], i + width - 1);
    }
    if (hasRight && y > 0) {
        exchangeWith(i, -fluxD2[i - width], i - width + 1);
    }
    waterNext[i] = waterDepth[i] + waterChange;
    sedimentNext[i] = waterSediment[i] + sedimentChange;
}
