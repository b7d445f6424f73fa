// The vertices a river batch works on. CPU mirrors: SHADER_MIRRORS in plugin/gpu/kernelTable.ts.

// The vertices a river batch erodes: its patch, less the repeated last column and row of a tileable
// terrain, as (x0, y0, x1, y1).
fn riverRect() -> vec4<i32> {
    if (params.wrap != 0) {
        return vec4<i32>(params.patchX0, params.patchY0, min(params.patchX1, params.width - 1), min(params.patchY1, params.depth - 1));
    }
    return vec4<i32>(params.patchX0, params.patchY0, params.patchX1, params.patchY1);
}

fn inRect(x: i32, y: i32, rect: vec4<i32>) -> bool {
    return x >= rect.x && y >= rect.y && x < rect.z && y < rect.w;
}
