/**
 * The face of the kernels (plugin/kernels/): what the rest of the plugin (the CPU backend, the
 * bake, the component) runs of the CPU mirrors of the WGSL kernels, one wing per operator. The
 * package's entries (advanced.ts, internal.ts) and the kernels' own modules import the modules
 * themselves; every other import into plugin/kernels/ comes through here (layers.test.ts).
 */
export { dropletBatchWasmAvailable } from "./droplets/dropletBatchWasm.js";
export { erodeDroplets } from "./droplets/erodeDroplets.js";
export { FoldScratch, foldDroplets } from "./droplets/foldDroplets.js";
export { applyGroundEdit, settleEditLevels } from "./edits/applyGroundEdit.js";
export { noteHardnessWritten, prepareMaterials } from "./fold/soilFold.js";
export { tileSeam } from "./fold/tileSeam.js";
export { riverRoots, splitRoots, VertexList } from "./rivers/fast/riverForest.js";
export { riverWalkWasmAvailable } from "./rivers/fast/riverWalkWasm.js";
export { riverPieceCount, runRiverBatch } from "./rivers/riverBatch.js";
export { RIVER_SHARED_GRIDS, RiverBandWork, riverPhaseBand, riverPhases, runRiverPhase, type RiverPhase, type RiverScratch } from "./rivers/riverPhases.js";
export { riverRunsInWindows, RiverWindows, windowVerticesFor } from "./rivers/riverWindows.js";
export type { RowRange } from "./rowBands.js";
export { thermalApply } from "./thermal/thermalApply.js";
export { thermalFlux } from "./thermal/thermalFlux.js";
export { ensureWater, runWaterPass } from "./water/waterBatch.js";
