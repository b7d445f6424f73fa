// route_sediment: a hop of the sediment routing that passes on what does not settle (every hop of a
// batch but its last), from `routed` to `routedNext`. The hop itself is route_hop.wgsl.

@group(0) @binding(BINDING_ROUTED) var<storage, read_write> routedFrom: array<i32>;
@group(0) @binding(BINDING_ROUTED_NEXT) var<storage, read_write> routedTo: array<i32>;

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    routeHop(id, true);
}
