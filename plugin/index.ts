/**
 * babylon-terrain-erosion: deterministic GPU terrain erosion for Babylon.js grounds.
 *
 * Public entry point. Everything a user needs is exported here and only here.
 */
export { OPTION_SPECS, describeAllowedValues, findOptionSpec } from "./core/optionsTable.js";
export type { OptionKind, OptionSpec } from "./core/optionsTable.js";
export { DEFAULT_OPTIONS, ErosionOptionError, resolveOptions, cloneOptions, getOptionValue, withOptionValue, talusFromAngle } from "./core/options.js";
export type { ErosionBackendName, ErosionOptions, ErosionOptionsInput, HydraulicOptions, RiverOptions, ThermalOptions } from "./core/options.js";
export { FIXED_ONE, HEIGHT_MAX_FIXED, HEIGHT_MIN_FIXED, HEIGHT_MAX_METRES, HEIGHT_MIN_METRES, heightsToFixed, fixedToHeights, metresToFixed, fixedToMetres } from "./core/fixedPoint.js";
export { erodeHeightfield, toFixedHeights, validateGrid, MAX_GRID_SIDE } from "./core/erodeHeightfield.js";
export type { ErodedHeightfield } from "./core/erodeHeightfield.js";
export { CpuErosionSimulation } from "./core/cpuSimulation.js";
export { ErosionSchedule } from "./core/schedule.js";
export type { PlannedBatch } from "./core/schedule.js";
export { planCycleUnits, wholeFieldPatch, type CycleUnit } from "./core/cycleUnits.js";
export { extentsMeet, independentClasses, READ_MARGIN } from "./core/independentClasses.js";
export { OPERATOR_ORDER, layoutPatches } from "./core/patches.js";
export type { GridRect, OperatorName, Patch } from "./core/patches.js";
export { batchExtent, buildBatchParams, BATCH_PARAM_FIELDS, dropletReach } from "./core/batchParams.js";
export type { BatchParams, GridSize } from "./core/batchParams.js";
export { COUNTER_NAMES, countersToObject } from "./core/counters.js";
export type { ErosionCounters } from "./core/counters.js";
export { createInitialState, cloneState, conservedMass, fingerprintOf, noMasks, MASKED_OPERATORS, STATE_GRIDS } from "./core/erosionState.js";
export type { ErosionMasks, ErosionStateData, MaskName, StateGridName } from "./core/erosionState.js";
export { createMaps, drainageDirections, MAP_LIMIT } from "./core/erosionMaps.js";
export type { ErosionMaps } from "./core/erosionMaps.js";
export { fingerprintState, Fnv1a64, FINGERPRINT_TAG } from "./core/fingerprint.js";
export { drainageField, drainageMetrics, steepChannelCells, meanChangeAt, meanAbsoluteChange, spearman, pearsonOf, CHANNEL_MIN_AREA, STEEP_CHANNEL_MIN_AREA } from "./analysis/drainageMetrics.js";
export type { DrainageField, DrainageMetrics } from "./analysis/drainageMetrics.js";
export { priorityFloodFill, FILL_EPSILON } from "./core/fillLevels.js";
export { cellScaledOptions, featureScale, validateCellSize, CELL_SIZE_MIN, CELL_SIZE_MAX } from "./core/worldScale.js";
export { generateNoiseTerrain, generateCone } from "./terrain/noiseTerrain.js";
export type { NoiseTerrainOptions } from "./terrain/noiseTerrain.js";
export { GpuErosionSimulation } from "./gpu/gpuSimulation.js";
export { planDropletDispatch } from "./gpu/batchDispatch.js";
export type { BufferUsage, ComputeBuffer, ComputeDevice, KernelBindings } from "./gpu/computeDevice.js";
export { BabylonComputeDevice } from "./gpu/babylonComputeDevice.js";
export { WebGpuComputeDevice } from "./gpu/webGpuComputeDevice.js";
export { CountingComputeDevice } from "./gpu/countingComputeDevice.js";
export { kernelSource, KERNELS } from "./gpu/shaderLibrary.js";
export type { KernelName } from "./gpu/shaderLibrary.js";
export { TerrainErosion, MAX_FRAMES_IN_FLIGHT } from "./component/terrainErosion.js";
export type { PatchErodedEvent, CycleCompletedEvent, ErosionErrorEvent, ErosionFrameStats } from "./component/terrainErosion.js";
export { ErosionTargetError, validateGround } from "./component/groundBinding.js";
export { ErosionSnapshot, SNAPSHOT_VERSION } from "./core/snapshot.js";
export { computeNormalRows } from "./component/vertexNormals.js";
export { decodeGrayPng, encodeGray16Png, encodeRgb8Png } from "./terrain/png16.js";
export type { GrayImage } from "./terrain/png16.js";
export { createGroundFromHeights, createGroundFromPng16, encodeHeightsPng16, heightsToSamples, samplesToHeights } from "./terrain/heightmapGround.js";
export type { GroundExtent, HeightRange, HeightsGroundOptions, Png16GroundOptions } from "./terrain/heightmapGround.js";
export { createLocalEvent, LOCAL_PATCH_BASE } from "./core/localErosion.js";
export type { LocalErosionEvent, LocalErosionInput } from "./core/localErosion.js";
