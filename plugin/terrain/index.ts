/**
 * The face of the terrain wing (plugin/terrain/): what the rest of the plugin (the component's
 * save, the bake's inputs and outputs) uses of it, the 16-bit PNGs and the heights they stand for.
 * Free of Babylon, so the bake reaches it without bringing Babylon into the command line's bundle;
 * the grounds made from heights (`heightmapGround.ts`, `groundTiles.ts`) are the package entries'
 * to export. The package's entries and the wing's own modules import the modules themselves;
 * every other import into plugin/terrain/ comes through here (layers.test.ts).
 */
export { heightsToSamples, samplesToHeights, type HeightRange } from "./heightSamples.js";
export { encodeHeightsPng16 } from "./heightsPng.js";
export { chunk, decodeGrayPng, encodeGray16Png, filterGray16Row, pngHeader, SIGNATURE } from "./png16.js";
