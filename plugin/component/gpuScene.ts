/**
 * The Babylon side of the component's GPU backend (`GpuBackendScene`, plugged into the headless
 * backend by `gpuErosionBackend.ts`): the vertex pass that writes the grounds' own position and
 * normal buffers, the storage textures materials sample, the frames' timer on the engine's encoder,
 * and the device's loss. No per-frame full readback: only the rows a frame changed come back.
 */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import { Constants } from "@babylonjs/core/Engines/constants.js";
import type { Scene } from "@babylonjs/core/scene.js";
import type { ErosionStateData } from "../core/erosionState.js";
import { intersectRects, type GridRect } from "../core/patches.js";
import type { WaitKind, WaitWatch } from "../core/waitWatch.js";
import type { ComputeBuffer, FrameTiming, GpuBackendScene, GpuErosionSimulation } from "../gpu/index.js";
import type { BabylonComputeDevice } from "./babylonComputeDevice.js";
import { GpuTimer } from "./gpuTimer.js";
import type { GroundBinding } from "./groundBinding.js";
import type { GroundField } from "./groundField.js";

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

/** The scene's part of the GPU backend on the scene's WebGPU engine. */
export class GpuScene implements GpuBackendScene {
    /** Each ground's vertex buffers as kernel bindings, wrapped on first use. */
    private readonly _wrapped = new Map<GroundBinding, { positions?: WrappedVertexBuffer; normals?: WrappedVertexBuffer }>();
    /** The GPUDevice the backend's buffers live on (Babylon replaces the engine's after a loss). */
    private readonly _gpuDevice: GPUDevice | undefined;
    private readonly _lost: Promise<never>;
    private readonly _timer: GpuTimer | null;
    /** Whether the frame being recorded is timed by `_timer` (it was free and began). */
    private _timed = false;
    /** The storage textures asked for so far (`STORAGE_TEXTURES`), written after every frame. */
    private readonly _textures: Record<StorageTextureName, RawTexture | null> = { maps: null, area: null, water: null, materials: null };
    private _mapsTileable: (() => boolean) | null = null;

    /**
     * @param _device the device the simulation's kernels run on, unwatched (it wraps the grounds' vertex buffers)
     * @param watch where the frames' waits (the timer's readback, submitted work) are recorded and get their deadline
     */
    constructor(
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

    public unlessLost<T>(work: Promise<T>): Promise<T> {
        return Promise.race([work, this._lost]);
    }

    /** `work`, watched by the runner's `WaitWatch` (a deadline and a record) when there is one. */
    private _watched<T>(kind: WaitKind, operation: string, work: Promise<T>): Promise<T> {
        return this._watch ? this._watch.watch(kind, operation, work) : work;
    }

    public beginFrame(): void {
        // Flush what the engine recorded before, so the timed span and the submit hold only erosion.
        this._simulation.submit();
        this._timed = this._timer?.begin() ?? false;
    }

    public endFrame(changed: GridRect | null): void {
        if (changed) {
            this._regenerateVertices(changed);
            this._writeTextures(changed);
        }
        if (this._timed) this._timer!.end();
    }

    /**
     * The frame's GPU time from timestamp queries where the device has them, else from submit to
     * `onSubmittedWorkDone` (which also counts queueing).
     */
    public frameTime(submitted: number): Promise<FrameTiming> {
        const gpu = this._gpuDevice;
        if (this._timed) {
            const read = this._watched("readback", "mapAsync of the frame's timestamp queries", this._timer!.read());
            return read.then((ms) => ({ ms, by: ms === null ? null : "timestamp" }));
        }
        if (gpu) {
            const done = this._watched("submittedWork", "onSubmittedWorkDone after the frame", gpu.queue.onSubmittedWorkDone());
            return done.then(() => ({ ms: performance.now() - submitted, by: "submitted" }));
        }
        return Promise.resolve({ ms: null, by: null });
    }

    public replaced(state: ErosionStateData | null): void {
        if (state) this._regenerateVertices({ x0: 0, y0: 0, x1: state.width, y1: state.depth });
        // The flow directions follow the new heights even while erosion is paused.
        this._writeTextures();
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
            // Every texture whole, submitted at once: the new one has nothing in it yet.
            this._writeTextures();
            this._simulation.submit();
        }
        return this._textures[name]!;
    }

    /** The textures' passes, over `rows` only when given (a frame's changed rows: the only ones whose texels it changed). */
    private _writeTextures(rows?: GridRect): void {
        const { maps, area, water, materials } = this._textures;
        if (maps && this._mapsTileable) this._simulation.writeMapsTexture(maps, this._mapsTileable(), this._field.cellSize, rows);
        if (area) this._simulation.writeAreaTexture(area, rows);
        if (water) this._simulation.writeWaterTexture(water, this._field.cellSize, rows);
        if (materials) this._simulation.writeMaterialsTexture(materials, this._field.cellSize, rows);
    }

    public dispose(): void {
        for (const { positions, normals } of this._wrapped.values()) {
            for (const wrapped of [positions, normals]) {
                if (wrapped) this._device.destroyBuffer(wrapped.buffer);
            }
        }
        this._wrapped.clear();
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
