/**
 * A `ComputeDevice` that counts the dispatches it forwards, by kernel: how the tests and the
 * benchmarks show that a cycle's dispatches do not grow with the field (the independent classes
 * share theirs). Everything else passes straight through to the wrapped device.
 */
import type { ComputeDevice, KernelBindings } from "./computeDevice.js";
import { ForwardingComputeDevice } from "./forwardingComputeDevice.js";
import type { KernelName } from "./kernelTable.js";

/** Wraps `inner`, counting its dispatches. */
export class CountingComputeDevice extends ForwardingComputeDevice {
    /** Dispatches recorded since the last `resetCounts`, by kernel. */
    public readonly dispatchesByKernel = new Map<KernelName, number>();
    /** Dispatches recorded since the last `resetCounts`. */
    public dispatches = 0;
    /** Workgroups those dispatches launched (x * y * z summed). */
    public workgroups = 0;

    constructor(inner: ComputeDevice) {
        super(inner);
    }

    /** Starts the counts again from zero. */
    public resetCounts(): void {
        this.dispatchesByKernel.clear();
        this.dispatches = 0;
        this.workgroups = 0;
    }

    public override dispatch(kernel: KernelName, bindings: KernelBindings, x: number, y: number, z: number, texture?: unknown): void {
        this.dispatches++;
        this.workgroups += x * y * z;
        this.dispatchesByKernel.set(kernel, (this.dispatchesByKernel.get(kernel) ?? 0) + 1);
        super.dispatch(kernel, bindings, x, y, z, texture);
    }
}
