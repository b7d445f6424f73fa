/**
 * Internals the repository's own tests reach for, in one place: the CPU kernels one at a time, the
 * constants that bound them, the brush, the hash and the neighbour table. Not part of the package's
 * API: package.json exports only `index.ts`, and nothing here is promised to stay. A test imports
 * the public entry for what a user can reach and this module for the rest, so a test never
 * depends on which file an internal lives in.
 */
export { ACCUMULATOR_LIMIT, SEDIMENT_HOPS } from "./core/batchParams.js";
export { brushEntryCount, buildBrush } from "./core/brush.js";
export { COUNTER_COUNT, COUNTER_DROPLET_STEPS, COUNTER_OUTFLOW } from "./core/counters.js";
export { heightSum } from "./core/erosionState.js";
export { hash4 } from "./core/hash.js";
export { fillRoom, neighbourBounds } from "./core/settling.js";
export { riverSlot } from "./core/steepestDescent.js";
export { THERMAL_DX, THERMAL_DY } from "./core/thermalDirections.js";
export { applyDelta } from "./core/cpu/applyDelta.js";
export { clipDelta } from "./core/cpu/clipDelta.js";
export { erodeDroplets } from "./core/cpu/erodeDroplets.js";
export { fillLevelStep } from "./core/cpu/fillLevels.js";
export { DonorLists, listDonors } from "./core/cpu/riverAccumulate.js";
export { riverSlots } from "./core/cpu/riverSlots.js";
export { riverCut, riverErode } from "./core/cpu/riverErode.js";
export { createRiverScratch, RiverBandWork, riverPhaseBand, riverPhases, runRiverPhase, type RiverPhase } from "./core/cpu/riverPhases.js";
export { riverRoots, splitRoots, VertexList } from "./core/cpu/riverForest.js";
export { RIVER_WALK_WASM_CONSTANTS, riverWalkWasmAvailable, riverWalkWasmStackLevels, useRiverWalkWasm } from "./core/cpu/riverWalkWasm.js";
export { DROPLET_BATCH_WASM_CONSTANTS, dropletBatchWasmAvailable, useDropletBatchWasm } from "./core/cpu/dropletBatchWasm.js";
export { WASM_MEMORY_BASE } from "./core/cpu/wasmModules.js";
export { runRiverBatch } from "./core/cpu/riverBatch.js";
export { RiverWindows } from "./core/cpu/riverWindows.js";
export { ALL_ROWS } from "./core/cpu/rowBands.js";
export { RouteScratch, routeSediment } from "./core/cpu/routeSediment.js";
export { thermalApply } from "./core/cpu/thermalApply.js";
export { thermalFlux } from "./core/cpu/thermalFlux.js";
export { CpuBatchRunner } from "./core/cpuBatchRunner.js";
export { CpuErosionBackend, type CpuPoolChoice } from "./component/cpuErosionBackend.js";
export { CPU_WORKER_SOURCE } from "./component/cpuWorkerSource.generated.js";
export { CpuPool } from "./component/pool/cpuPool.js";
export { nodeSpawner, type PoolPort } from "./component/pool/poolPorts.js";
export { bake, type BakeSettings } from "./bake/index.js";
export { bakeStart, runBake } from "./bake/bakeRun.js";
export { cpuBakeDevice } from "./bake/bakeDevices.js";
export { TiledBakeDevice, type StepTransport } from "./bake/queue/tiledDevice.js";
export { TileWorkbench } from "./bake/queue/tileWork.js";
export { LocalTileTransport } from "./bake/localTiles.js";
export { decodeTileBlob, encodeTileBlob, TileBlobError } from "./bake/queue/tileCodec.js";
export { readQueueCheckpoint, writeQueueCheckpoint } from "./bake/queue/queueCheckpoint.js";
