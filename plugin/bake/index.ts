/**
 * `babylon-terrain-erosion/bake`: the `terrain-erosion bake` command as functions for Node scripts
 * (Node only: it reads and writes files and starts worker threads).
 */
export { bake, readOptionsFile, type BakeSettings, type BakeSummary } from "./bake.js";
export { BakeInputError, readBakeInput, type BakeInput, type InputScale, type TileLayout } from "./bakeInput.js";
export { BakeOutputError, outputPaths, type OutputPaths } from "./bakeOutput.js";
export { BakeGpuError } from "./bakeDevices.js";
export { runBake, type BakeDevice, type BakeRequest, type BakeResult } from "./bakeRun.js";
