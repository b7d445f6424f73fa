/** Reading a ground's GPU vertex buffer back in a browser test page (WebGPU). */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { StorageBuffer } from "@babylonjs/core/Buffers/storageBuffer.js";
import { ComputeShader } from "@babylonjs/core/Compute/computeShader.js";
import { Constants } from "@babylonjs/core/Engines/constants.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";

/** Copies a vertex buffer (storage usage, no copy-source usage) into a readable storage buffer with a compute pass. */
export async function readVertexBuffer(engine: WebGPUEngine, ground: GroundMesh, kind: string): Promise<Float32Array> {
    const floats = ground.getTotalVertices() * 3;
    const target = new StorageBuffer(engine, floats * 4, Constants.BUFFER_CREATIONFLAG_READWRITE, "test.readback");
    const copy = new ComputeShader("test.copy", engine, { computeSource: `
        @group(0) @binding(0) var<storage, read> source: array<f32>;
        @group(0) @binding(1) var<storage, read_write> copied: array<f32>;
        @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
            if (id.x < arrayLength(&copied)) { copied[id.x] = source[id.x]; }
        }` }, { bindingsMapping: { source: { group: 0, binding: 0 }, copied: { group: 0, binding: 1 } } });
    copy.setStorageBuffer("source", ground.getVertexBuffer(kind)!.getBuffer()!);
    copy.setStorageBuffer("copied", target);
    await copy.dispatchWhenReady(Math.ceil(floats / 64));
    const data = await target.read(undefined, undefined, undefined, true);
    target.dispose();
    return new Float32Array(data.buffer, data.byteOffset, floats).slice();
}

