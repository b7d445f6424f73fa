// write_vertices: regenerates one ground's own positions (y) and normals from the fixed-point
// heights over a rectangle of vertices, writing straight into the mesh's vertex buffers (Babylon
// creates them with storage usage on WebGPU). x and z never change, so only y is written.
// The ground is the window patchX0..patchX1 x patchY0..patchY1 of the field (the whole field for a
// single ground; one tile of a TerrainErosionWorld), so its vertex i is the window's, while normals
// are central differences over the whole field (one-sided only at the field's edges): a seam between
// two grounds gets the same normal on both sides. Local space: x grows with the column, z falls as
// the row grows. Its CPU mirror: KERNELS in plugin/gpu/kernelTable.ts.
// Floats here are for rendering only; nothing is read back into the simulation.

// The height in the ground's local units: the state counts 1/FIXED_ONE of a cell.
fn heightAt(x: i32, y: i32) -> f32 {
    return f32(heights[y * params.width + x]) / f32(FIXED_ONE) * bitcast<f32>(params.cellSizeBits);
}

@compute @workgroup_size(GRID_WORKGROUP_SIZE, GRID_WORKGROUP_SIZE)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    params = batchParams[id.z];
    let x = params.regionX0 + i32(id.x);
    let y = params.regionY0 + i32(id.y);
    // The dispatch rounds the rectangle up to whole workgroups: invocations past it idle.
    if (x >= params.regionX1 || y >= params.regionY1) {
        return;
    }
    let width = params.width;
    let depth = params.depth;
    let cellSize = bitcast<f32>(params.cellSizeBits);
    let i = (y - params.patchY0) * (params.patchX1 - params.patchX0) + (x - params.patchX0);
    positions[i * 3 + 1] = heightAt(x, y);
    let left = max(x - 1, 0);
    let right = min(x + 1, width - 1);
    let up = max(y - 1, 0);
    let down = min(y + 1, depth - 1);
    let dhdx = (heightAt(right, y) - heightAt(left, y)) / (f32(right - left) * cellSize);
    let dhdz = (heightAt(x, up) - heightAt(x, down)) / (f32(down - up) * cellSize);
    let normal = normalize(vec3<f32>(-dhdx, 1.0, -dhdz));
    normals[i * 3] = normal.x;
    normals[i * 3 + 1] = normal.y;
    normals[i * 3 + 2] = normal.z;
}
