// route_sediment: a hop of the sediment routing, from `routedFrom` to `routedTo`. The hop itself is
// route_hop.wgsl. One file, four kernels (KERNELS in plugin/gpu/kernelTable.ts): hops alternate
// between `routed` and `routedNext` (the odd kernels bind the two the other way round), and
// PASS_ON says whether what does not settle passes on to the next hop (every hop of a batch but
// its last) or waits in `suspended` for a later batch (the last).

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    routeHop(id, PASS_ON);
}
