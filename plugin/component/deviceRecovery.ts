/**
 * What happens when the WebGPU device is lost: erosion stops at once and releases the dead device's
 * buffers; when Babylon restores the engine, a new GPU backend resumes from the newest rewind point
 * (the last cycle-boundary checkpoint undo keeps, or the run's start) with every input given since
 * waiting again for its stamp, as after a stall, so the terrain comes out as an uninterrupted run
 * would have left it, the ground edits given since the checkpoint included.
 */
import type { AbstractEngine } from "@babylonjs/core/Engines/abstractEngine.js";
import type { WebGPUEngine } from "@babylonjs/core/Engines/webgpuEngine.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { Nullable } from "@babylonjs/core/types.js";
import type { ErosionOptions } from "../core/options.js";
import type { ErosionSchedule } from "../core/schedule.js";
import type { Checkpoints } from "./checkpoints.js";
import type { ErosionBackend } from "../core/erosionBackend.js";
import type { ErosionErrorEvent } from "./erosionEvents.js";
import { gpuBackend } from "./backendStart.js";
import type { WaitWatch } from "../core/waitWatch.js";
import type { GroundField } from "./groundField.js";
import { resumeFromPoint, type StallHost } from "./stallRecovery.js";

/** The parts of a runner recovery works on. */
export interface RecoveryHost extends Pick<StallHost, "history" | "applyState" | "adoptScheduleOptions"> {
    readonly field: GroundField;
    readonly schedule: ErosionSchedule;
    readonly checkpoints: Checkpoints;
    /** The newest options (what runs after the checkpoint's cycle). */
    readonly options: ErosionOptions;
    backend: ErosionBackend | null;
    running: boolean;
    /** Where the new backend's waits are recorded and get their deadline. */
    readonly waits: WaitWatch;
    report(kind: ErosionErrorEvent["kind"], message: string, error?: unknown): void;
    track(work: Promise<unknown>): void;
}

/** The device Babylon 9.28's WebGPU engine runs on (a private field). */
function engineDevice(engine: AbstractEngine): unknown {
    return (engine as unknown as { _device?: unknown })._device ?? null;
}

/**
 * Waits until the engine really runs on a new device. Babylon 9.28 signals onContextRestoredObservable
 * before its asynchronous re-initialisation has replaced the device and buffer manager (it does not
 * await it), so buffers created at that signal would belong to the dead device.
 */
async function untilNewDevice(engine: WebGPUEngine, lostDevice: unknown): Promise<void> {
    const internals = engine as unknown as { _bufferManager?: { _device?: unknown } };
    const started = performance.now();
    while (engineDevice(engine) === lostDevice || internals._bufferManager?._device !== engineDevice(engine)) {
        if (engine.isDisposed) {
            throw new Error("The engine was disposed while waiting for a new WebGPU device.");
        }
        if (performance.now() - started > 30000) {
            throw new Error("The WebGPU engine did not get a new device within 30 s of the device loss.");
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
    }
}

/** Watches one engine for device loss on behalf of one runner. */
export class DeviceRecovery {
    private _lost = false;
    private _runningBeforeLoss = false;
    private _lostDevice: unknown = null;
    private readonly _lostObserver: Nullable<Observer<AbstractEngine>>;
    private readonly _restoredObserver: Nullable<Observer<AbstractEngine>>;

    constructor(
        private readonly _engine: WebGPUEngine,
        private readonly _host: RecoveryHost
    ) {
        this._lostObserver = _engine.onContextLostObservable.add(() => this._onDeviceLost());
        this._restoredObserver = _engine.onContextRestoredObservable.add(() => this._onDeviceRestored());
    }

    /** True from a device loss until erosion has resumed on a new device. */
    public get lost(): boolean {
        return this._lost;
    }

    /** Stops watching the engine. */
    public dispose(): void {
        this._engine.onContextLostObservable.remove(this._lostObserver);
        this._engine.onContextRestoredObservable.remove(this._restoredObserver);
    }

    private _onDeviceLost(): void {
        const host = this._host;
        if (this._lost || !host.backend) {
            return;
        }
        this._lost = true;
        this._lostDevice = engineDevice(this._engine);
        this._runningBeforeLoss = host.running;
        host.running = false;
        // Release the dead device's buffers now, before Babylon's restore tries to rebuild them.
        const lost = host.backend;
        host.backend = null;
        try {
            lost.dispose();
        } catch {
            // its buffers died with the device
        }
        host.report(
            "deviceLost",
            `The WebGPU device was lost; erosion stopped and will resume from the checkpoint at ` +
                `cycle ${host.checkpoints.state?.cycle ?? 0} once Babylon restores the engine.`
        );
    }

    /** After Babylon restores the engine: a new backend resumes from the newest rewind point, the inputs since given again. */
    private _onDeviceRestored(): void {
        const host = this._host;
        if (!this._lost) {
            return;
        }
        const { field } = host;
        const recovery = (async () => {
            await untilNewDevice(this._engine, this._lostDevice);
            // Babylon 9.28 rebuilds vertex buffers before its new device exists; give the ground
            // buffers on the new device, from its (up to date) CPU data.
            field.recreateGpuBuffers();
            const { point, entries } = host.history.resumePlan();
            // The new device gets kernels compiled for it (BabylonComputeDevice numbers the devices).
            const backend = await gpuBackend(this._engine, field, point.state, point.options.patchSize, host.waits);
            await resumeFromPoint(host, backend, point, entries);
            host.backend = backend;
            this._lost = false;
            host.running = this._runningBeforeLoss;
            host.report(
                "recovered",
                `Erosion resumed from cycle ${point.state.cycle} (its checkpoint), every input given since applying again where it was given.`
            );
        })().catch((error) => host.report("stopped", "Erosion could not resume after the WebGPU device was restored.", error));
        host.track(recovery);
    }
}
