/**
 * The entry of the command-line package, `babylon-terrain-erosion-cli` (cli/, built by
 * scripts/build-cli.mjs): the `terrain-erosion bake` and `terrain-erosion worker` commands as
 * functions for Node scripts (Node only: they read and write files, start worker threads and,
 * with a queue, connect to Redis). Not part of the library's package, so a browser app's install
 * holds neither Dawn for Node nor the queue's Redis clients.
 */
export { bake, readOptionsFile, type BakeSettings, type BakeSummary } from "./bake.js";
export { BakeInputError, readBakeInput, type BakeInput, type InputScale, type TileLayout } from "./bakeInput.js";
export { BakeOutputError, outputPaths, type OutputPaths } from "./bakeOutput.js";
export { BakeGpuError } from "./bakeDevices.js";
export { runBake, type BakeDevice, type BakeRequest, type BakeResult } from "./bakeRun.js";
export { BakeQueueError } from "./queue/queueConnection.js";
export { type QueueBakeSettings } from "./queue/queueBake.js";
export { startQueueWorker, type QueueWorker, type QueueWorkerSettings } from "./queue/queueWorker.js";
export { FORMAT_EXTENSIONS, HEIGHT_FORMATS, type HeightFormat } from "./formats/heightOutput.js";
export type { Endian } from "./formats/raw16.js";
