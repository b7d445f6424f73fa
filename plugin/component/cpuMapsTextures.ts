/**
 * The maps textures of the CPU backend: the same RGBA32F maps texture, R32F drainage-area texture
 * and RGBA32F shallow-water and materials textures the GPU backend writes with `write_maps` and its
 * kin (layout in `TerrainErosion.getMapsTexture`),
 * kept current from the rows each frame changed, which the CPU backend computes beside the heights
 * (`mapsTexels`) so the main thread only uploads them.
 */
import { Constants } from "@babylonjs/core/Engines/constants.js";
import { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import type { InternalTexture } from "@babylonjs/core/Materials/Textures/internalTexture.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { mapsTexels, type ErosionMaps, type MapsTexelOptions, type MapsTexels } from "../core/erosionMaps.js";
import type { ErosionStateData } from "../core/erosionState.js";

/** The textures made the first time they are asked for. */
const LATER_TEXTURES = ["water", "materials"] as const;

/** A texture made the first time it is asked for. */
export type LaterTexture = (typeof LATER_TEXTURES)[number];

/** The maps and drainage-area textures of a field eroded on the CPU backend. */
export class CpuMapsTextures {
    /** RGBA32F, one texel per vertex (row 0 at the far, +z, edge). */
    public readonly maps: RawTexture;
    /** R32F drainage area (cells), one texel per vertex. */
    public readonly area: RawTexture;
    /** The textures made when first asked for (`water`, `materials`): null until then. */
    private readonly _later: Record<LaterTexture, RawTexture | null> = { water: null, materials: null };

    constructor(
        private readonly _scene: Scene,
        private readonly _width: number,
        private readonly _depth: number
    ) {
        this.maps = this._create(Constants.TEXTUREFORMAT_RGBA, 4, "TerrainErosion.maps");
        this.area = this._create(Constants.TEXTUREFORMAT_R, 1, "TerrainErosion.drainageArea");
    }

    /** Whether a texture made on first use exists yet. */
    public has(name: LaterTexture): boolean {
        return this._later[name] !== null;
    }

    /**
     * An RGBA32F texture made on first use: `water` the shallow water (layout in `waterTexels`),
     * `materials` the soil and rock (layout in `materialTexels`). Upload it whole then (`uploadAll`).
     */
    public later(name: LaterTexture): RawTexture {
        this._later[name] ??= this._create(Constants.TEXTUREFORMAT_RGBA, 4, name === "water" ? "TerrainErosion.shallowWater" : "TerrainErosion.materials");
        return this._later[name];
    }

    private _create(format: number, channels: number, name: string): RawTexture {
        const texture = new RawTexture(
            new Float32Array(this._width * this._depth * channels), this._width, this._depth, format, this._scene, false, false,
            Constants.TEXTURE_NEAREST_SAMPLINGMODE, Constants.TEXTURETYPE_FLOAT
        );
        texture.name = name;
        return texture;
    }

    /** Uploads columns `x0 .. x1 - 1` (whole rows by default) of rows `y0 .. y1 - 1` of the textures, from texels of that region. */
    public uploadRows(texels: MapsTexels, y0: number, y1: number, x0 = 0, x1 = this._width): void {
        // Engine and WebGPUEngine both have it; AbstractEngine does not declare it.
        const engine = this.maps.getScene()?.getEngine() as unknown as
            | {
                  isWebGPU: boolean;
                  _gl?: unknown;
                  updateTextureData(texture: InternalTexture, data: ArrayBufferView, x: number, y: number, width: number, height: number): void
              }
            | undefined;
        const mapsInternal = this.maps.getInternalTexture();
        const areaInternal = this.area.getInternalTexture();
        // A NullEngine (Node) has neither a WebGL context nor a WebGPU device: no texture memory to write.
        if (!engine || (!engine.isWebGPU && !engine._gl) || !mapsInternal || !areaInternal || y1 <= y0 || x1 <= x0) {
            return;
        }
        engine.updateTextureData(mapsInternal, texels.maps, x0, y0, x1 - x0, y1 - y0);
        engine.updateTextureData(areaInternal, texels.area, x0, y0, x1 - x0, y1 - y0);
        for (const name of LATER_TEXTURES) {
            const internal = this._later[name]?.getInternalTexture();
            const data = texels[name];
            if (internal && data) engine.updateTextureData(internal, data, x0, y0, x1 - x0, y1 - y0);
        }
    }

    /** Uploads both textures whole, from the maps and a state. */
    public uploadAll(maps: ErosionMaps, state: ErosionStateData, options: MapsTexelOptions): void {
        this.uploadRows(mapsTexels(maps, state, options, 0, this._depth), 0, this._depth);
    }

    /** Releases the textures. */
    public dispose(): void {
        this.maps.dispose();
        this.area.dispose();
        for (const name of LATER_TEXTURES) {
            this._later[name]?.dispose();
            this._later[name] = null;
        }
    }
}
