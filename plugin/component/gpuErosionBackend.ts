/**
 * The WebGPU backend of the component: the headless GPU backend (`gpu/headlessGpuBackend.ts`) with
 * the scene's part plugged in (`GpuScene`: the vertex pass into the grounds' own buffers, the
 * textures, the timer, the device's loss), started over the engine's frames so that the buffers,
 * the WGSL and a large field's upload do not hold one frame.
 */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { ErosionStateData } from "../core/erosionState.js";
import type { WaitWatch } from "../core/waitWatch.js";
import { GpuErosionSimulation, HeadlessGpuBackend, UPLOAD_PIECE_BYTES, WatchedComputeDevice, writeInPieces } from "../gpu/index.js";
import { BabylonComputeDevice } from "./babylonComputeDevice.js";
import type { GroundField } from "./groundField.js";
import { GpuScene } from "./gpuScene.js";
import type { StartupProgress } from "./startupProgress.js";

/** The scene's GPU backend and its scene part (what its presenter asks for: textures, the device's loss). */
export interface GpuErosionBackend {
    readonly backend: ErosionBackend;
    readonly scene: GpuScene;
}

/**
 * Creates the buffers, compiles the kernels (for the engine's current device) and uploads `state`,
 * a frame between the steps where the engine renders.
 * @param watch where the backend's waits (readbacks, submitted work, compiles) are recorded and get their deadline
 */
export async function createGpuErosionBackend(
    engine: WebGPUEngine, field: GroundField, state: ErosionStateData, patchSize: number, startup?: StartupProgress, watch: WaitWatch | null = null
): Promise<GpuErosionBackend> {
    startup?.enter("creating-buffers");
    // The attach (the grounds' copies, the initial state) had this frame: the buffers and the WGSL get the next.
    await nextRenderedFrame(engine);
    const device = new BabylonComputeDevice(engine);
    const gpu = (engine as unknown as { _device?: GPUDevice })._device;
    const watched = watch ? new WatchedComputeDevice(device, watch, gpu ? () => gpu.queue.onSubmittedWorkDone() : null) : device;
    const simulation = await GpuErosionSimulation.create(
        watched, state.width, state.depth, patchSize, (done, total) => startup?.kernels(done, total), state.water !== undefined && state.water !== null
    );
    startup?.enter("uploading");
    await writeInPieces(device, simulation.stateWrites(state), UPLOAD_PIECE_BYTES, () => nextRenderedFrame(engine));
    const scene = new GpuScene(engine, device, simulation, field, watch);
    return { backend: HeadlessGpuBackend.over(device, simulation, scene), scene };
}

/** Milliseconds a start waits for a frame between its steps at most (a render loop stopped meanwhile must not hold it). */
const UPLOAD_FRAME_WAIT_MS = 100;

/** Resolves after the engine's next frame when its render loop runs, else at once (a start without rendering: `runCycles`, a bake). */
function nextRenderedFrame(engine: WebGPUEngine): Promise<void> {
    if (engine.activeRenderLoops.length === 0) return Promise.resolve();
    return new Promise((resolve) => {
        const timer = setTimeout(done, UPLOAD_FRAME_WAIT_MS);
        const observer = engine.onEndFrameObservable.addOnce(done);
        function done(): void {
            clearTimeout(timer);
            engine.onEndFrameObservable.remove(observer);
            resolve();
        }
    });
}
