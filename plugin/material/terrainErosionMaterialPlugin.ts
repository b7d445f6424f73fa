/**
 * `TerrainErosionMaterialPlugin`: the erosion maps in any `StandardMaterial` or `PBRMaterial` a game
 * already has: wet channels (where droplets gathered, or the river network), bare rock where
 * material was worn, sediment where it was laid down, and with the `materials` options rock by its
 * layer and loose soil by its thickness; or one map on its own for inspection.
 *
 * ```ts
 * import { TerrainErosionMaterialPlugin } from "babylon-terrain-erosion/material";
 * const plugin = new TerrainErosionMaterialPlugin(ground.material as PBRMaterial, erosion);
 * plugin.wetColor = new Color3(0.1, 0.2, 0.35);
 * await plugin.fitScales(); // colour scales from the maps so far (or set waterScale... yourself)
 * ```
 *
 * It reads the erosion's maps textures (`maps.getMapsTexture()`, `maps.getMapTexture("drainageArea")`
 * and `maps.getMapTexture("materials")`):
 * written on the GPU by the WebGPU backend (no readback), kept current from the changed rows by the
 * CPU backend on WebGL2. It filters them bilinearly in the shader (they are 32-bit float textures,
 * which not every device filters), and finds each fragment's texel from its world position, so a
 * material shared by the grounds of a `TerrainErosionWorld` works on every tile. Its own entry point
 * (`babylon-terrain-erosion/material`): a game that imports only `TerrainErosion` does not bundle it.
 */
import type { RawTexture } from "@babylonjs/core/Materials/Textures/rawTexture.js";
import { MaterialPluginBase } from "@babylonjs/core/Materials/materialPluginBase.js";
import type { MaterialDefines } from "@babylonjs/core/Materials/materialDefines.js";
import type { Material } from "@babylonjs/core/Materials/material.js";
import { ShaderLanguage } from "@babylonjs/core/Materials/shaderLanguage.js";
import type { UniformBuffer } from "@babylonjs/core/Materials/uniformBuffer.js";
import { Color3 } from "@babylonjs/core/Maths/math.color.js";
import type { Observer } from "@babylonjs/core/Misc/observable.js";
import type { ErosionController } from "../component/erosionController.js";
import { EROSION_MAP_VIEWS, EROSION_UNIFORMS, erosionFragmentCode, uniformDeclarations, type ErosionMapView } from "./erosionMaterialShaders.js";
import { installMaterialInspectables } from "./materialInspectables.js";
import { fitMapScales } from "./mapScales.js";

export { EROSION_MAP_VIEWS, type ErosionMapView } from "./erosionMaterialShaders.js";

/** What wets the channels: droplet visits (`"water"`) or the river network's drainage area (`"drainage"`). */
export type WetSource = "water" | "drainage";

/** Adds the erosion maps to a StandardMaterial or PBRMaterial. */
export class TerrainErosionMaterialPlugin extends MaterialPluginBase {
    /** Darken and tint wet channels. Default true. */
    public wetEnabled = true;
    /** Colour wet channels tend to (linear RGB): wet ground is dark, and water reflects the sky. Default (0.08, 0.17, 0.28). */
    public wetColor = new Color3(0.08, 0.17, 0.28);
    /** How far wet channels go to `wetColor`, 0..1. Default 0.8. */
    public wetStrength = 0.8;
    /** What wets the channels. Default `"water"`. */
    public wetSource: WetSource = "water";
    /** Show bare rock where material was worn. Default true. */
    public rockEnabled = true;
    /** Colour of worn rock. Default (0.45, 0.4, 0.37). */
    public rockColor = new Color3(0.45, 0.4, 0.37);
    /** How far the most worn ground goes to `rockColor`, 0..1. Default 0.5. */
    public rockStrength = 0.5;
    /** Show sediment where material was laid down (where soil is shown, `soilEnabled` with the materials on, the soil takes its place). Default true. */
    public sedimentEnabled = true;
    /** Colour of laid-down sediment. Default (0.62, 0.55, 0.42). */
    public sedimentColor = new Color3(0.62, 0.55, 0.42);
    /** How far the thickest sediment goes to `sedimentColor`, 0..1. Default 0.7. */
    public sedimentStrength = 0.7;
    /** Droplet visits that count as fully wet (on a log scale). Default 1000. */
    public waterScale = 1000;
    /** Wear (local units, the ground's height unit) that counts as bare rock. Default 1. */
    public wearScale = 1;
    /** Deposition (local units) that counts as full sediment. Default 1. */
    public depositionScale = 1;
    /** Drainage area (cells) that counts as a full river, on a log scale (`wetSource: "drainage"`). Default 1000. */
    public drainageScale = 1000;
    /** Colour rock by its bed where the `materials` options are on: soft to hard, alternate beds lighter and darker. Default true. */
    public layersEnabled = true;
    /** Colour of rock as soft as the soil (linear RGB). Default (0.46, 0.33, 0.26), a red shale. */
    public softRockColor = new Color3(0.46, 0.33, 0.26);
    /** Colour of the hardest rock (`hardnessScale`). Default (0.72, 0.68, 0.6), a pale limestone. */
    public hardRockColor = new Color3(0.72, 0.68, 0.6);
    /** How far bare rock goes to its layer's colour, 0..1. Default 0.6. */
    public layerStrength = 0.6;
    /** Rock hardness (times the soil's, log scale) shown as `hardRockColor`. Default 10. */
    public hardnessScale = 10;
    /** Colour the loose soil where the `materials` options are on. Default true. */
    public soilEnabled = true;
    /** Colour of loose soil (linear RGB). Default (0.3, 0.24, 0.14), a dark loam. */
    public soilColor = new Color3(0.3, 0.24, 0.14);
    /** How far the thickest soil goes to `soilColor`, 0..1. Default 0.8. */
    public soilStrength = 0.8;
    /** Soil thickness (local units) that counts as full soil. Default 0.5. */
    public soilScale = 0.5;
    /** Show one map on its own instead of the material (`"none"`: the material with the effects). */
    public mapView: ErosionMapView = "none";

