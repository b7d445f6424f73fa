/**
 * What a scene adds around the GPU backend (`HeadlessGpuBackend`): its own passes after the
 * simulation's (a scene's vertex pass and textures), a frame's clock and the device's loss. The
 * backend is one, headless; the component's Babylon part (`component/gpuScene.ts`) plugs in here,
 * so the delegation to the simulation is written once and the scene's passes go in the same
 * submits as the simulation's. Without a scene (the bake, the tests on Dawn for Node) a frame's
 * time is submit to work done, and nothing else is recorded.
 */
import type { FrameResult } from "../core/erosionBackend.js";
import type { ErosionStateData } from "../core/erosionState.js";
import type { GridRect } from "../core/patches.js";

/** A frame's GPU time and how it was measured (`FrameResult.measuredMs`, `measuredBy`). */
export interface FrameTiming {
    readonly ms: number | null;
    readonly by: FrameResult["measuredBy"];
}

/** The scene's side of a GPU backend, called in the order of the backend's own work. */
export interface GpuBackendScene {
    /** Before a frame's batches are recorded: what the scene recorded before goes first, and its timer starts. */
    beginFrame(): void;
    /**
     * After a frame's batches are recorded, before they are submitted: the scene's passes over the
     * rows they changed (`changed`, grown by one vertex; null: none changed), then its timer's end.
     */
    endFrame(changed: GridRect | null): void;
    /** The frame's GPU time, its work submitted at `submitted` (`performance.now()`). */
    frameTime(submitted: number): Promise<FrameTiming>;
    /**
     * After the whole state (`state`) or the maps (null) were replaced, before the submit: the
     * scene's passes that follow them (its vertices after a state, its textures after both).
     */
    replaced(state: ErosionStateData | null): void;
    /** `work`, or a rejection as soon as the device is lost (readbacks may never settle after a loss). */
    unlessLost<T>(work: Promise<T>): Promise<T>;
    /** Releases what the scene made; called before the simulation and the device are released. */
    dispose(): void;
}

/** No scene: nothing recorded beside the simulation, a frame timed from submit to `workDone`, no loss watched. */
export function noScene(workDone: () => Promise<void>): GpuBackendScene {
    return {
        beginFrame: () => undefined,
        endFrame: () => undefined,
        frameTime: (submitted) => workDone().then(() => ({ ms: performance.now() - submitted, by: "submitted" })),
        replaced: () => undefined,
        unlessLost: (work) => work,
        dispose: () => undefined,
    };
}
