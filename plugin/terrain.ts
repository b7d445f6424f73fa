/**
 * babylon-terrain-erosion/terrain: terrains in and out, with no erosion in them: grounds (one or
 * tiled) from height arrays and 16-bit PNGs and back, PNG reading and writing with no canvas (Node
 * too), test terrains (noise, a cone), and the drainage measures the realism claims use.
 */
export { decodeGrayPng, encodeGray16Png, encodeRgb8Png } from "./terrain/png16.js";
export type { GrayImage } from "./terrain/png16.js";
export { createGroundTilesFromHeights } from "./terrain/groundTiles.js";
export type { GroundTilesOptions } from "./terrain/groundTiles.js";
export { createGroundFromHeights, createGroundFromPng16 } from "./terrain/heightmapGround.js";
export type { GroundExtent, HeightsGroundOptions, Png16GroundOptions } from "./terrain/heightmapGround.js";
export { encodeHeightsPng16 } from "./terrain/heightsPng.js";
export { heightsToSamples, samplesToHeights } from "./terrain/heightSamples.js";
export type { HeightRange } from "./terrain/heightSamples.js";
export { generateNoiseTerrain, generateCone } from "./terrain/noiseTerrain.js";
export type { NoiseTerrainOptions } from "./terrain/noiseTerrain.js";
export { drainageField, drainageMetrics } from "./analysis/drainageMetrics.js";
export type { DrainageField, DrainageMetrics } from "./analysis/drainageMetrics.js";
