/**
 * The WebGPU backend's presenters: the scene's own (its `GpuScene`: vertices and maps textures
 * written on the device, device loss detected), and one for a GPU backend the scene cannot reach
 * into (the tests' headless one, made by `makeBackendsWith`, or a halted one standing in for a
 * GPU backend), which writes no vertices, makes no texture and reports no loss.
 */
import { NOTHING_PRESENTED, type BackendPresenter, type MapsTextureName } from "./backendPresenter.js";
import type { GpuScene } from "./gpuScene.js";

/**
 * A GPU backend outside the scene's device: its rows still reach the grounds' CPU data but are not
 * uploaded (as the backends' names decided before presenters: only a CPU backend's were), and its
 * maps textures, if asked for, are the component's, not uploaded whole either.
 */
export const DETACHED_GPU_PRESENTER: BackendPresenter = {
    uploadsRows: false,
    uploadsMaps: false,
    evenFrames: true,
    frame: () => NOTHING_PRESENTED,
    deviceLostWithin: () => false,
    deviceTexture: () => null,
    describe: () => null,
    halted: () => DETACHED_GPU_PRESENTER,
};

/** The scene's GPU backend: vertices and textures on the device, whose loss it reports. */
export function gpuPresenter(gpu: GpuScene): BackendPresenter {
    return {
        uploadsRows: false,
        uploadsMaps: false,
        evenFrames: true,
        // Its vertices and textures are written on the device; only the rows come back.
        frame: () => NOTHING_PRESENTED,
        deviceLostWithin: (waitMs) => gpu.deviceLostWithin(waitMs),
        deviceTexture: (name: MapsTextureName, scene, tileable) => {
            switch (name) {
                case "maps":
                    return gpu.enableMapsTexture(scene, tileable);
                case "area":
                    return gpu.enableAreaTexture(scene);
                case "water":
                    return gpu.enableWaterTexture(scene);
                case "materials":
                    return gpu.enableMaterialsTexture(scene);
            }
        },
        describe: () => null,
        halted: () => DETACHED_GPU_PRESENTER,
    };
}
