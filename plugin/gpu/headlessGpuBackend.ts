/**
 * The GPU simulation as an `ErosionBackend` with no scene: no ground to write vertices into, so a
 * frame's changed rows are read back instead. The bake runs it on Dawn for Node; the component has
 * its own (`component/gpuErosionBackend.ts`), which adds Babylon's vertex pass and textures.
 */
import type { BatchPieces, ErosionBackend, FrameResult } from "../core/erosionBackend.js";
import type { ErosionMaps, MapsTexelOptions } from "../core/erosionMaps.js";
import type { ErosionStateData } from "../core/erosionState.js";
import type { GridRect } from "../core/patches.js";
import type { PlannedBatch } from "../core/schedule.js";
import type { ComputeDevice } from "./computeDevice.js";
import { GpuErosionSimulation } from "./gpuSimulation.js";
import type { WaitWatch } from "../core/waitWatch.js";
import { WatchedComputeDevice } from "./watchedComputeDevice.js";

/** Runs batches as WGSL compute shaders on a `ComputeDevice`, outside any scene. */
export class HeadlessGpuBackend implements ErosionBackend {
    public readonly name = "webgpu" as const;
    private _disposed = false;

    private constructor(
        private readonly _device: ComputeDevice,
        private readonly _simulation: GpuErosionSimulation,
        private readonly _workDone: () => Promise<void>
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
        return new HeadlessGpuBackend(
            watched, simulation, watch ? () => watch.watch("submittedWork", "onSubmittedWorkDone after the frame", workDone()) : workDone
        );
    }

    /**
     * Runs the batches and waits for the device, so one frame at a time is in flight (a bake's
     * progress and Ctrl-C follow the GPU); the time is submit to work done, queueing included.
     */
    public async runFrame(
        batches: readonly PlannedBatch[], changed: GridRect | null, _texels?: MapsTexelOptions | null, pieces?: BatchPieces | null
    ): Promise<FrameResult> {
        if (pieces) {
            this._simulation.runPieces(batches[0], pieces.from, pieces.to);
        } else {
            this._simulation.runBatches(batches);
        }
        const submitted = performance.now();
        this._simulation.submit();
        await this._workDone();
        const measuredMs = performance.now() - submitted;
        const rows = changed ? await this._simulation.readHeightRows(changed.y0, changed.y1) : null;
        return { rows, y0: changed?.y0 ?? 0, y1: changed?.y1 ?? 0, measuredMs, measuredBy: "submitted" };
    }

    /** Null: one device, none of the CPU backend's thread, pool or WebAssembly to describe. */
    public describe(): null {
        return null;
    }

    public pieceCount(planned: PlannedBatch, wanted: number): number {
        return this._simulation.pieceCount(planned, wanted);
    }

    public regionChecksums(size: number): Promise<Uint32Array> {
        return this._simulation.regionChecksums(size);
    }

    public readState(cycle: number, batch: number): Promise<ErosionStateData> {
        return this._simulation.readState(cycle, batch);
    }

    public readMaps(): Promise<ErosionMaps> {
        return this._simulation.readMaps();
    }

    public async resetMaps(): Promise<void> {
        this._simulation.resetMaps();
        this._simulation.submit();
    }

    public async writeMaps(maps: ErosionMaps): Promise<void> {
        this._simulation.writeMaps(maps);
        this._simulation.submit();
    }

    public async writeState(state: ErosionStateData): Promise<void> {
        this._simulation.upload(state);
        this._simulation.submit();
    }

    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        this._simulation.dispose();
        this._device.dispose();
    }
}