    private _isEnabled = true;
    private _maps: RawTexture | null = null;
    private _area: RawTexture | null = null;
    private _materials: RawTexture | null = null;
    private _whenReady: Promise<void>;
    /** Counts binds and drops, so a bind that a detach (or a newer bind) overtook keeps nothing. */
    private _bindGeneration = 0;
    private readonly _uninstallInspectables: () => void;
    private readonly _erosion: ErosionController;
    private readonly _lifecycleObservers: Observer<ErosionController>[];

    /**
     * @param material a StandardMaterial or PBRMaterial (the plugin adds itself to it, enabled)
     * @param erosion the `TerrainErosion` or `TerrainErosionWorld` whose maps to show; the textures
     * are bound once its backend is ready
     */
    constructor(material: Material, erosion: ErosionController) {
        const className = material.getClassName();
        if (className !== "StandardMaterial" && className !== "PBRMaterial") {
            throw new TypeError(`TerrainErosionMaterialPlugin works on a StandardMaterial or a PBRMaterial, not a ${className} ("${material.name}").`);
        }
        super(material, "TerrainErosion", 300, { EROSIONMAPS: false });
        this._erosion = erosion;
        this._enable(true);
        this._uninstallInspectables = installMaterialInspectables(material, this);
        // Detached, the erosion's textures are gone: the material draws as without the plugin until
        // something is attached again, then takes the new runner's textures.
        this._lifecycleObservers = [
            erosion.onDetachedObservable.add(() => this._dropTextures()),
            erosion.onAttachedObservable.add(() => void (this._whenReady = this._bindTextures())),
        ];
        this._whenReady = this._bindTextures();
    }

    /** Whether the plugin changes the material at all (false: the material renders as without it). Default true. */
    public get isEnabled(): boolean {
        return this._isEnabled;
    }

    public set isEnabled(enabled: boolean) {
        if (enabled !== this._isEnabled) {
            this._isEnabled = enabled;
            this.markAllDefinesAsDirty();
        }
    }

    /**
     * Resolves once the maps textures are bound (the erosion's backend started), or the erosion
     * failed to start. After a detach and a new attach, the promise of the new attach's textures.
     */
    public get whenReady(): Promise<void> {
        return this._whenReady;
    }

    /**
     * Sets the colour scales from the maps accumulated so far: the 97th percentile of the water
     * visits, wear, deposition and soil thickness, the 99.5th of the drainage area, and the
     * hardest rock's hardness (each over the vertices where it is positive). Reads the maps back once.
     */
    public async fitScales(): Promise<void> {
        const scales = fitMapScales(await this._erosion.maps.readMaps(), this._erosion.maps.fieldCellSize);
        Object.assign(this, scales);
    }

    /** @internal */
    public override prepareDefines(defines: MaterialDefines): void {
        defines["EROSIONMAPS"] = this._isEnabled && this._maps !== null && this._area !== null && this._materials !== null;
    }

    /** @internal */
    public override isReadyForSubMesh(): boolean {
        return [this._maps, this._area, this._materials].every((texture) => texture?.isReady() ?? true);
    }

    /** @internal */
    public override isCompatible(shaderLanguage: ShaderLanguage): boolean {
        return shaderLanguage === ShaderLanguage.GLSL || shaderLanguage === ShaderLanguage.WGSL;
    }

