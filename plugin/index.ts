/**
 * babylon-terrain-erosion: deterministic GPU terrain erosion for Babylon.js grounds.
 *
 * The main entry: what a game uses (the behaviors, their facets and events, options and errors,
 * snapshots and saves, the input log's entries, `erodeHeightfield` and `CpuErosionSimulation` for
 * Node). The README lists every name. Entries by audience hold the rest: `/lockstep` (the host,
 * players' requests, the log's wire form, replay, region checksums and repair, the contract's tag),
 * `/terrain` (grounds from heights and PNGs, PNG codecs, test terrains, drainage measures), the
 * add-ons' `/material`, `/physics`, `/water`, and, for tool authors, the engine under the behaviors
 * at `/advanced` (`advanced.ts`).
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
export { TerrainErosion } from "./component/terrainErosion.js";
export type { EditsFacet } from "./component/facets/editsFacet.js";
export type { HistoryFacet } from "./component/facets/historyFacet.js";
export type { LockstepFacet } from "./component/facets/lockstepFacet.js";
export type { MapsFacet } from "./component/facets/mapsFacet.js";
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
export type { LocalErosionInput } from "./core/localErosion.js";
export type { InputEntry, InputPayload, InputStamp } from "./core/inputLog/inputEntries.js";
export type { UndoMemory } from "./component/runnerRewind.js";
