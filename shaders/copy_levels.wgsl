// copy_levels: the fill levels fill_levels stepped become the levels, over the batch's region. A
// separate pass so no invocation of fill_levels reads a level another one is writing.
// CPU mirror: copyLevels in plugin/core/cpu/fillLevels.ts.

@group(0) @binding(BINDING_LEVELS_NEXT) var<storage, read> levelsNext: array<i32>;
@group(0) @binding(BINDING_FILL_LEVELS) var<storage, read_write> fillLevels: array<i32>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let x = params.regionX0 + i32(id.x);
    let y = params.regionY0 + i32(id.y);
    // The dispatch rounds the region up to whole workgroups: invocations past it idle.
    if (x >= params.regionX1 || y >= params.regionY1) {
        return;
    }
    let i = y * params.width + x;
    fillLevels[i] = levelsNext[i];
}
