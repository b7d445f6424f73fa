/**
 * Test page: a `terrain-erosion bake` output in the browser. The component erodes the baked PNG's
 * heights on WebGPU (SwiftShader in headless Chromium), and a second ground restores the bake's
 * snapshot.
 */
import { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { Scene } from "@babylonjs/core/scene.js";
import { FreeCamera } from "@babylonjs/core/Cameras/freeCamera.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import "@babylonjs/core/Engines/WebGPU/Extensions/engine.computeShader.js";
import { createGroundFromPng16 } from "../../../plugin/terrain.js";
import { ErosionSnapshot, TerrainErosion, type ErosionOptionsInput } from "../../../plugin/index.js";
import { runThrottledRenderLoop } from "../../helpers/renderLoop.js";

interface BakeRestoreRequest {
    png: string;
    snapshot: string;
    range: { min: number; max: number };
    extent: { width: number; height: number };
    options: ErosionOptionsInput;
    cycles: number;
}

async function bakeRestore(request: BakeRestoreRequest) {
    const canvas = document.createElement("canvas");
    document.body.appendChild(canvas);
    const engine = new WebGPUEngine(canvas, { antialias: false });
    await engine.initAsync();
    const scene = new Scene(engine);
    new FreeCamera("camera", new Vector3(0, 60, -90), scene);
    runThrottledRenderLoop(engine, () => scene.render());
    const { png, range, extent } = request;
    // The component eroding the same heights.
    const eroded = await createGroundFromPng16("eroded", png, { range, extent }, scene);
    const erosion = new TerrainErosion({ ...request.options, autoStart: false });
    eroded.addBehavior(erosion);
    await erosion.whenReady();
    await erosion.runCycles(request.cycles);
    const fingerprint = await erosion.fingerprint();
    // The bake's snapshot restored on a fresh ground of the same PNG.
    const restoredGround = await createGroundFromPng16("restored", png, { range, extent }, scene);
    const restoring = new TerrainErosion({ autoStart: false });
    restoredGround.addBehavior(restoring);
    await restoring.whenReady();
    const snapshot = ErosionSnapshot.fromArrayBuffer(await (await fetch(request.snapshot)).arrayBuffer());
    await restoring.history.restore(snapshot);
    const restoredFingerprint = await restoring.fingerprint();
    const heightsEqual = (await restoring.maps.readHeights()).every((h, i) => h === snapshot.state.heights[i] * (snapshot.cellSize / 65536));
    const result = { backend: erosion.backend, fingerprint, restoredFingerprint, heightsEqual, cycles: restoring.cyclesCompleted };
    engine.stopRenderLoop();
    erosion.dispose();
    restoring.dispose();
    engine.dispose();
    return result;
}

Object.assign(window, { bakeRestore, pageReady: true });
