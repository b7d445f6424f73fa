/**
 * The UMD bundle's entry (the global `TERRAIN_EROSION`, for the Babylon Playground and plain script
 * tags): everything of the main entry point, `/lockstep` and `/terrain`, the material plugin, the
 * physics colliders and the water surface. ES module users import those from their own entry points
 * (`babylon-terrain-erosion/material`, `babylon-terrain-erosion/physics`,
 * `babylon-terrain-erosion/water`), so a bundle of the erosion component alone leaves them out.
 */
export * from "./index.js";
export * from "./lockstep.js";
export * from "./terrain.js";
export * from "./material/index.js";
export * from "./physics/index.js";
export * from "./water/index.js";
