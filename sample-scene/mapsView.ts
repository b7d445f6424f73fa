/**
 * Feeds the erosion maps to the terrain material: on WebGPU the component's maps and drainage-area
 * textures (written on the GPU, no readback); on the CPU backend float textures refreshed from
 * `readMaps()` every half second. Every two seconds it reads the maps back to set the colour scales (the sample only;
 * a game would pick fixed scales).
 */
import { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import { Constants } from "@babylonjs/core/Engines/constants.js";
import type { Scene } from "@babylonjs/core/scene.js";
import { FIXED_ONE, type ErosionController } from "../plugin/index.js";
import type { TerrainColoursPlugin } from "./terrainColours.js";

/** The value below which `share` of the positive values lie. */
function percentile(values: Uint32Array, share: number): number {
    const positive = Array.from(values).filter((value) => value > 0);
    if (positive.length === 0) return 1;
    positive.sort((a, b) => a - b);
    return positive[Math.min(positive.length - 1, Math.floor(positive.length * share))];
}

/** Keeps the terrain material's maps texture and scales up to date. */
export class ErosionMapsView {
    private _cpuTexture: RawTexture | null = null;
    private _cpuArea: RawTexture | null = null;
    private _timer: ReturnType<typeof setInterval> | null = null;
    private _busy = false;

    constructor(
        private readonly _erosion: ErosionController,
        private readonly _colours: TerrainColoursPlugin,
        private readonly _scene: Scene
    ) {}

    /** Starts feeding the maps (after the erosion backend is ready). */
    public async start(): Promise<void> {
        const texture = await this._erosion.getMapsTexture();
        if (texture) {
            this._colours.maps = texture;
            this._colours.area = await this._erosion.getMapTexture("drainageArea");
        }
        let ticks = 0;
        this._timer = setInterval(() => {
            if (this._busy) return;
            this._busy = true;
            const gpu = texture !== null;
            const refreshScales = ticks++ % 4 === 0;
            if (gpu && !refreshScales) {
                this._busy = false;
                return;
            }
            this._erosion
                .readMaps()
                .then((maps) => {
                    if (refreshScales) {
                        // The maps count 1/65536 of a cell; the texture and the colours work in local units.
                        const unit = this._colours.grid.cellSize / FIXED_ONE;
                        this._colours.mapScale = [percentile(maps.water, 0.97), percentile(maps.wear, 0.97) * unit, percentile(maps.deposition, 0.97) * unit];
                        this._colours.areaScale = percentile(Uint32Array.from(maps.drainageArea), 0.995);
                    }
                    if (!gpu) {
                        this._uploadCpu(maps);
                    }
                })
                .catch(() => undefined)
                .finally(() => (this._busy = false));
        }, 500);
    }

    private _uploadCpu(maps: { water: Uint32Array; wear: Uint32Array; deposition: Uint32Array; direction: Uint8Array; drainageArea: Int32Array }): void {
        const { columns, rows } = this._colours.grid;
        const data = new Float32Array(columns * rows * 4);
        const unit = this._colours.grid.cellSize / FIXED_ONE;
        for (let i = 0; i < columns * rows; i++) {
            data[i * 4] = maps.water[i];
            data[i * 4 + 1] = maps.wear[i] * unit;
            data[i * 4 + 2] = maps.deposition[i] * unit;
            data[i * 4 + 3] = maps.direction[i] === 255 ? -1 : maps.direction[i];
        }
        if (!this._cpuTexture) {
            this._cpuTexture = new RawTexture(data, columns, rows, Constants.TEXTUREFORMAT_RGBA, this._scene, false, false, Constants.TEXTURE_NEAREST_SAMPLINGMODE, Constants.TEXTURETYPE_FLOAT);
            this._colours.maps = this._cpuTexture;
        } else {
            this._cpuTexture.update(data);
        }
        const area = Float32Array.from(maps.drainageArea);
        if (!this._cpuArea) {
            this._cpuArea = new RawTexture(area, columns, rows, Constants.TEXTUREFORMAT_R, this._scene, false, false, Constants.TEXTURE_NEAREST_SAMPLINGMODE, Constants.TEXTURETYPE_FLOAT);
            this._colours.area = this._cpuArea;
        } else {
            this._cpuArea.update(area);
        }
    }

    /** Stops feeding the maps. */
    public dispose(): void {
        if (this._timer) clearInterval(this._timer);
        this._cpuTexture?.dispose();
        this._cpuArea?.dispose();
    }
}
