/** Test page: device loss in a bare Babylon scene (no erosion), to tell Babylon's own behaviour from ours. */
import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import "@babylonjs/core/Materials/standardMaterial.js";

async function run(updatable: boolean): Promise<string[]> {
    const errors: string[] = [];
    window.addEventListener("error", (event) => errors.push(String(event.message)));
    const canvas = document.createElement("canvas");
    document.body.appendChild(canvas);
    const engine = new WebGPUEngine(canvas);
    await engine.initAsync();
    const scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 30, -40), scene).setTarget(Vector3.Zero());
    new HemisphericLight("light", new Vector3(0, 1, 0), scene);
    CreateGround("ground", { width: 32, height: 32, subdivisions: 32, updatable }, scene);
    engine.runRenderLoop(() => scene.render());
    await new Promise((resolve) => setTimeout(resolve, 300));
    let restored = false;
    engine.onContextRestoredObservable.addOnce(() => (restored = true));
    (engine as unknown as { _device: GPUDevice })._device.destroy();
    while (!restored) await new Promise((resolve) => setTimeout(resolve, 20));
    // Babylon signals the restore before its new device is in place, and a loaded machine may draw
    // nothing for a while: wait for the throw (up to 5 s) rather than for a fixed time. Once Babylon
    // fixes the bug the wait runs out with no error, and the test says so.
    const deadline = performance.now() + 5000;
    while (errors.length === 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 100));
    engine.dispose();
    return errors;
}

Object.assign(window, { run, pageReady: true });
