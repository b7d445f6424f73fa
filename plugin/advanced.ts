/**
 * babylon-terrain-erosion/advanced: the engine under the behaviors, for tool authors (benchmarks,
 * custom backends, offline pipelines, tests): the schedule and its batches, the simulation state
 * and its fingerprint, the CPU kernels' drivers, the compute devices and the kernel table, the
 * fixed-point and option helpers. These names may change between minor versions; a game needs only
 * the main entry (`babylon-terrain-erosion`), whose names the README lists.
 */
export { CHANNEL_MIN_AREA, meanAbsoluteChange, meanChangeAt, pearsonOf, spearman, steepChannelCells } from "./analysis/drainageMetrics.js";
export { MAX_FRAMES_IN_FLIGHT } from "./component/terrainErosion.js";
export { BATCH_PARAM_FIELDS, PARAMS_UNIFORM_BYTES, batchExtent, buildBatchParams, packBatchParams } from "./core/batchParams.js";
export type { BatchParams } from "./core/batchParams.js";
export { brushEntryCount, buildBrush } from "./core/brush.js";
export { COUNTER_COUNT, COUNTER_DROPLET_STEPS, COUNTER_NAMES, countersToObject } from "./core/counters.js";
export { erodeDroplets } from "./kernels/droplets/erodeDroplets.js";
export { FoldScratch, foldDroplets } from "./kernels/droplets/foldDroplets.js";
export { tileSeam } from "./kernels/fold/tileSeam.js";
export { applyGroundEdit } from "./kernels/edits/applyGroundEdit.js";
export { shapeGroundEdit } from "./core/groundEdits.js";
export { runRiverBatch } from "./kernels/rivers/riverBatch.js";
export { RiverBandWork, createRiverScratch } from "./kernels/rivers/riverPhases.js";
export type { RiverScratch } from "./kernels/rivers/riverPhases.js";
export { thermalApply } from "./kernels/thermal/thermalApply.js";
export { thermalFlux } from "./kernels/thermal/thermalFlux.js";
export { CpuBatchRunner } from "./cpu/cpuBatchRunner.js";
export { toFixedHeights } from "./core/gridValidation.js";
export { MAP_LIMIT, createMaps } from "./core/erosionMaps.js";
export { MASK_NAMES, MASKED_OPERATORS, STATE_GRIDS, cloneState, conservedMass, createInitialState, noMasks, waterImbalance } from "./core/erosionState.js";
export type { ErosionMasks, ErosionStateData, StateGridName } from "./core/erosionState.js";
export { MATERIAL_GRIDS } from "./core/materials.js";
export type { MaterialGrids } from "./core/materials.js";
export { FILL_EPSILON, priorityFloodFill } from "./core/fillLevels.js";
export { fingerprintOf } from "./core/fingerprint.js";
export { FIXED_ONE, HEIGHT_MAX_FIXED, HEIGHT_MAX_METRES, HEIGHT_MIN_FIXED, HEIGHT_MIN_METRES } from "./core/fixedPoint.js";
export { extentsMeet } from "./core/independentClasses.js";
export { createLocalEvent } from "./core/localErosion.js";
export { erosionSettings, getOptionValue, simulationOptions, withOptionValue } from "./core/options.js";
export { withOptionsTable } from "./core/optionsMarkdown.js";
export { findOptionSpec } from "./core/optionsTable.js";
export { OPERATOR_ORDER, layoutPatches } from "./core/patches.js";
export type { OperatorName, Patch } from "./core/patches.js";
export { sameClass, takeFrame } from "./core/frameLoop.js";
export { ErosionSchedule } from "./core/schedule.js";
export type { PlannedBatch } from "./core/schedule.js";
export { THERMAL_SLOTS } from "./core/thermalDirections.js";
export { writeNormalRow } from "./core/vertexNormals.js";
export { waterTexels } from "./core/waterMaps.js";
export { WATER_CARRIED_GRIDS, WATER_PASSES, createWaterGrids } from "./core/waterModel.js";
export { refreshWaterVelocity } from "./core/waterVelocity.js";
export type { WaterGridName, WaterGrids, WaterViewGridName } from "./core/waterModel.js";
export { withSourceAdded } from "./core/waterSources.js";
export type { WaterSource } from "./core/waterSources.js";
export { CpuErosionBackend } from "./cpu/cpuErosionBackend.js";
export type { CpuPoolChoice } from "./cpu/cpuErosionBackend.js";
export { BabylonComputeDevice } from "./component/babylonComputeDevice.js";
export { planDropletDispatch } from "./gpu/batchDispatch.js";
export type { ComputeBuffer, ComputeDevice, KernelBindings } from "./gpu/computeDevice.js";
export { CountingComputeDevice } from "./gpu/countingComputeDevice.js";
export { GpuErosionSimulation } from "./gpu/gpuSimulation.js";
export { HeadlessGpuBackend } from "./gpu/headlessGpuBackend.js";
export { GRID_WORKGROUP_SIZE, KERNELS, SHADER_MIRRORS } from "./gpu/kernelTable.js";
export { BINDINGS } from "./gpu/kernelBindings.js";
export { kernelFile, kernelSource } from "./gpu/shaderLibrary.js";
export type { KernelMirror, KernelName, KernelSpec } from "./gpu/kernelTable.js";
export { WebGpuComputeDevice } from "./gpu/webGpuComputeDevice.js";
