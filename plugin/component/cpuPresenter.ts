/**
 * The CPU backend's presenter: its results exist only on the CPU, so every row goes up to the
 * vertex buffers from the grounds' CPU data and the maps textures are the component's, uploaded
 * from `readMaps` (and, frame by frame, from the texels its worker brings back with the rows); it
 * has no device to lose, and its thread, pool and WebAssembly are its own to describe.
 */
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { CpuFramePresentation } from "../cpu/index.js";
import { NOTHING_PRESENTED, type BackendPresenter } from "./backendPresenter.js";

/** What a CPU backend stopped for stalls describes: it answers reads on this thread, alone, in TypeScript. */
const HALTED_CPU = { inWorker: false, workers: 1, sharedMemory: false, webAssembly: false } as const;

/** The presenter of `backend`, a CPU backend (its `describe()` not null). */
export function cpuPresenter(backend: Pick<ErosionBackend, "describe">): BackendPresenter<CpuFramePresentation> {
    return {
        uploadsRows: true,
        uploadsMaps: true,
        // Its frames land from a worker or from this thread's own compute, not from the rendered frame's GPU queue.
        evenFrames: false,
        // The worker's texels, normals and post time, as they came (a frame in this thread brings them too, its post 0).
        frame: (result) => result.presentation ?? NOTHING_PRESENTED,
        deviceLostWithin: () => false,
        deviceTexture: () => null,
        describe: () => backend.describe(),
        halted: () => cpuPresenter({ describe: () => HALTED_CPU }),
    };
}
