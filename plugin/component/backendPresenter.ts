/**
 * How a backend shows itself in a scene: whether the rows and edit previews the component writes
 * into the grounds' CPU data go up to their vertex buffers from there, whether frames are evened,
 * how a lost device is told from a failed frame, where the maps textures come from, what a frame
 * brings beside its rows, and the CPU backend's facts. The backend contract (`core/erosionBackend.ts`) stays free of Babylon; what
 * only a scene needs lives here, one presenter per backend, chosen where the backend is made
 * (`backendStart.ts`, `deviceRecovery.ts`, `stallRecovery.ts`), so the component never asks which
 * backend it holds.
 */
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { CpuBackendDescription, ErosionBackend, FrameResult } from "../core/erosionBackend.js";
import type { MapsTexels } from "../core/erosionMaps.js";

/** The textures materials sample: the maps (RGBA32F), the drainage area (R32F), the shallow water and the materials (RGBA32F). */
export type MapsTextureName = "maps" | "area" | "water" | "materials";

/** What a landed frame brings the grounds beside its rows (`BackendPresenter.frame`). */
export interface FramePresentation {
    /** The maps-texture texels of the frame's region, row after row, where the component uploads them (`uploadsMaps`), else null. */
    readonly texels: MapsTexels | null;
    /** The vertex normals of the frame's region (xyz a vertex) where the backend computed them off the main thread, else null. */
    readonly normals: Float32Array | null;
    /** Main-thread milliseconds the backend spent handing the frame over (`lastFrame.postMs`), 0 where it does not. */
    readonly postMs: number;
}

/** A frame that brought nothing beside its rows. */
export const NOTHING_PRESENTED: FramePresentation = { texels: null, normals: null, postMs: 0 };

/**
 * What a backend does in a scene, beside the batches it runs; `P` what its frames hand it
 * (`FrameResult.presentation`, opaque to the contract).
 */
export interface BackendPresenter<P = unknown> {
    /**
     * Whether the rows the component writes into the grounds' CPU data (landed frames, flushes,
     * restores, edit previews) must also go up to the vertex buffers from there: the CPU backend's
     * results exist only on the CPU, so they reach the GPU by upload. A GPU backend writes the
     * vertex buffers itself in its vertex pass; uploading its rows again would cost the upload and
     * could overwrite newer vertices with older ones.
     */
    readonly uploadsRows: boolean;
    /**
     * Whether the maps textures are the component's own (`CpuMapsTextures`), uploaded whole from
     * `readMaps` after a change that did not come through frames (a reset, restore or maps reset).
     */
    readonly uploadsMaps: boolean;
    /**
     * Whether the frame planner evens the batches over the frames (`planFrame`'s `evenFrames`): a
     * GPU on the render thread's queue shows each frame's work as that frame's time; a worker's
     * does not land in the rendered frame.
     */
    readonly evenFrames: boolean;
    /**
     * Whether the device reports its loss within `waitMs` (a readback fails just before it): the
     * loss handler owns that failure. False at once where there is no device to lose, so a failed
     * frame of such a backend is reported without waiting a turn.
     */
    deviceLostWithin(waitMs: number): Promise<boolean> | false;
    /** What `result`, a frame of this presenter's backend, brings beside its rows. */
    frame(result: FrameResult<P>): FramePresentation;
    /** The texture `name` made and written on the device, or null where the component makes it and uploads it (`uploadsMaps`). */
    deviceTexture(name: MapsTextureName, scene: Scene, tileable: () => boolean): Promise<RawTexture> | null;
    /** The CPU backend's thread, pool and kernels' language (`cpuPool`, `backendInWorker`, the frame planner's parallel workers); null on a GPU backend. */
    describe(): CpuBackendDescription | null;
    /** What a backend stopped for stalls (`HaltedBackend`) presents in this one's place: reads only, no device, one thread. */
    halted(): BackendPresenter;
}

/** Each backend's presenter, from where it was made on: the presenter travels with the backend, however many hands it passes. */
const presenters = new WeakMap<ErosionBackend, BackendPresenter>();

/**
 * Makes `presenter` the one `backend` shows itself through; returns `backend`. Their frames'
 * presentation (`P`) is checked to match here, where both are known, so `frame` may trust it later.
 */
export function present<P, B extends ErosionBackend<P>>(backend: B, presenter: BackendPresenter<P>): B {
    presenters.set(backend, presenter);
    return backend;
}

/** The presenter `backend` was made with (`present`); a backend made without one is a bug in the component. */
export function presenterOf(backend: ErosionBackend): BackendPresenter {
    const presenter = presenters.get(backend);
    if (!presenter) throw new Error(`The ${backend.name} backend was made without a presenter (present() where it is made).`);
    return presenter;
}
