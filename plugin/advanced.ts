/**
 * babylon-terrain-erosion/advanced: the engine under the behaviors, for tool authors (benchmarks,
 * custom backends, offline pipelines, tests): the schedule and its batches, the simulation state
 * and its fingerprint, the CPU kernels' drivers, the compute devices and the kernel table, the
 * fixed-point and option helpers. These names may change between minor versions; a game needs only
 * the main entry (`babylon-terrain-erosion`), whose names the README lists.
 */
export {
    CHANNEL_MIN_AREA, STEEP_CHANNEL_MIN_AREA, meanAbsoluteChange, meanChangeAt, pearsonOf, spearman, steepChannelCells,
} from "./analysis/drainageMetrics.js";
export { MAX_FRAMES_IN_FLIGHT } from "./component/terrainErosion.js";
export {
    BATCH_PARAM_FIELDS, PARAMS_UNIFORM_BYTES, WATER_PARAM_SLOTS, batchExtent, buildBatchParams, dropletReach, packBatchParams, riverRect, waterParams,
} from "./core/batchParams.js";
export type { BatchParams, GridSize } from "./core/batchParams.js";
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
export { planCycleUnits, wholeFieldPatch } from "./core/cycleUnits.js";
export type { CycleUnit } from "./core/cycleUnits.js";
export { MAX_GRID_SIDE, toFixedHeights, validateGrid } from "./core/gridValidation.js";
export { MAP_LIMIT, createMaps, drainageDirections } from "./core/erosionMaps.js";
export { MASK_NAMES, MASKED_OPERATORS, STATE_GRIDS, cloneState, conservedMass, createInitialState, noMasks, waterImbalance } from "./core/erosionState.js";
export type { ErosionMasks, ErosionStateData, StateGridName, WaterSourceState } from "./core/erosionState.js";
export { MATERIAL_GRIDS } from "./core/materials.js";
export type { MaterialGridName, MaterialGrids } from "./core/materials.js";
export { FILL_EPSILON, priorityFloodFill } from "./core/fillLevels.js";
export { FINGERPRINT_TAG, Fnv1a64, fingerprintOf } from "./core/fingerprint.js";
export { FIXED_ONE, HEIGHT_MAX_FIXED, HEIGHT_MAX_METRES, HEIGHT_MIN_FIXED, HEIGHT_MIN_METRES, fixedToMetres, metresToFixed } from "./core/fixedPoint.js";
export { READ_MARGIN, extentsMeet, independentClasses } from "./core/independentClasses.js";
export { LOCAL_PATCH_BASE, createLocalEvent } from "./core/localErosion.js";
export type { LocalErosionEvent } from "./core/localErosion.js";
export { cloneOptions, getOptionValue, simulationOptions, withOptionValue } from "./core/options.js";
export { withOptionsTable } from "./core/optionsMarkdown.js";
export { describeAllowedValues, findOptionSpec } from "./core/optionsTable.js";
export { OPERATOR_ORDER, layoutPatches } from "./core/patches.js";
export type { GridRect, OperatorName, Patch } from "./core/patches.js";
export { sameClass, takeFrame } from "./core/frameLoop.js";
export type { TakenFrame } from "./core/frameLoop.js";
export { ErosionSchedule } from "./core/schedule.js";
export type { PlannedBatch } from "./core/schedule.js";
export { SNAPSHOT_VERSION } from "./core/snapshot.js";
export { THERMAL_SLOTS } from "./core/thermalDirections.js";
export { writeNormalRow } from "./core/vertexNormals.js";
export { waterTexels } from "./core/waterMaps.js";
export { WATER_CARRIED_GRIDS, WATER_GRIDS, WATER_PASSES, WATER_VIEW_GRIDS, createWaterGrids } from "./core/waterModel.js";
export { refreshWaterVelocity } from "./core/waterVelocity.js";
export type { WaterGridName, WaterGrids, WaterViewGridName } from "./core/waterModel.js";
export { MAX_WATER_SOURCES, withSourceAdded } from "./core/waterSources.js";
export type { WaterSource } from "./core/waterSources.js";
export { CELL_SIZE_MAX, CELL_SIZE_MIN, cellScaledOptions, featureScale, validateCellSize } from "./core/worldScale.js";
export { CpuErosionBackend } from "./cpu/cpuErosionBackend.js";
export type { CpuPoolChoice } from "./cpu/cpuErosionBackend.js";
export { BabylonComputeDevice } from "./component/babylonComputeDevice.js";
export { planDropletDispatch } from "./gpu/batchDispatch.js";
export type { BufferUsage, ComputeBuffer, ComputeDevice, KernelBindings } from "./gpu/computeDevice.js";
export { CountingComputeDevice } from "./gpu/countingComputeDevice.js";
export { GpuErosionSimulation } from "./gpu/gpuSimulation.js";
export { HeadlessGpuBackend } from "./gpu/headlessGpuBackend.js";
export { GRID_WORKGROUP_SIZE, KERNELS, SHADER_MIRRORS } from "./gpu/kernelTable.js";
export { BINDINGS } from "./gpu/kernelBindings.js";
export { kernelFile, kernelSource } from "./gpu/shaderLibrary.js";
export type { KernelMirror, KernelName, KernelSpec } from "./gpu/kernelTable.js";
export { WebGpuComputeDevice } from "./gpu/webGpuComputeDevice.js";
