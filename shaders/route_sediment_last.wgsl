// route_sediment_last: the last hop of a batch's sediment routing when it reads the first half of
// `routed`: what does not settle waits in `suspended` for a later batch. The hop itself is route_hop.wgsl.

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    routeHop(id, false, 0);
}
