/**
 * `erosion.maps`: what a game or a material reads of the eroded field: its heights (as floats, in
 * fixed point, as a PNG), the erosion maps as arrays and as textures kept current every frame, the
 * material counters, and where world positions fall in the field's vertex grid.
 */
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import type { ErosionCounters } from "../../core/counters.js";
import type { ErosionMaps } from "../../core/erosionMaps.js";
import type { MaterialMaps } from "../../core/materialMaps.js";
import type { WaterMaps } from "../../core/waterMaps.js";
import { encodeHeightsPng16, type HeightRange } from "../../terrain/index.js";
import type { MapTextureName } from "../runnerMaps.js";
import * as reads from "../runnerReads.js";
import type { FacetLink } from "./facetLink.js";

/** The field's heights, maps, map textures and counters (`erosion.maps`). */
export class MapsFacet {
    /** @param _link the controller's runner and guards */
    constructor(private readonly _link: FacetLink) {}

    /**
     * Where world positions fall in the field's vertex grid (for materials that sample the maps):
     * column = `column` · (x, y, z, 1) and row = `row` · (x, y, z, 1), fractional, from the field's
     * first vertex; and the field's size in vertices. Follows the grounds' current transform.
     */
    public getFieldGridTransform(): { column: [number, number, number, number]; row: [number, number, number, number]; width: number; depth: number } {
        const field = this._link.live("getFieldGridTransform").field;
        return { ...field.gridTransform(), width: field.width, depth: field.depth };
    }

    /** The distance between neighbouring vertices in the grounds' local units (0 when nothing is bound). */
    public get fieldCellSize(): number {
        return this._link.runner?.field.cellSize ?? 0;
    }

    /** Material counters (outflow, droplet steps...) after everything issued so far. */
    public readCounters(): Promise<ErosionCounters> {
        return this._link.withRunner("readCounters", (runner) => reads.readCounters(runner));
    }

    /** Heights in the ground's local units (its positions' y), in its vertex order, after everything issued so far. */
    public readHeights(): Promise<Float32Array> {
        return this._link.withRunner("readHeights", (runner) => reads.readHeights(runner));
    }

    /** The exact state's heights in fixed point (1/65536 of the ground's cell size), in the ground's vertex order. */
    public exportFixedHeights(): Promise<Int32Array> {
        return this._link.withRunner("exportFixedHeights", (runner) => reads.exportFixedHeights(runner));
    }

    /**
     * The eroded heights as a 16-bit grayscale PNG (top row = far, +z, edge) and the height range
     * its samples map (`range`, default the heights' own minimum and maximum).
     */
    public exportPng16(range?: HeightRange): Promise<{ png: Uint8Array; range: HeightRange }> {
        return this._link.withRunner("exportPng16", async (runner) =>
            encodeHeightsPng16(await reads.readHeights(runner), runner.field.width, runner.field.depth, range)
        );
    }

    /**
     * The erosion maps accumulated since attach or `resetMaps()`, as arrays (both backends): water
     * (droplet visits), wear and deposition (1/65536 of the cell size), the drainage direction of
     * every vertex from the current state as the river operator routes it (slot 0..7: +x, -x, +y, -y,
     * then diagonals; 255 where nothing is lower), the drainage area (cells, the river operator's
     * state), the shallow water's depth (local units) and velocity (two per vertex, along local x
     * and z, local units a water step, at most a cell a step each: the velocity its last water step
     * left, as the `"shallowWater"` texture holds it; docs/simulation.md, "Shallow water"), and the materials (`materials.enabled`): the soil's thickness
     * (local units), the strata's bed of the rock at the surface (`exposedLayer`, -1 without strata
     * or outside the layered beds) and that rock's hardness (`rockHardness`, times the soil's; 1
     * while the materials have never run).
     */
    public readMaps(): Promise<ErosionMaps & { direction: Uint8Array; drainageArea: Int32Array } & WaterMaps & MaterialMaps> {
        return this._link.withRunner("readMaps", (runner) => runner.maps.readMaps());
    }

    /** Starts the erosion maps again from zero. */
    public resetMaps(): Promise<void> {
        return this._link.withRunner("resetMaps", (runner) => runner.maps.resetMaps());
    }

    /**
     * The maps as a texture, for materials (`TerrainErosionMaterialPlugin`): RGBA32F, one texel per
     * field vertex (row 0 is the far, +z, edge), r = droplet visits, g = wear and b = deposition in
     * local units, a = drainage direction slot (-1 where nothing is lower). Kept current after every
     * frame from the first call on: written on the GPU by the WebGPU backend (no readback), uploaded
     * from the rows each frame changed by the CPU backend (which computes them in its worker). Maps
     * added later (drainage area) come from `getMapTexture(name)`. RGBA32F is not filterable
     * everywhere: sample it with texel loads (the material plugin filters bilinearly in its shader).
     */
    public getMapsTexture(): Promise<RawTexture> {
        return this._link.withRunner("getMapsTexture", (runner) => runner.maps.getMapsTexture());
    }

    /**
     * A map added after `getMapsTexture()`'s layout was fixed, as a texture kept current like it,
     * one texel per field vertex (row 0 at the far, +z, edge): `"drainageArea"`, R32F, the river
     * operator's drainage area in cells; `"shallowWater"`, RGBA32F, the shallow water: r depth, g and
     * b velocity along local x and z (units a water step, the last water step's: as `readMaps()`), a the water surface (ground + water), all
     * in local units (dry ground before water runs; `TerrainWaterSurface` draws it); `"materials"`,
     * RGBA32F, the rock and soil (`materials` options): r the soil's thickness in local units, g the
     * strata's bed at the surface (-1: none), b the rock's hardness (times the soil's), a 1 once the
     * materials have run (before: (0, -1, 1, 0) everywhere). The material plugin colours by it.
     */
    public getMapTexture(name: MapTextureName): Promise<RawTexture> {
        if (name === "drainageArea") {
            return this._link.withRunner("getMapTexture", (runner) => runner.maps.getAreaTexture());
        }
        if (name === "shallowWater") {
            return this._link.withRunner("getMapTexture", (runner) => runner.maps.getWaterTexture());
        }
        if (name === "materials") {
            return this._link.withRunner("getMapTexture", (runner) => runner.maps.getMaterialsTexture());
        }
        return Promise.reject(new RangeError(`getMapTexture: name is ${JSON.stringify(name)}: it must be "drainageArea", "shallowWater" or "materials".`));
    }
}
