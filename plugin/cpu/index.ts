/**
 * The face of the CPU backend (plugin/cpu/): what the rest of the plugin (the component, the bake)
 * uses of the backend, its batch runner and operator table, and its worker pool. The package's
 * entries (index.ts, advanced.ts, internal.ts) and the backend's own modules import the modules
 * themselves; every other import into plugin/cpu/ comes through here (layers.test.ts).
 */
export { CpuBatchRunner } from "./cpuBatchRunner.js";
export { CpuErosionBackend, type CpuFramePresentation } from "./cpuErosionBackend.js";
export { CPU_OPERATORS } from "./cpuOperators.js";
export { CpuPool } from "./pool/cpuPool.js";
export { cellsOf, ensureGrid } from "./pool/poolGrids.js";
export { canShareMemory, cpuWorkerCount, logicalCores, nodeSpawner } from "./pool/poolPorts.js";
export { taskGrids, type PooledBatch } from "./pool/poolTasks.js";
