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

/** Wraps `inner`, watching its readbacks and compiles. */
export class WatchedComputeDevice extends ForwardingComputeDevice {
    constructor(
        inner: ComputeDevice,
        private readonly _watch: WaitWatch
    ) {
        super(inner);
    }

    public override prepareKernels(kernels: readonly KernelName[], onCompiled?: () => void, later?: readonly KernelName[]): Promise<void> {
        const what = kernels.length === 1 ? `the kernel ${kernels[0]}` : `${kernels.length} kernels`;
        return this._watch.watch("compile", `compiling ${what}`, super.prepareKernels(kernels, onCompiled, later));
    }

    public override readBuffer(buffer: ComputeBuffer, byteOffset: number, byteLength: number): Promise<ArrayBuffer> {
        return this._watch.watch("readback", `readBuffer ${buffer.label} (bytes ${byteOffset}-${byteOffset + byteLength})`, super.readBuffer(buffer, byteOffset, byteLength));
    }
}
