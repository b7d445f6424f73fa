// flow_apply: folds a flow batch's changes into the heights over the patch grown by one vertex and
// clears the accumulator, recording the change in the wear and deposition maps. The region is in virtual coordinates that run past the edges when the
// terrain wraps (taken modulo the size here); a region as wide as the field covers each column once.
// CPU mirror: plugin/core/cpu/flowApply.ts.

@group(0) @binding(BINDING_HEIGHTS) var<storage, read_write> heights: array<i32>;
@group(0) @binding(BINDING_DELTA) var<storage, read_write> delta: array<i32>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let vx = params.regionX0 + i32(id.x);
    let vy = params.regionY0 + i32(id.y);
    // The dispatch rounds the region up to whole workgroups: invocations past it idle.
    if (vx >= params.regionX1 || vy >= params.regionY1) {
        return;
    }
    let x = (vx + params.width) % params.width;
    let y = (vy + params.depth) % params.depth;
    let i = y * params.width + x;
    let change = delta[i];
    heights[i] += change;
    delta[i] = 0;
    recordChange(i, change);
}
