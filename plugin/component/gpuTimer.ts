/**
 * GPU time of a span of Babylon compute passes, from timestamp queries: an empty compute pass that
 * writes a timestamp before the span and another after it, on the engine's own command encoder, so
 * the span is exactly the erosion dispatches between them. Needs a device created with the
 * "timestamp-query" feature (Babylon: `new WebGPUEngine(canvas, { enableAllFeatures: true })` or
 * `deviceDescriptor: { requiredFeatures: ["timestamp-query"] }`); `GpuTimer.create` returns null
 * otherwise and the caller estimates instead.
 */
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";

/** The WebGPUEngine internals the timer records into (Babylon 9). */
interface EngineInternals {
    _device?: GPUDevice;
    _renderEncoder?: GPUCommandEncoder;
    _endCurrentRenderPass?: () => void;
}

/** Measures the GPU time between `begin()` and `end()`, one span at a time. */
export class GpuTimer {
    private readonly _querySet: GPUQuerySet;
    private readonly _resolve: GPUBuffer;
    private readonly _read: GPUBuffer;
    private _busy = false;
    private _disposed = false;

    private constructor(
        private readonly _engine: EngineInternals,
        device: GPUDevice
    ) {
        this._querySet = device.createQuerySet({ label: "TerrainErosion.timer", type: "timestamp", count: 2 });
        this._resolve = device.createBuffer({ label: "TerrainErosion.timer.resolve", size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
        this._read = device.createBuffer({ label: "TerrainErosion.timer.read", size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    }

    /** A timer for the engine's device, or null when it cannot write timestamps. */
    public static create(engine: WebGPUEngine): GpuTimer | null {
        const internals = engine as unknown as EngineInternals;
        const device = internals._device;
        if (!device || !device.features.has("timestamp-query") || typeof internals._endCurrentRenderPass !== "function") {
            return null;
        }
        return new GpuTimer(internals, device);
    }

    /** True while a measurement is being read back (a span started now would not be measured). */
    public get busy(): boolean {
        return this._busy;
    }

    private _marker(index: 0 | 1): boolean {
        const encoder = this._engine._renderEncoder;
        if (!encoder) {
            return false;
        }
        this._engine._endCurrentRenderPass!();
        const writes: GPUComputePassTimestampWrites =
            index === 0 ? { querySet: this._querySet, beginningOfPassWriteIndex: 0 } : { querySet: this._querySet, endOfPassWriteIndex: 1 };
        encoder.beginComputePass({ label: "TerrainErosion.timer", timestampWrites: writes }).end();
        return true;
    }

    /** Records the start marker; false if a measurement is still in flight (nothing recorded). */
    public begin(): boolean {
        if (this._busy || this._disposed) {
            return false;
        }
        this._busy = this._marker(0);
        return this._busy;
    }

    /**
     * Records the end marker and the copy of both timestamps. Call `read()` after the work is
     * submitted.
     */
    public end(): void {
        const encoder = this._engine._renderEncoder;
        if (!this._busy || !encoder) {
            return;
        }
        this._marker(1);
        encoder.resolveQuerySet(this._querySet, 0, 2, this._resolve, 0);
        encoder.copyBufferToBuffer(this._resolve, 0, this._read, 0, 16);
    }

    /** The span in milliseconds, once the submitted work has run (null if it could not be read). */
    public async read(): Promise<number | null> {
        try {
            await this._read.mapAsync(GPUMapMode.READ);
            const [start, stop] = new BigUint64Array(this._read.getMappedRange().slice(0));
            this._read.unmap();
            return stop >= start ? Number(stop - start) / 1e6 : null;
        } catch {
            return null;
        } finally {
            this._busy = false;
        }
    }

    /** Frees the query set and buffers. Safe to call twice. */
    public dispose(): void {
        if (!this._disposed) {
            this._disposed = true;
            this._querySet.destroy();
            this._resolve.destroy();
            this._read.destroy();
        }
    }
}
