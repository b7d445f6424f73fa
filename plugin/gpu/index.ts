/**
 * The face of the GPU backend (plugin/gpu/): what the rest of the plugin (the component, the bake)
 * uses of the simulation, the headless backend a scene plugs into, the compute devices and the
 * kernels' table. Free of Babylon, so the bake reaches it without bringing Babylon into the
 * command line's bundle; Babylon's side of the GPU (its compute device, the timer, the scene's
 * passes) is the component's. The package's entries (index.ts, advanced.ts, internal.ts) and the
 * backend's own modules import the modules themselves; every other import into plugin/gpu/ comes
 * through here (layers.test.ts).
 */
export type { BufferUsage, ComputeBuffer, ComputeDevice, KernelBindings } from "./computeDevice.js";
export type { FrameTiming, GpuBackendScene } from "./gpuBackendScene.js";
export { GpuErosionSimulation } from "./gpuSimulation.js";
export { HeadlessGpuBackend } from "./headlessGpuBackend.js";
export { UNIFORM_BINDINGS } from "./kernelBindings.js";
export { KERNELS, type KernelName } from "./kernelTable.js";
export { UPLOAD_PIECE_BYTES, writeInPieces } from "./piecewiseUpload.js";
export { kernelBindingsMapping, kernelSource } from "./shaderLibrary.js";
export { gpuBufferNeeds } from "./simulationBuffers.js";
export { WatchedComputeDevice } from "./watchedComputeDevice.js";
export { WebGpuComputeDevice } from "./webGpuComputeDevice.js";
