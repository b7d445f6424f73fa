/** Players of the sample's lockstep server in a Node test: NullEngine behaviors on the CPU backend, joined with the sample's client. */
import "@babylonjs/core/Meshes/groundMesh.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { WebSocket as NodeWebSocket } from "ws";
import { generateNoiseTerrain } from "../../plugin/terrain.js";
import { TerrainErosion } from "../../plugin/index.js";
import { joinLockstep } from "../../sample-scene/lockstep/lockstepClient.js";
import { createGroundWithHeights, renderFrames } from "./nullScene.js";

/**
 * A player on a `size`² ground of its own (its start heights do not matter: it takes the host's state
 * on joining), a 2 ms budget, joined to the server on `port`.
 */
export async function joinSamplePlayer(scene: Scene, port: number, size: number, seed: number) {
    (globalThis as { WebSocket?: unknown }).WebSocket = NodeWebSocket;
    const ground = createGroundWithHeights(scene, generateNoiseTerrain({ width: size, depth: size, seed, relief: 5 }), size, size);
    const erosion = new TerrainErosion({ backend: "cpu", cpuWorkers: 1, frameBudgetMs: 2, autoStart: false });
    ground.addBehavior(erosion);
    await erosion.whenReady();
    return { erosion, lockstep: await joinLockstep(`ws://127.0.0.1:${port}`, erosion, scene) };
}

/** Renders frames a few ms apart for `milliseconds`, or until `done()` (then at most `milliseconds`). */
export async function play(scene: Scene, milliseconds: number, done: () => boolean = () => false): Promise<void> {
    for (const until = performance.now() + milliseconds; performance.now() < until && !done(); ) {
        await renderFrames(scene, 1);
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
}
