/**
 * Internals the repository's own tests reach for, in one place: the CPU kernels one at a time, the
 * constants that bound them, the brush, the hash and the neighbour table. Not part of the package:
 * package.json exports the main entry (`index.ts`), `advanced.ts` and the add-ons' entries, never
 * this, and nothing here is promised to stay. A test imports the entries for what a user or a tool
 * author can reach and this module for the rest, so a test never depends on which file an
 * internal lives in.
 */
export { ACCUMULATOR_LIMIT, SEDIMENT_HOPS } from "./core/batchParams.js";
export { brushEntryCount, buildBrush } from "./core/brush.js";
export { COUNTER_COUNT, COUNTER_DROPLET_STEPS, COUNTER_OUTFLOW } from "./core/counters.js";
export { heightSum } from "./core/erosionState.js";
export { hash4 } from "./core/hash.js";
export { fillRoom, neighbourBounds } from "./core/settling.js";
export { riverSlot } from "./core/steepestDescent.js";
export { THERMAL_DX, THERMAL_DY } from "./core/thermalDirections.js";
export { applyDelta } from "./kernels/fold/applyDelta.js";
export { clipDelta } from "./kernels/fold/clipDelta.js";
export { erodeDroplets } from "./kernels/droplets/erodeDroplets.js";
export { fillLevelStep } from "./kernels/fold/fillLevels.js";
export { DonorLists, listDonors } from "./kernels/rivers/mirror/riverAccumulate.js";
export { riverSlots } from "./kernels/rivers/mirror/riverSlots.js";
export { riverCut, riverErode } from "./kernels/rivers/mirror/riverErode.js";
export { createRiverScratch, RiverBandWork, riverPhaseBand, riverPhases, runRiverPhase, type RiverPhase } from "./kernels/rivers/riverPhases.js";
export { riverRoots, splitRoots, VertexList } from "./kernels/rivers/fast/riverForest.js";
export { RIVER_WALK_WASM_CONSTANTS, riverWalkWasmAvailable, riverWalkWasmStackLevels, useRiverWalkWasm } from "./kernels/rivers/fast/riverWalkWasm.js";
export { DROPLET_BATCH_WASM_CONSTANTS, dropletBatchWasmAvailable, useDropletBatchWasm } from "./kernels/droplets/dropletBatchWasm.js";
export { WASM_MEMORY_BASE } from "./kernels/wasmModules.js";
export { runRiverBatch } from "./kernels/rivers/riverBatch.js";
export { RiverWindows } from "./kernels/rivers/riverWindows.js";
export { ALL_ROWS } from "./kernels/rowBands.js";
export { RouteScratch, routeSediment } from "./kernels/fold/routeSediment.js";
export { thermalApply } from "./kernels/thermal/thermalApply.js";
export { thermalFlux } from "./kernels/thermal/thermalFlux.js";
export { CpuBatchRunner } from "./cpu/cpuBatchRunner.js";
export { CpuErosionBackend, type CpuPoolChoice } from "./cpu/cpuErosionBackend.js";
export { CPU_WORKER_SOURCE } from "./generated/cpuWorkerSource.generated.js";
export { CpuPool } from "./cpu/pool/cpuPool.js";
export { nodeSpawner, type PoolPort } from "./cpu/pool/poolPorts.js";
export { bake, type BakeSettings } from "./bake/index.js";
export { bakeStart, runBake } from "./bake/bakeRun.js";
export { cpuBakeDevice } from "./bake/bakeDevices.js";
export { decodeRaw16, encodeRaw16 } from "./bake/formats/raw16.js";
export { decodeExrHeights, encodeExr } from "./bake/formats/exrFile.js";
export { decodeTiffHeights, encodeTiff } from "./bake/formats/tiffFile.js";
export { FrameStatsWindow } from "./component/frameStats.js";
export { GroundField } from "./component/groundField.js";
export { EditPreviews } from "./component/editPreviews.js";
export { CpuBackendCore } from "./cpu/cpuBackendCore.js";
export { SpareBuffers } from "./cpu/spareBuffers.js";
export { mapsTexels } from "./core/erosionMaps.js";
export { normalRowsFromFixed } from "./core/vertexNormals.js";
export { TiledBakeDevice, type StepTransport } from "./bake/queue/tiledDevice.js";
export { TileWorkbench } from "./bake/queue/tileWork.js";
export { LocalTileTransport } from "./bake/localTiles.js";
export { decodeTileBlob, encodeTileBlob, TileBlobError } from "./bake/queue/tileCodec.js";
export { readQueueCheckpoint, writeQueueCheckpoint } from "./bake/queue/queueCheckpoint.js";
export { DRAIN_FRAMES, MAX_DRAIN_FRAMES, PendingRows, type LandedRows } from "./component/pendingRows.js";
export { present, type BackendPresenter } from "./component/backendPresenter.js";
export { cpuPresenter } from "./component/cpuPresenter.js";
export { DETACHED_GPU_PRESENTER } from "./component/gpuPresenter.js";
export { cutBatch, type PieceStep } from "./gpu/batchPieces.js";
export { FrameBudget, mainOperator, OPERATOR_WORK_UNITS } from "./component/frameBudget.js";
export { CPU_OPERATORS } from "./cpu/cpuOperators.js";
export { GPU_OPERATORS } from "./gpu/gpuOperators.js";
export { PLANNED_OPERATORS } from "./core/plannedBatch.js";
export { OPERATOR_BATCHES } from "./core/batchParams.js";
export { planFrame } from "./component/framePlan.js";
export { FramePace, MAX_FRAME_SHARE, REFERENCE_FRAME_MS, SLOW_FRAME_MS } from "./component/framePace.js";
export { MIN_PIECE_WORK } from "./gpu/batchPieces.js";
export { writeInPieces, type BufferWrite } from "./gpu/piecewiseUpload.js";
export {
    axisSlope, createMaterialGrids, HARDNESS_ONE, hardnessOf, initialSoilAt, rockTaken, rockThreshold, soilAfter, thermalMaterialAmount, weatheredSoil,
    writeInitialSoil,
} from "./core/materials.js";
export { materialMapArrays, materialTexels } from "./core/materialMaps.js";
export { materialParams } from "./core/materialParams.js";
export { makeBackendsWith, type BackendMaker } from "./component/backendStart.js";
export { ForwardingComputeDevice } from "./gpu/forwardingComputeDevice.js";
export { inThreadChannel } from "./cpu/cpuErosionBackend.js";
export type { CpuChannel } from "./cpu/workerChannel.js";
export { WaitWatch } from "./core/waitWatch.js";
