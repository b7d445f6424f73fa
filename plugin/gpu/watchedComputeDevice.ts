/**
 * A `ComputeDevice` whose waits are watched (`WaitWatch`): every readback (`readBuffer`, a
 * `mapAsync` underneath) and every kernel compile (`prepareKernels`) is recorded while pending and
 * fails with a `StallError` past the deadline, whatever device it wraps. The GPU backends put their
 * device behind one, so a device that stops answering becomes a named stall, not a silent freeze.
 */
import type { ComputeBuffer, ComputeDevice } from "./computeDevice.js";
import { ForwardingComputeDevice } from "./forwardingComputeDevice.js";
import type { KernelName } from "./kernelTable.js";
import type { WaitWatch } from "../core/waitWatch.js";

/**
 * Submits in one task (a frame's recording) past which each further one asks the device for a sign
 * of life (`WaitWatch.alive`): a frame of the frame budget submits two or three times, a whole
 * cycle at once (`runCycles`, an undo's replay) dozens with water on.
 */
const SUBMITS_BEFORE_PROBES = 4;

/** Wraps `inner`, watching its readbacks and compiles. */
export class WatchedComputeDevice extends ForwardingComputeDevice {
    /** Submits in the current task so far. */
    private _burst = 0;

    /**
     * @param _workDone resolves once the device has run everything submitted so far
     *   (`queue.onSubmittedWorkDone`): asked at each submit of a long recording as a sign of life, so
     *   a readback behind a long stretch of work counts its deadline from the work just ahead of it
     *   finishing, not from its own start (one submit's work is still one wait)
     */
    constructor(
        inner: ComputeDevice,
        private readonly _watch: WaitWatch,
        private readonly _workDone: (() => Promise<unknown>) | null = null
    ) {
        super(inner);
    }

    public override submit(): void {
        super.submit();
        this._submitted();
    }

    /** A submit (a readback submits too): past `SUBMITS_BEFORE_PROBES` in this task, it asks for a sign of life. */
    private _submitted(): void {
        if (!this._workDone) return;
        if (this._burst++ === 0) queueMicrotask(() => (this._burst = 0));
        if (this._burst <= SUBMITS_BEFORE_PROBES) return;
        const submitted = performance.now();
        this._workDone().then(
            () => this._watch.alive(submitted),
            () => undefined // a lost device: its waits fail on their own
        );
    }

    /**
     * The compile is one wait, but each step of it (a kernel's WGSL, a pipeline) gives it a whole
     * deadline again: a deadline is for one answer, and on a busy software adapter the 34 kernels
     * took over two minutes where one took a few seconds.
     */
    public override prepareKernels(kernels: readonly KernelName[], onCompiled?: () => void, later?: readonly KernelName[], onStep?: () => void): Promise<void> {
        const what = kernels.length === 1 ? `the kernel ${kernels[0]}` : `${kernels.length} kernels`;
        return this._watch.watchProgress("compile", `compiling ${what}`, (progress) =>
            super.prepareKernels(kernels, onCompiled, later, () => {
                progress();
                onStep?.();
            })
        );
    }

    public override readBuffer(buffer: ComputeBuffer, byteOffset: number, byteLength: number): Promise<ArrayBuffer> {
        const read = this._watch.watch(
            "readback", `readBuffer ${buffer.label} (bytes ${byteOffset}-${byteOffset + byteLength})`, super.readBuffer(buffer, byteOffset, byteLength)
        );
        this._submitted();
        return read;
    }
}
