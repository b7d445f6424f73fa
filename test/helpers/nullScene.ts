/** A NullEngine scene with a camera and a ground, for component tests under Node. */
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import { VertexBuffer } from "@babylonjs/core/Buffers/buffer.js";
import type { GroundMesh } from "@babylonjs/core/Meshes/groundMesh.js";

/** Engine and scene, disposed by `dispose()`. */
export function createNullScene(): { engine: NullEngine; scene: Scene; dispose(): void } {
    const engine = new NullEngine();
    const scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 50, -100), scene);
    return {
        engine,
        scene,
        dispose() {
            scene.dispose();
            engine.dispose();
        },
    };
}

/** An updatable ground whose vertex heights are `heights` (row-major, width x depth vertices). */
export function createGroundWithHeights(scene: Scene, heights: Float32Array, width: number, depth: number, cellSize = 1, name = "ground"): GroundMesh {
    const ground = CreateGround(name, { width: (width - 1) * cellSize, height: (depth - 1) * cellSize, subdivisionsX: width - 1, subdivisionsY: depth - 1, updatable: true }, scene);
    const positions = ground.getVerticesData(VertexBuffer.PositionKind)!;
    for (let i = 0; i < width * depth; i++) {
        positions[i * 3 + 1] = heights[i];
    }
    ground.updateVerticesData(VertexBuffer.PositionKind, positions);
    return ground;
}

/** Renders `count` frames, letting promises settle between them. */
export async function renderFrames(scene: Scene, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
        scene.render();
        await new Promise((resolve) => setImmediate(resolve));
    }
}
