/**
 * The GPU simulation as an `ErosionBackend`. Headless: it knows no scene, so a frame's changed rows
 * are read back. The bake runs it on Dawn for Node; the component's backend is this one with its
 * Babylon part plugged in (`GpuBackendScene`: the vertex pass, the textures, the timer, the device's
 * loss), so what the contract asks of the simulation is delegated here only.
 */
import type { BatchPieces, ErosionBackend, FrameResult } from "../core/erosionBackend.js";
import type { ErosionMaps, MapsTexelOptions } from "../core/erosionMaps.js";
import type { ErosionStateData } from "../core/erosionState.js";
import type { GridRect } from "../core/patches.js";
import type { PlannedBatch } from "../core/schedule.js";
import type { ComputeDevice } from "./computeDevice.js";
import { noScene, type GpuBackendScene } from "./gpuBackendScene.js";
import { GpuErosionSimulation } from "./gpuSimulation.js";
import type { WaitWatch } from "../core/waitWatch.js";
import { WatchedComputeDevice } from "./watchedComputeDevice.js";

/** Runs batches as WGSL compute shaders on a `ComputeDevice`, with a scene's passes where one is plugged in. */
export class HeadlessGpuBackend implements ErosionBackend {
    public readonly name = "webgpu" as const;
    private _disposed = false;

    private constructor(
        private readonly _device: ComputeDevice,
        private readonly _simulation: GpuErosionSimulation,
        private readonly _scene: GpuBackendScene
    ) {}

    /**
     * Creates the buffers, compiles the kernels and uploads `state`.
     * @param workDone resolves once the device has run everything submitted (`queue.onSubmittedWorkDone`)
     * @param watch where the backend's waits (readbacks, submitted work, compiles) are recorded and get their deadline
     */
    public static async create(
        device: ComputeDevice, state: ErosionStateData, patchSize: number, workDone: () => Promise<void>, watch: WaitWatch | null = null
    ): Promise<HeadlessGpuBackend> {
        const watched = watch ? new WatchedComputeDevice(device, watch, workDone) : device;
        const simulation = await GpuErosionSimulation.create(watched, state.width, state.depth, patchSize);
        simulation.upload(state);
        const frameDone = watch ? () => watch.watch("submittedWork", "onSubmittedWorkDone after the frame", workDone()) : workDone;
        return new HeadlessGpuBackend(watched, simulation, noScene(frameDone));
    }

    /**
     * The backend over a `simulation` already made and loaded (the component's, started over its
     * frames), with `scene`'s passes, clock and loss; disposing it releases the scene, the
     * simulation and `device`.
     */
    public static over(device: ComputeDevice, simulation: GpuErosionSimulation, scene: GpuBackendScene): HeadlessGpuBackend {
        return new HeadlessGpuBackend(device, simulation, scene);
    }

    /**
     * Runs the batches (with the scene's passes over the rows they changed) and resolves with those
     * rows once the frame's time is known too, so one frame at a time is in flight where the caller
     * awaits it (a bake's progress and Ctrl-C follow the GPU). Without a scene the time is submit to
     * work done, queueing included.
     */
    public async runFrame(
        batches: readonly PlannedBatch[], changed: GridRect | null, _texels?: MapsTexelOptions | null, pieces?: BatchPieces | null
    ): Promise<FrameResult> {
        this._scene.beginFrame();
        // A range of one batch's pieces, or batches (consecutive batches of one class share their dispatches).
        if (pieces) {
            this._simulation.runPieces(batches[0], pieces.from, pieces.to);
        } else {
            this._simulation.runBatches(batches);
        }
        this._scene.endFrame(changed);
        const submitted = performance.now();
        this._simulation.submit();
        const timing = this._scene.frameTime(submitted);
        const rows = changed ? this._simulation.readHeightRows(changed.y0, changed.y1) : Promise.resolve(null);
        const [rowData, { ms, by }] = await this._scene.unlessLost(Promise.all([rows, timing]));
        return { rows: rowData, y0: changed?.y0 ?? 0, y1: changed?.y1 ?? 0, measuredMs: ms, measuredBy: by };
    }

    /** Null: one device, none of the CPU backend's thread, pool or WebAssembly to describe. */
    public describe(): null {
        return null;
    }

    public pieceCount(planned: PlannedBatch, wanted: number): number {
        return this._simulation.pieceCount(planned, wanted);
    }

    public regionChecksums(size: number): Promise<Uint32Array> {
        return this._scene.unlessLost(this._simulation.regionChecksums(size));
    }

    public readState(cycle: number, batch: number): Promise<ErosionStateData> {
        return this._scene.unlessLost(this._simulation.readState(cycle, batch));
    }

    public readMaps(): Promise<ErosionMaps> {
        return this._scene.unlessLost(this._simulation.readMaps());
    }

    public async resetMaps(): Promise<void> {
        this._simulation.resetMaps();
        this._scene.replaced(null);
        this._simulation.submit();
    }

    public async writeMaps(maps: ErosionMaps): Promise<void> {
        this._simulation.writeMaps(maps);
        this._scene.replaced(null);
        this._simulation.submit();
    }

    public async writeState(state: ErosionStateData): Promise<void> {
        this._simulation.upload(state);
        this._scene.replaced(state);
        this._simulation.submit();
    }

    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        this._scene.dispose();
        this._simulation.dispose();
        this._device.dispose();
    }
}
