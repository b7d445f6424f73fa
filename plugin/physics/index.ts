/**
 * babylon-terrain-erosion/physics: colliders that follow the eroded heights (Babylon physics v2,
 * Havok). Its own entry point, so a game that imports only the erosion component does not bundle
 * physics code; the package never imports `@babylonjs/havok` itself.
 */
export { ErosionColliders } from "./erosionColliders.js";
export type { ErosionCollidersOptions } from "./erosionColliders.js";
export { chunkOrigins } from "./colliderOptions.js";
