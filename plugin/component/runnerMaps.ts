/**
 * The erosion maps of a runner: as arrays (`readMaps`), and as the textures materials sample
 * (written on the GPU by the WebGPU backend; on the CPU backend, `CpuMapsTextures` kept current from
 * the rows each frame changed, and uploaded whole after a change that did not come through frames).
 */
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import { drainageDirections, type ErosionMaps, type MapsTexelOptions, type MapsTexels } from "../core/erosionMaps.js";
import { CpuMapsTextures, type LaterTexture } from "./cpuMapsTextures.js";
import type { Live, LiveQueue } from "./runnerLive.js";
import { presenterOf, type MapsTextureName } from "./backendPresenter.js";
import { waterMapArrays, type WaterMaps } from "../core/waterMaps.js";
import { materialMapArrays, type MaterialMaps } from "../core/materialMaps.js";
import { materialParams } from "../core/batchParams.js";

/** A map with a texture of its own (`getMapTexture`), beside the maps texture. */
export type MapTextureName = "drainageArea" | "shallowWater" | "materials";

/** A runner's maps. */
export class RunnerMaps {
    /** The CPU backend's textures, once asked for. */
    private _cpuTextures: CpuMapsTextures | null = null;

    constructor(private readonly _runner: LiveQueue) {}

    /** The erosion maps, the drainage directions and area, and the water's depth and velocity, as arrays, after everything issued so far. */
    public readMaps(): Promise<ErosionMaps & { direction: Uint8Array; drainageArea: Int32Array } & WaterMaps & MaterialMaps> {
        return this._runner.queueLive("readMaps", async ({ backend, schedule, field }) => {
            const maps = await backend.readMaps();
            const state = await backend.readState(schedule.cycle, schedule.batch);
            // The strata in force: those of the options, as a batch carries them.
            const strata = materialParams(schedule.options, schedule.options.thermal.talus);
            return {
                ...maps,
                direction: drainageDirections(state.heights, state.fillLevels, state.width, state.depth, schedule.options.tileable),
                drainageArea: state.drainageArea,
                ...waterMapArrays(state, field.cellSize),
                ...materialMapArrays(state, strata, field.cellSize),
            };
        });
    }

    /** Starts the maps again from zero. */
    public resetMaps(): Promise<void> {
        return this._runner.queueLive("resetMaps", async (live) => {
            await live.backend.resetMaps();
            await this.refresh(live);
        });
    }

    /** The maps texture (RGBA32F, layout in `ErosionController.getMapsTexture`). */
    public getMapsTexture(): Promise<RawTexture> {
        return this._runner.queueLive("getMapsTexture", async (live) => this._deviceTexture(live, "maps") ?? (await this._cpuMapsTextures(live)).maps);
    }

    /** The drainage-area texture (R32F). */
    public getAreaTexture(): Promise<RawTexture> {
        return this._runner.queueLive("getMapTexture", async (live) => this._deviceTexture(live, "area") ?? (await this._cpuMapsTextures(live)).area);
    }

    /** The shallow-water texture (RGBA32F, layout in `waterTexels`). */
    public getWaterTexture(): Promise<RawTexture> {
        return this._runner.queueLive(
            "getMapTexture", async (live) => this._deviceTexture(live, "water") ?? (await this._cpuLaterTexture(live, "water"))
        );
    }

    /** The materials texture (RGBA32F, layout in `materialTexels`). */
    public getMaterialsTexture(): Promise<RawTexture> {
        return this._runner.queueLive(
            "getMapTexture", async (live) => this._deviceTexture(live, "materials") ?? (await this._cpuLaterTexture(live, "materials"))
        );
    }

    /** The texture `name` as the backend makes it on its device (the GPU backend's), or null where the component makes its own. */
    private _deviceTexture(live: Live, name: MapsTextureName): Promise<RawTexture> | null {
        return presenterOf(live.backend).deviceTexture(name, live.field.scene, () => live.schedule.options.tileable);
    }

    /** What the CPU backend needs to compute the textures' changed rows, or null when no CPU texture is in use. */
    public texelOptions(): MapsTexelOptions | null {
        const textures = this._cpuTextures;
        if (!textures) return null;
        const options = this._runner.schedule.options;
        return {
            tileable: options.tileable,
            cellSize: this._runner.field.cellSize,
            water: textures.has("water"),
            materials: textures.has("materials") ? materialParams(options, options.thermal.talus) : null,
        };
    }

    /** Uploads rows the CPU backend computed for a frame. */
    public uploadRows(texels: MapsTexels, y0: number, y1: number, x0?: number, x1?: number): void {
        this._cpuTextures?.uploadRows(texels, y0, y1, x0, x1);
    }

    /** Uploads the CPU textures whole (after a reset, restore or maps reset). Call inside the runner's queue. */
    public async refresh(live: Live): Promise<void> {
        const textures = this._cpuTextures;
        if (textures && presenterOf(live.backend).uploadsMaps) {
            const maps = await live.backend.readMaps();
            textures.uploadAll(maps, await live.backend.readState(live.schedule.cycle, live.schedule.batch), this.texelOptions()!);
        }
    }

    /** Releases the CPU textures (the GPU backend releases its own). */
    public dispose(): void {
        this._cpuTextures?.dispose();
        this._cpuTextures = null;
    }

    /** A CPU backend's texture made on first use (and uploaded whole then). */
    private async _cpuLaterTexture(live: Live, name: LaterTexture): Promise<RawTexture> {
        const textures = await this._cpuMapsTextures(live);
        if (!textures.has(name)) {
            const texture = textures.later(name);
            await this.refresh(live);
            return texture;
        }
        return textures.later(name);
    }

    private async _cpuMapsTextures(live: Live): Promise<CpuMapsTextures> {
        if (!this._cpuTextures) {
            this._cpuTextures = new CpuMapsTextures(live.field.scene, live.field.width, live.field.depth);
            await this.refresh(live);
        }
        return this._cpuTextures;
    }
}
