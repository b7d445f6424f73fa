/**
 * A `ComputeDevice` whose waits are watched (`WaitWatch`): every readback (`readBuffer`, a
 * `mapAsync` underneath) and every kernel compile (`prepareKernels`) is recorded while pending and
 * fails with a `StallError` past the deadline, whatever device it wraps. The GPU backends put their
 * device behind one, so a device that stops answering becomes a named stall, not a silent freeze.
 */
import type { ComputeBuffer, ComputeDevice } from "./computeDevice.js";
import { ForwardingComputeDevice } from "./forwardingComputeDevice.js";
import type { KernelName } from "./shaderLibrary.js";
import type { WaitWatch } from "../core/waitWatch.js";

/** Submits between two signs of life asked of the device (`WaitWatch.alive`). */
const SUBMITS_PER_PROBE = 16;

/** Wraps `inner`, watching its readbacks and compiles. */
export class WatchedComputeDevice extends ForwardingComputeDevice {
    private _submits = 0;

    /**
     * @param _workDone resolves once the device has run everything submitted so far
     *   (`queue.onSubmittedWorkDone`): asked every `SUBMITS_PER_PROBE` submits as a sign of life, so a
     *   readback behind a long stretch of work (a whole cycle in one frame: `runCycles`, an undo's
     *   replay) counts its deadline from the work ahead of it finishing, not from its own start
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

    /** Every `SUBMITS_PER_PROBE`-th submit asks for a sign of life (a readback submits too). */
    private _submitted(): void {
        if (!this._workDone || ++this._submits % SUBMITS_PER_PROBE !== 0) return;
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
        const read = this._watch.watch("readback", `readBuffer ${buffer.label} (bytes ${byteOffset}-${byteOffset + byteLength})`, super.readBuffer(buffer, byteOffset, byteLength));
        this._submitted();
        return read;
    }
}
