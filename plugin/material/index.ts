/**
 * babylon-terrain-erosion/material: the erosion maps in a game's own materials. Its own entry point,
 * so a game that imports only the erosion component does not bundle material code.
 */
export { TerrainErosionMaterialPlugin, EROSION_MAP_VIEWS } from "./terrainErosionMaterialPlugin.js";
export type { ErosionMapView, WetSource } from "./terrainErosionMaterialPlugin.js";
export { fitMapScales, positivePercentile } from "./mapScales.js";
