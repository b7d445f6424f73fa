// route_sediment: a hop of the sediment routing that passes on what does not settle (every hop of a
// batch but its last), from the first half of `routed` to the second. The hop itself is route_hop.wgsl.

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    routeHop(id, true, 0);
}
