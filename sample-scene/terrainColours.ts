/**
 * A StandardMaterial plugin that colours terrain by height and slope, so channels, ridges and scree
 * read at a glance (grass on gentle low ground, bare rock on steep slopes, snow high up), and by
 * the erosion maps: wet channels where droplets gathered, sediment fans where material was laid
 * down. It can also show one map at a time. GLSL for WebGL2 and WGSL for WebGPU.
 *
 * The maps texture has one texel per ground vertex (row 0 at the far, +z, edge); the shader finds
 * the texel from the world position, so it needs the ground untransformed (as in the sample). The
 * drainage area (the river network) comes in a second, one-channel texture of the same layout.
 */
import { MaterialPluginBase } from "@babylonjs/core/Materials/materialPluginBase.js";
import { MaterialDefines } from "@babylonjs/core/Materials/materialDefines.js";
import type { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import type { UniformBuffer } from "@babylonjs/core/Materials/uniformBuffer.js";
import type { BaseTexture } from "@babylonjs/core/Materials/Textures/baseTexture.js";
import { ShaderLanguage } from "@babylonjs/core/Materials/shaderLanguage.js";

/** What the terrain shows. */
export const MAP_MODES = ["terrain", "water", "wear", "deposition", "direction", "drainage"] as const;
export type MapMode = (typeof MAP_MODES)[number];

const GLSL = `
    {
        float terrainT = clamp((vPositionW.y - terrainRange.x) / max(terrainRange.y - terrainRange.x, 0.001), 0.0, 1.0);
        float terrainSteep = smoothstep(0.72, 0.9, normalW.y);
        vec3 terrainLow = mix(vec3(0.36, 0.47, 0.22), vec3(0.55, 0.52, 0.33), smoothstep(0.25, 0.6, terrainT));
        vec3 terrainRock = mix(vec3(0.42, 0.37, 0.33), vec3(0.55, 0.53, 0.52), terrainT);
        vec3 terrainColour = mix(terrainRock, terrainLow, terrainSteep);
        terrainColour = mix(terrainColour, vec3(0.93, 0.94, 0.97), smoothstep(0.78, 0.9, terrainT) * smoothstep(0.55, 0.8, normalW.y));
        #ifdef TERRAINMAPS
            vec2 terrainUv = vec2(((vPositionW.x + terrainGrid.x) * terrainGrid.z + 0.5) / terrainGridSize.x, ((terrainGrid.y - vPositionW.z) * terrainGrid.z + 0.5) / terrainGridSize.y);
            vec4 terrainMap = texture2D(terrainMaps, terrainUv);
            float terrainWet = clamp(log(1.0 + terrainMap.r) / log(1.0 + terrainMapScale.x), 0.0, 1.0);
            float terrainWear = clamp(terrainMap.g / terrainMapScale.y, 0.0, 1.0);
            float terrainFan = clamp(terrainMap.b / terrainMapScale.z, 0.0, 1.0);
            if (terrainMapMode < 0.5) {
                terrainColour = mix(terrainColour, vec3(0.62, 0.55, 0.42), terrainFan * 0.7);
                terrainColour = mix(terrainColour, vec3(0.16, 0.3, 0.45), smoothstep(0.6, 0.95, terrainWet) * 0.75);
            } else if (terrainMapMode < 1.5) {
                terrainColour = mix(vec3(0.95), vec3(0.05, 0.25, 0.7), terrainWet);
            } else if (terrainMapMode < 2.5) {
                terrainColour = mix(vec3(0.95), vec3(0.7, 0.15, 0.05), terrainWear);
            } else if (terrainMapMode < 3.5) {
                terrainColour = mix(vec3(0.95), vec3(0.55, 0.4, 0.05), terrainFan);
            } else if (terrainMapMode < 4.5) {
                float terrainAngle = terrainMap.a / 8.0;
                terrainColour = terrainMap.a < 0.0 ? vec3(0.1) : 0.5 + 0.5 * cos(6.2831 * (terrainAngle + vec3(0.0, 0.33, 0.67)));
            }
        #endif
        #ifdef TERRAINAREA
            if (terrainMapMode > 4.5) {
                vec2 terrainAreaUv = vec2(((vPositionW.x + terrainGrid.x) * terrainGrid.z + 0.5) / terrainGridSize.x, ((terrainGrid.y - vPositionW.z) * terrainGrid.z + 0.5) / terrainGridSize.y);
                float terrainRiver = clamp(log(texture2D(terrainArea, terrainAreaUv).r) / log(max(terrainAreaScale, 2.0)), 0.0, 1.0);
                terrainColour = mix(terrainColour * 0.6 + 0.35, vec3(0.05, 0.2, 0.65), smoothstep(0.35, 1.0, terrainRiver));
            }
        #endif
        diffuseColor = terrainColour;
    }
`;

const WGSL = `
    {
        let terrainT = clamp((fragmentInputs.vPositionW.y - uniforms.terrainRange.x) / max(uniforms.terrainRange.y - uniforms.terrainRange.x, 0.001), 0.0, 1.0);
        let terrainSteep = smoothstep(0.72, 0.9, normalW.y);
        let terrainLow = mix(vec3f(0.36, 0.47, 0.22), vec3f(0.55, 0.52, 0.33), smoothstep(0.25, 0.6, terrainT));
        let terrainRock = mix(vec3f(0.42, 0.37, 0.33), vec3f(0.55, 0.53, 0.52), terrainT);
        var terrainColour = mix(terrainRock, terrainLow, terrainSteep);
        terrainColour = mix(terrainColour, vec3f(0.93, 0.94, 0.97), smoothstep(0.78, 0.9, terrainT) * smoothstep(0.55, 0.8, normalW.y));
        #ifdef TERRAINMAPS
            let terrainUv = vec2f(((fragmentInputs.vPositionW.x + uniforms.terrainGrid.x) * uniforms.terrainGrid.z + 0.5) / uniforms.terrainGridSize.x, ((uniforms.terrainGrid.y - fragmentInputs.vPositionW.z) * uniforms.terrainGrid.z + 0.5) / uniforms.terrainGridSize.y);
            let terrainMap = textureSample(terrainMaps, terrainMapsSampler, terrainUv);
            let terrainWet = clamp(log(1.0 + terrainMap.r) / log(1.0 + uniforms.terrainMapScale.x), 0.0, 1.0);
            let terrainWear = clamp(terrainMap.g / uniforms.terrainMapScale.y, 0.0, 1.0);
            let terrainFan = clamp(terrainMap.b / uniforms.terrainMapScale.z, 0.0, 1.0);
            if (uniforms.terrainMapMode < 0.5) {
                terrainColour = mix(terrainColour, vec3f(0.62, 0.55, 0.42), terrainFan * 0.7);
                terrainColour = mix(terrainColour, vec3f(0.16, 0.3, 0.45), smoothstep(0.6, 0.95, terrainWet) * 0.75);
            } else if (uniforms.terrainMapMode < 1.5) {
                terrainColour = mix(vec3f(0.95), vec3f(0.05, 0.25, 0.7), terrainWet);
            } else if (uniforms.terrainMapMode < 2.5) {
                terrainColour = mix(vec3f(0.95), vec3f(0.7, 0.15, 0.05), terrainWear);
            } else if (uniforms.terrainMapMode < 3.5) {
                terrainColour = mix(vec3f(0.95), vec3f(0.55, 0.4, 0.05), terrainFan);
            } else if (uniforms.terrainMapMode < 4.5) {
                if (terrainMap.a < 0.0) {
                    terrainColour = vec3f(0.1);
                } else {
                    terrainColour = 0.5 + 0.5 * cos(6.2831 * (terrainMap.a / 8.0 + vec3f(0.0, 0.33, 0.67)));
                }
            }
        #endif
        #ifdef TERRAINAREA
            if (uniforms.terrainMapMode > 4.5) {
                let terrainAreaUv = vec2f(((fragmentInputs.vPositionW.x + uniforms.terrainGrid.x) * uniforms.terrainGrid.z + 0.5) / uniforms.terrainGridSize.x, ((uniforms.terrainGrid.y - fragmentInputs.vPositionW.z) * uniforms.terrainGrid.z + 0.5) / uniforms.terrainGridSize.y);
                let terrainRiver = clamp(log(textureSample(terrainArea, terrainAreaSampler, terrainAreaUv).r) / log(max(uniforms.terrainAreaScale, 2.0)), 0.0, 1.0);
                terrainColour = mix(terrainColour * 0.6 + 0.35, vec3f(0.05, 0.2, 0.65), smoothstep(0.35, 1.0, terrainRiver));
            }
        #endif
        diffuseColor = terrainColour;
    }
`;

/** Height-, slope- and erosion-map-based terrain colouring for a StandardMaterial. */
export class TerrainColoursPlugin extends MaterialPluginBase {
    /** Heights (metres, world space) mapped to the bottom and top of the colour ramp. */
    public minHeight = 0;
    public maxHeight = 100;
    private _maps: BaseTexture | null = null;

    /** The erosion maps texture (TerrainErosion.getMapsTexture, or built from readMaps), or null. */
    public get maps(): BaseTexture | null {
        return this._maps;
    }

    public set maps(texture: BaseTexture | null) {
        if (texture !== this._maps) {
            this._maps = texture;
            this.markAllDefinesAsDirty();
        }
    }
    private _area: BaseTexture | null = null;

    /** The drainage-area texture (TerrainErosion.getMapTexture("drainageArea"), or built from readMaps), or null. */
    public get area(): BaseTexture | null {
        return this._area;
    }

    public set area(texture: BaseTexture | null) {
        if (texture !== this._area) {
            this._area = texture;
            this.markAllDefinesAsDirty();
        }
    }
    /** Values that show at full strength: water visits, wear m, deposition m. */
    public mapScale = [1000, 1, 1];
    /** Drainage area (cells) that shows at full strength (on a log scale). */
    public areaScale = 1000;
    /** What to show. */
    public mode: MapMode = "terrain";
    /** The ground's grid: half width and half height (m), cell size (m), vertices per row and rows. */
    public grid = { halfWidth: 0, halfHeight: 0, cellSize: 1, columns: 2, rows: 2 };

    constructor(material: StandardMaterial) {
        super(material, "TerrainColours", 200, { TERRAINCOLOURS: false, TERRAINMAPS: false, TERRAINAREA: false });
        this._enable(true);
    }

    public override prepareDefines(defines: MaterialDefines): void {
        defines["TERRAINCOLOURS"] = true;
        defines["TERRAINMAPS"] = this.maps !== null;
        defines["TERRAINAREA"] = this.area !== null;
    }

    public override isReadyForSubMesh(): boolean {
        return (this.maps === null || this.maps.isReady()) && (this.area === null || this.area.isReady());
    }

    public override isCompatible(shaderLanguage: ShaderLanguage): boolean {
        return shaderLanguage === ShaderLanguage.GLSL || shaderLanguage === ShaderLanguage.WGSL;
    }

    public override getSamplers(samplers: string[]): void {
        samplers.push("terrainMaps", "terrainArea");
    }

    public override getUniforms(shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL) {
        const wgsl = shaderLanguage === ShaderLanguage.WGSL;
        return {
            ubo: [
                { name: "terrainRange", size: 2, type: "vec2" },
                { name: "terrainGrid", size: 4, type: "vec4" },
                { name: "terrainGridSize", size: 2, type: "vec2" },
                { name: "terrainMapScale", size: 3, type: "vec3" },
                { name: "terrainMapMode", size: 1, type: "float" },
                { name: "terrainAreaScale", size: 1, type: "float" },
            ],
            fragment: wgsl
                ? "uniform terrainRange: vec2f;\nuniform terrainGrid: vec4f;\nuniform terrainGridSize: vec2f;\nuniform terrainMapScale: vec3f;\nuniform terrainMapMode: f32;\nuniform terrainAreaScale: f32;\n"
                : "uniform vec2 terrainRange;\nuniform vec4 terrainGrid;\nuniform vec2 terrainGridSize;\nuniform vec3 terrainMapScale;\nuniform float terrainMapMode;\nuniform float terrainAreaScale;\n",
        };
    }

    public override bindForSubMesh(uniformBuffer: UniformBuffer): void {
        uniformBuffer.updateFloat2("terrainRange", this.minHeight, this.maxHeight);
        uniformBuffer.updateFloat4("terrainGrid", this.grid.halfWidth, this.grid.halfHeight, 1 / this.grid.cellSize, 0);
        uniformBuffer.updateFloat2("terrainGridSize", this.grid.columns, this.grid.rows);
        uniformBuffer.updateFloat3("terrainMapScale", Math.max(1, this.mapScale[0]), Math.max(1e-6, this.mapScale[1]), Math.max(1e-6, this.mapScale[2]));
        uniformBuffer.updateFloat("terrainMapMode", MAP_MODES.indexOf(this.mode));
        uniformBuffer.updateFloat("terrainAreaScale", Math.max(2, this.areaScale));
        if (this.maps) {
            uniformBuffer.setTexture("terrainMaps", this.maps);
        }
        if (this.area) {
            uniformBuffer.setTexture("terrainArea", this.area);
        }
    }

    public override getClassName(): string {
        return "TerrainColoursPlugin";
    }

    public override getCustomCode(shaderType: string, shaderLanguage: ShaderLanguage = ShaderLanguage.GLSL) {
        if (shaderType !== "fragment") {
            return null;
        }
        const wgsl = shaderLanguage === ShaderLanguage.WGSL;
        return {
            // Samplers are declared with the fragment's definitions (uniform declarations above go into the UBO).
            CUSTOM_FRAGMENT_DEFINITIONS: wgsl
                ? "#ifdef TERRAINMAPS\nvar terrainMapsSampler: sampler;\nvar terrainMaps: texture_2d<f32>;\n#endif\n#ifdef TERRAINAREA\nvar terrainAreaSampler: sampler;\nvar terrainArea: texture_2d<f32>;\n#endif\n"
                : "#ifdef TERRAINMAPS\nuniform sampler2D terrainMaps;\n#endif\n#ifdef TERRAINAREA\nuniform sampler2D terrainArea;\n#endif\n",
            CUSTOM_FRAGMENT_UPDATE_DIFFUSE: wgsl ? WGSL : GLSL,
        };
    }
}
