/**
 * babylon-terrain-erosion/lockstep: what a lockstep game needs beyond the behavior's own
 * `erosion.lockstep` facet: the host (`LockstepHost`, over a `CpuErosionSimulation`) and the rules
 * it holds players to, the players' requests and their wire form, the input log's JSON form and its
 * replay on the CPU reference, region checksums and the repair of regions, and the simulation
 * contract's tag every player must share. The README's "Multiplayer" section shows them together.
 */
export { LockstepHost } from "./cpu/lockstepHost.js";
export type { LockstepJoin, LockstepHostOptions } from "./cpu/lockstepHost.js";
/** The simulation contract's tag (docs/simulation.md): players of one lockstep game must share it. */
export { FINGERPRINT_TAG } from "./core/fingerprint.js";
export { parsePlayerInput, serializePlayerInput } from "./core/lockstep/playerInputs.js";
export type { PlayerInput } from "./core/lockstep/playerInputs.js";
export { PlayerRefusedError } from "./core/lockstep/playerLimits.js";
export type { PlayerLimits } from "./core/lockstep/playerLimits.js";
export { StepOrder } from "./core/lockstep/stepOrder.js";
export { replayInputLog } from "./cpu/replay.js";
export type { ReplayOptions } from "./cpu/replay.js";
export { parseInputLog, serializeInputLog } from "./core/inputLog/logFormat.js";
export type { InputHistory } from "./core/inputLog/inputHistory.js";
export { combinedChecksum, differingRegions, regionChecksumHex, regionChecksums } from "./core/checksums/regionChecksums.js";
export type { RegionChecksums } from "./core/checksums/regionChecksums.js";
export { applyRegions, readRegions } from "./core/checksums/regionRepair.js";
export type { RegionPatch } from "./core/checksums/regionRepair.js";
export type { RegionsPartedEvent } from "./component/regionChecks.js";
