/**
 * babylon-terrain-erosion/water: the erosion's shallow water drawn as a surface over the grounds.
 * Its own entry point, so a game that imports only the erosion component does not bundle it.
 */
export { TerrainWaterSurface } from "./terrainWaterSurface.js";
export { WATER_SURFACE_DEFAULTS, resolveWaterSurfaceOptions } from "./waterSurfaceOptions.js";
export type { TerrainWaterSurfaceOptions, WaterColor, WaterDirection } from "./waterSurfaceOptions.js";
