/**
 * A `ComputeDevice` with WebGPU's default limits that keeps no memory and runs nothing: what the
 * dispatch-count test and the benchmark's cycle figures record a cycle on when only the recording
 * matters (how many dispatches, whether every buffer fits the limits).
 */
import type { ComputeBuffer, ComputeDevice } from "../../plugin/advanced.js";

/** WebGPU's default `maxStorageBufferBindingSize`: 128 MiB. */
export const DEFAULT_STORAGE_BINDING_BYTES = 128 * 1024 * 1024;

/** A device that records nothing. */
export function nullComputeDevice(): ComputeDevice {
    return {
        adapterDescription: "null device (records nothing)",
        maxStorageBufferBindingSize: DEFAULT_STORAGE_BINDING_BYTES,
        maxWorkgroupsPerDimension: 65535,
        prepareKernels: async () => {},
        createBuffer: (label: string, byteLength: number): ComputeBuffer => ({ label, byteLength }),
        writeBuffer: () => {},
        dispatch: () => {},
        submit: () => {},
        readBuffer: async (_buffer, _offset, byteLength) => new ArrayBuffer(byteLength),
        wrapExternalBuffer: () => null,
        destroyBuffer: () => {},
        dispose: () => {},
    };
}
