/**
 * The WebGPU backend of the component: the simulation's buffers, the kernels as Babylon compute
 * shaders, and the vertex pass that writes the grounds' own position and normal buffers. No
 * per-frame full readback: only the rows a frame changed come back, asynchronously.
 */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import type { ErosionStateData } from "../core/erosionState.js";
import { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import { Constants } from "@babylonjs/core/Engines/constants.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { GridRect } from "../core/patches.js";
import type { PlannedBatch } from "../core/schedule.js";
import type { StartupProgress } from "./startupProgress.js";
import { BabylonComputeDevice } from "../gpu/babylonComputeDevice.js";
import type { ComputeBuffer } from "../gpu/computeDevice.js";
import { GpuErosionSimulation } from "../gpu/gpuSimulation.js";
import { GpuTimer } from "../gpu/gpuTimer.js";
import { UPLOAD_PIECE_BYTES, writeInPieces } from "../gpu/piecewiseUpload.js";
import type { BatchPieces, ErosionBackend, FrameResult } from "../core/erosionBackend.js";
import type { ErosionMaps, MapsTexelOptions } from "../core/erosionMaps.js";
import type { GroundBinding } from "./groundBinding.js";
import type { GroundField } from "./groundField.js";
import { intersectRects } from "../core/patches.js";
import type { WaitKind, WaitWatch } from "../core/waitWatch.js";
import { WatchedComputeDevice } from "../gpu/watchedComputeDevice.js";

interface WrappedVertexBuffer {
    native: unknown;
    buffer: ComputeBuffer;
}

/** The storage textures the backend writes on the GPU: their format and name. */
const STORAGE_TEXTURES = {
    maps: { format: Constants.TEXTUREFORMAT_RGBA, label: "TerrainErosion.maps" },
    area: { format: Constants.TEXTUREFORMAT_R, label: "TerrainErosion.drainageArea" },
    water: { format: Constants.TEXTUREFORMAT_RGBA, label: "TerrainErosion.shallowWater" },
    materials: { format: Constants.TEXTUREFORMAT_RGBA, label: "TerrainErosion.materials" },
} as const;

/** One of the storage textures. */
type StorageTextureName = keyof typeof STORAGE_TEXTURES;

/** Runs batches as WGSL compute shaders on the scene's WebGPU engine. */
export class GpuErosionBackend implements ErosionBackend {
    public readonly name = "webgpu" as const;
    /** Each ground's vertex buffers as kernel bindings, wrapped on first use. */
    private readonly _wrapped = new Map<GroundBinding, { positions?: WrappedVertexBuffer; normals?: WrappedVertexBuffer }>();
    private _disposed = false;
    /** The GPUDevice the backend's buffers live on (Babylon replaces the engine's after a loss). */
    private readonly _gpuDevice: GPUDevice | undefined;

    private constructor(
        engine: WebGPUEngine,
        private readonly _device: BabylonComputeDevice,
        private readonly _simulation: GpuErosionSimulation,
        private readonly _field: GroundField,
        private readonly _watch: WaitWatch | null
    ) {
        this._gpuDevice = (engine as unknown as { _device?: GPUDevice })._device;
        this._timer = GpuTimer.create(engine);
        // After a device loss, readbacks and work-done promises may never settle: fail them instead.
        this._lost = this._gpuDevice?.lost.then(() => {
            throw new Error("The WebGPU device was lost.");
        }) ?? new Promise<never>(() => undefined);
        this._lost.catch(() => undefined);
    }

    private readonly _lost: Promise<never>;
    private readonly _timer: GpuTimer | null;
    /** The storage textures asked for so far (`STORAGE_TEXTURES`), written after every frame. */
    private readonly _textures: Record<StorageTextureName, RawTexture | null> = { maps: null, area: null, water: null, materials: null };
    private _mapsTileable: (() => boolean) | null = null;

    /** `work`, or a rejection as soon as the device is lost. */
    private _unlessLost<T>(work: Promise<T>): Promise<T> {
        return Promise.race([work, this._lost]);
    }

    /** `work`, watched by the runner's `WaitWatch` (a deadline and a record) when there is one. */
    private _watched<T>(kind: WaitKind, operation: string, work: Promise<T>): Promise<T> {
        return this._watch ? this._watch.watch(kind, operation, work) : work;
    }

    /**
     * Creates the buffers, compiles the kernels (for the engine's current device) and uploads `state`.
     * @param watch where the backend's waits (readbacks, submitted work, compiles) are recorded and get their deadline
     */
    public static async create(
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
        return new GpuErosionBackend(engine, device, simulation, field, watch);
    }

    /** Storage buffers the backend holds (its own; the ground's vertex buffers are not counted). */
    public get liveBufferCount(): number {
        return this._device.liveBufferCount;
    }

    /** The adapter the kernels run on. */
    public get adapterDescription(): string {
        return this._device.adapterDescription;
    }

    /**
     * Runs the batches and the vertex pass. The frame's GPU time comes from timestamp queries where
     * the device has them, else from submit to `onSubmittedWorkDone` (which also counts queueing).
     */
    public async runFrame(
        batches: readonly PlannedBatch[], changed: GridRect | null, _texels?: MapsTexelOptions | null, pieces?: BatchPieces | null
    ): Promise<FrameResult> {
        // Flush what the engine recorded before, so the timed span and the submit hold only erosion.
        this._simulation.submit();
        const timed = this._timer?.begin() ?? false;
        // A range of one batch's pieces, or batches (consecutive batches of one class share their dispatches).
        if (pieces) {
            this._simulation.runPieces(batches[0], pieces.from, pieces.to);
        } else {
            this._simulation.runBatches(batches);
        }
        if (changed) {
            this._regenerateVertices(changed);
            this._writeMaps(changed);
        }
        if (timed) {
            this._timer!.end();
        }
        const submitted = performance.now();
        this._simulation.submit();
        const gpu = this._gpuDevice;
        const measured: Promise<{ ms: number | null; by: FrameResult["measuredBy"] }> = timed
            ? this._watched("readback", "mapAsync of the frame's timestamp queries", this._timer!.read()).then((ms) => ({
                  ms,
                  by: ms === null ? null : "timestamp",
              }))
            : gpu
              ? this._watched("submittedWork", "onSubmittedWorkDone after the frame", gpu.queue.onSubmittedWorkDone()).then(() => ({
                    ms: performance.now() - submitted,
                    by: "submitted" as const,
                }))
              : Promise.resolve({ ms: null, by: null });
        const rows = changed ? this._simulation.readHeightRows(changed.y0, changed.y1) : Promise.resolve(null);
        const [rowData, timing] = await this._unlessLost(Promise.all([rows, measured]));
        return { rows: rowData, y0: changed?.y0 ?? 0, y1: changed?.y1 ?? 0, measuredMs: timing.ms, measuredBy: timing.by };
    }

    /**
     * Whether the device this backend runs on is lost, or gets lost within `waitMs`: a failed
     * readback usually arrives just before the device's own lost notification.
     */
    public async deviceLostWithin(waitMs: number): Promise<boolean> {
        const lost = this._gpuDevice?.lost;
        if (!lost) {
            return false;
        }
        return Promise.race([lost.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), waitMs))]);
    }

    /** Null: one device, none of the CPU backend's thread, pool or WebAssembly to describe. */
    public describe(): null {
        return null;
    }

    public pieceCount(planned: PlannedBatch, wanted: number): number {
        return this._simulation.pieceCount(planned, wanted);
    }

    public regionChecksums(size: number): Promise<Uint32Array> {
        return this._unlessLost(this._simulation.regionChecksums(size));
    }

    public readState(cycle: number, batch: number): Promise<ErosionStateData> {
        return this._unlessLost(this._simulation.readState(cycle, batch));
    }

    public readMaps(): Promise<ErosionMaps> {
        return this._unlessLost(this._simulation.readMaps());
    }

    public async writeMaps(maps: ErosionMaps): Promise<void> {
        this._simulation.writeMaps(maps);
        this._writeMaps();
        this._simulation.submit();
    }

    public async resetMaps(): Promise<void> {
        this._simulation.resetMaps();
        this._writeMaps();
        this._simulation.submit();
    }

    /**
     * A texture of the maps (RGBA32F, width x depth: r water visits, g wear m, b deposition m,
     * a drainage direction slot or -1), written on the GPU after every frame from now on.
     */
    public enableMapsTexture(scene: Scene, tileable: () => boolean): Promise<RawTexture> {
        this._mapsTileable ??= tileable;
        return this._enableTexture("maps", scene);
    }

    /** A texture of the drainage area (R32F, width x depth, cells), written on the GPU after every frame from now on. */
    public enableAreaTexture(scene: Scene): Promise<RawTexture> {
        return this._enableTexture("area", scene);
    }

    /** A texture of the shallow water (RGBA32F, width x depth; layout in `waterTexels`), written on the GPU after every frame from now on. */
    public enableWaterTexture(scene: Scene): Promise<RawTexture> {
        return this._enableTexture("water", scene);
    }

    /** A texture of the soil and rock (RGBA32F, width x depth; layout in `materialTexels`), written on the GPU after every frame from now on. */
    public enableMaterialsTexture(scene: Scene): Promise<RawTexture> {
        return this._enableTexture("materials", scene);
    }

    /** The storage texture `name` (a float texture of the field's size), made and written whole the first time it is asked for. */
    private async _enableTexture(name: StorageTextureName, scene: Scene): Promise<RawTexture> {
        if (!this._textures[name]) {
            await this._simulation.prepareMapsTexture();
            const { format, label } = STORAGE_TEXTURES[name];
            const texture = new RawTexture(
                null, this._field.width, this._field.depth, format, scene, false, false, Constants.TEXTURE_NEAREST_SAMPLINGMODE, Constants.TEXTURETYPE_FLOAT,
                Constants.TEXTURE_CREATIONFLAG_STORAGE
            );
            texture.name = label;
            this._textures[name] = texture;
            this._writeTexturesNow();
        }
        return this._textures[name]!;
    }

    /** Writes every texture whole and submits (a texture was just made). */
    private _writeTexturesNow(): void {
        this._writeMaps();
        this._simulation.submit();
    }

    /** The maps texture, if enabled. */
    public get mapsTexture(): RawTexture | null {
        return this._textures.maps;
    }

    /** The textures' passes, over `rows` only when given (a frame's changed rows: the only ones whose texels it changed). */
    private _writeMaps(rows?: GridRect): void {
        const { maps, area, water, materials } = this._textures;
        if (maps && this._mapsTileable) this._simulation.writeMapsTexture(maps, this._mapsTileable(), this._field.cellSize, rows);
        if (area) this._simulation.writeAreaTexture(area, rows);
        if (water) this._simulation.writeWaterTexture(water, this._field.cellSize, rows);
        if (materials) this._simulation.writeMaterialsTexture(materials, this._field.cellSize, rows);
    }

    public async writeState(state: ErosionStateData): Promise<void> {
        this._simulation.upload(state);
        this._regenerateVertices({ x0: 0, y0: 0, x1: state.width, y1: state.depth });
        // The flow directions follow the new heights even while erosion is paused.
        this._writeMaps();
        this._simulation.submit();
    }

    public dispose(): void {
        if (this._disposed) {
            return;
        }
        this._disposed = true;
        for (const { positions, normals } of this._wrapped.values()) {
            for (const wrapped of [positions, normals]) {
                if (wrapped) this._device.destroyBuffer(wrapped.buffer);
            }
        }
        this._wrapped.clear();
        this._simulation.dispose();
        this._device.dispose();
        this._timer?.dispose();
        for (const name of Object.keys(this._textures) as StorageTextureName[]) {
            this._textures[name]?.dispose();
            this._textures[name] = null;
        }
    }

    /** The vertex pass over `changed` (field vertices), one dispatch per ground it touches. */
    private _regenerateVertices(changed: GridRect): void {
        for (const window of this._field.windows) {
            const rect = this._field.rectOf(window);
            const part = intersectRects(changed, rect);
            if (part && !window.binding.ground.isDisposed()) {
                this._simulation.regenerateVertices(
                    part, rect, this._vertexBuffer(window.binding, "positions"), this._vertexBuffer(window.binding, "normals"), this._field.cellSize
                );
            }
        }
    }

    /** A ground's vertex buffer as a kernel binding, re-wrapped if Babylon replaced it. */
    private _vertexBuffer(binding: GroundBinding, which: "positions" | "normals"): ComputeBuffer {
        const vertexBuffer = which === "positions" ? binding.positionBuffer : binding.normalBuffer;
        const native = vertexBuffer.getBuffer();
        const wrappedPair = this._wrapped.get(binding) ?? {};
        this._wrapped.set(binding, wrappedPair);
        const current = wrappedPair[which];
        if (current && current.native === native) {
            return current.buffer;
        }
        if (current) {
            this._device.destroyBuffer(current.buffer);
        }
        const byteLength = binding.width * binding.depth * 12;
        const buffer = this._device.wrapExternalBuffer(`TerrainErosion.ground.${which}`, native, byteLength);
        if (!buffer) {
            throw new Error(`The vertex buffer of the ground "${binding.ground.name}" (${which}) cannot be bound to a compute shader.`);
        }
        wrappedPair[which] = { native, buffer };
        return buffer;
    }
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