    /** @internal */
    public override getSamplers(samplers: string[]): void {
        samplers.push("erosionMaps", "erosionArea", "erosionMaterials");
    }

    /** @internal */
    public override getUniforms(shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL) {
        return {
            ubo: EROSION_UNIFORMS.map(([name, size]) => ({ name, size, type: size === 1 ? "float" : `vec${size}` })),
            fragment: uniformDeclarations(shaderLanguage === ShaderLanguage.WGSL),
        };
    }

    /** @internal */
    public override bindForSubMesh(uniformBuffer: UniformBuffer): void {
        if (!this._isEnabled || !this._maps || !this._area || !this._materials || !this._erosion.isAttached) {
            return;
        }
        const grid = this._erosion.maps.getFieldGridTransform();
        uniformBuffer.updateFloat4("erosionGridX", grid.column[0], grid.column[1], grid.column[2], grid.column[3]);
        uniformBuffer.updateFloat4("erosionGridY", grid.row[0], grid.row[1], grid.row[2], grid.row[3]);
        uniformBuffer.updateFloat2("erosionGridSize", grid.width, grid.depth);
        uniformBuffer.updateFloat4("erosionScales", this.waterScale, this.wearScale, this.depositionScale, this.drainageScale);
        const on = (enabled: boolean, strength: number) => (enabled ? Math.min(1, Math.max(0, strength)) : 0);
        uniformBuffer.updateFloat4(
            "erosionStrengths", on(this.wetEnabled, this.wetStrength), on(this.rockEnabled, this.rockStrength), on(this.sedimentEnabled, this.sedimentStrength),
            this.wetSource === "drainage" ? 1 : 0
        );
        uniformBuffer.updateColor3("erosionWetColor", this.wetColor);
        uniformBuffer.updateColor3("erosionRockColor", this.rockColor);
        uniformBuffer.updateColor3("erosionSedimentColor", this.sedimentColor);
        uniformBuffer.updateFloat("erosionMapView", Math.max(0, EROSION_MAP_VIEWS.indexOf(this.mapView)));
        uniformBuffer.updateFloat4(
            "erosionMaterialScales", this.soilScale, this.hardnessScale, on(this.soilEnabled, this.soilStrength), on(this.layersEnabled, this.layerStrength)
        );
        uniformBuffer.updateColor3("erosionSoilColor", this.soilColor);
        uniformBuffer.updateColor3("erosionSoftRockColor", this.softRockColor);
        uniformBuffer.updateColor3("erosionHardRockColor", this.hardRockColor);
        uniformBuffer.setTexture("erosionMaps", this._maps);
        uniformBuffer.setTexture("erosionArea", this._area);
        uniformBuffer.setTexture("erosionMaterials", this._materials);
    }

    /** @internal */
    public override getClassName(): string {
        return "TerrainErosionMaterialPlugin";
    }

    /** @internal */
    public override getCustomCode(shaderType: string, shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL) {
        // Called while the base class registers the plugin too (before this constructor's body), so the kind comes from the material.
        const kind = this._material.getClassName() === "PBRMaterial" ? "pbr" : "standard";
        return shaderType === "fragment" ? erosionFragmentCode(shaderLanguage === ShaderLanguage.WGSL, kind) : null;
    }

    /** Removes the plugin's Inspector controls and its observers on the erosion (the material disposes the plugin itself). */
    public override dispose(forceDisposeTextures?: boolean): void {
        this._uninstallInspectables();
        this._erosion.onDetachedObservable.remove(this._lifecycleObservers[0]);
        this._erosion.onAttachedObservable.remove(this._lifecycleObservers[1]);
        this._dropTextures();
        super.dispose(forceDisposeTextures);
    }

    private async _bindTextures(): Promise<void> {
        const generation = ++this._bindGeneration;
        try {
            await this._erosion.whenReady();
            const maps = await this._erosion.maps.getMapsTexture();
            const area = await this._erosion.maps.getMapTexture("drainageArea");
            const materials = await this._erosion.maps.getMapTexture("materials");
            // A detach (or another attach) while these were on their way: they belong to a stopped runner.
            if (generation !== this._bindGeneration || !this._erosion.isAttached) return;
            this._maps = maps;
            this._area = area;
            this._materials = materials;
            this.markAllDefinesAsDirty();
        } catch {
            // The erosion could not start, or was detached first: it reports that itself; the material renders without the maps.
        }
    }

    /** Forgets the erosion's textures (a detach freed them), so the material draws without the maps. */
    private _dropTextures(): void {
        this._bindGeneration++;
        if (!this._maps && !this._area && !this._materials) return;
        this._maps = null;
        this._area = null;
        this._materials = null;
        this.markAllDefinesAsDirty();
    }
}
