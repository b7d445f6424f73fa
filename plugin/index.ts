/**
 * babylon-terrain-erosion: deterministic GPU terrain erosion for Babylon.js grounds.
 *
 * The main entry: what a game uses (the behaviors and their events, options and errors, snapshots
 * and saves, `erodeHeightfield` and `CpuErosionSimulation` for Node, ground and PNG helpers, the
 * drainage metrics). The README lists every name. The material plugin, the colliders and the water
 * surface have their own entries (`/material`, `/physics`, `/water`); the engine under the
 * behaviors, for tool authors, is `babylon-terrain-erosion/advanced` (`advanced.ts`).
 */
export { OPTION_SPECS } from "./core/optionsTable.js";
export type { OptionKind, OptionSpec } from "./core/optionsTable.js";
export { DEFAULT_OPTIONS, ErosionOptionError, resolveOptions, RUNTIME_SETTINGS, talusFromAngle } from "./core/options.js";
export type {
    ErosionBackendName, ErosionOptions, ErosionOptionsInput, ErosionSettings, HydraulicOptions, MaterialOptions, RiverOptions, SimulationOptions,
    ThermalOptions,
} from "./core/options.js";
export { heightsToFixed, fixedToHeights } from "./core/fixedPoint.js";
export { erodeHeightfield } from "./cpu/erodeHeightfield.js";
export type { ErodedHeightfield } from "./cpu/erodeHeightfield.js";
export { CpuErosionSimulation } from "./cpu/cpuSimulation.js";
export type { ErosionCounters } from "./core/counters.js";
export type { MaskName } from "./core/erosionState.js";
export type { MapTextureName } from "./component/runnerMaps.js";
export type { MaterialMaps } from "./core/materialMaps.js";
export type { WaterMaps } from "./core/waterMaps.js";
export type { ErosionMaps } from "./core/erosionMaps.js";
export { drainageField, drainageMetrics } from "./analysis/drainageMetrics.js";
export type { DrainageField, DrainageMetrics } from "./analysis/drainageMetrics.js";
export { generateNoiseTerrain, generateCone } from "./terrain/noiseTerrain.js";
export type { NoiseTerrainOptions } from "./terrain/noiseTerrain.js";
export { TerrainErosion } from "./component/terrainErosion.js";
export type { WaterSourceHandle } from "./component/waterSources.js";
export type { PatchErodedEvent, CycleCompletedEvent, ErosionErrorEvent, ErosionFrameStats, ErosionStall, ErosionStatus } from "./component/terrainErosion.js";
export { StallError } from "./core/waitWatch.js";
export type { PendingWait, WaitingNow, WaitKind } from "./core/waitWatch.js";
export type { FrameStatsSummary, FrameTimeSummary } from "./component/frameStats.js";
export { FRAME_STATS_WINDOW } from "./component/frameStats.js";
export type { ErosionStartup, StartupPhase } from "./component/startupProgress.js";
export { ErosionTargetError, validateGround } from "./component/groundValidation.js";
export { ErosionController } from "./component/erosionController.js";
export { TerrainErosionWorld } from "./component/terrainErosionWorld.js";
export type { GroundWindow } from "./component/terrainErosionWorld.js";
export type { GroundDataUpdate } from "./component/groundBinding.js";
export { ErosionGroundSave } from "./component/groundSave.js";
export { ErosionSnapshot } from "./core/snapshot.js";
export type { GridPoint, GroundEdit, GroundEditKind, GroundEditRequest } from "./core/groundEdits.js";
export type { GroundEditHandle, GroundEditInput, WorldPoint } from "./component/groundEditsAt.js";
export { decodeGrayPng, encodeGray16Png, encodeRgb8Png } from "./terrain/png16.js";
export type { GrayImage } from "./terrain/png16.js";
export { createGroundTilesFromHeights } from "./terrain/groundTiles.js";
export type { GroundTilesOptions } from "./terrain/groundTiles.js";
export { createGroundFromHeights, createGroundFromPng16 } from "./terrain/heightmapGround.js";
export type { GroundExtent, HeightsGroundOptions, Png16GroundOptions } from "./terrain/heightmapGround.js";
export { encodeHeightsPng16 } from "./terrain/heightsPng.js";
export { heightsToSamples, samplesToHeights } from "./terrain/heightSamples.js";
export type { HeightRange } from "./terrain/heightSamples.js";
export type { LocalErosionInput } from "./core/localErosion.js";
export { replayInputLog } from "./cpu/replay.js";
export type { ReplayOptions } from "./cpu/replay.js";
export { parseInputLog, serializeInputLog } from "./core/inputLog/logFormat.js";
export type { InputEntry, InputPayload, InputStamp } from "./core/inputLog/inputEntries.js";
export type { InputHistory } from "./core/inputLog/inputHistory.js";
export { combinedChecksum, differingRegions, regionChecksumHex, regionChecksums } from "./core/checksums/regionChecksums.js";
export type { RegionChecksums } from "./core/checksums/regionChecksums.js";
export type { UndoMemory } from "./component/runnerRewind.js";
export { LockstepHost } from "./cpu/lockstepHost.js";
/** The simulation contract's tag (docs/simulation.md): players of one lockstep game must share it. */
export { FINGERPRINT_TAG } from "./core/fingerprint.js";
export type { LockstepJoin, LockstepHostOptions } from "./cpu/lockstepHost.js";
export { parsePlayerInput, serializePlayerInput } from "./core/lockstep/playerInputs.js";
export type { PlayerInput } from "./core/lockstep/playerInputs.js";
export { PlayerRefusedError } from "./core/lockstep/playerLimits.js";
export { StepOrder } from "./core/lockstep/stepOrder.js";
export type { PlayerLimits } from "./core/lockstep/playerLimits.js";
export { applyRegions, readRegions } from "./core/checksums/regionRepair.js";
export type { RegionPatch } from "./core/checksums/regionRepair.js";
export type { RegionsPartedEvent } from "./component/regionChecks.js";
